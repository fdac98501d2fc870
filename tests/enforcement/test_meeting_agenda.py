"""The agenda is a paper of the Board's meeting, not of one case (R-APL-2): one
agenda per meeting, filed on no case, listing every appeal heard there (case,
appellant, notice), signed once by the clerk; issued from the meeting's page."""

import datetime as dt
import re

import pytest
from django.urls import reverse
from pypdf import PdfReader

from cases.models import Case, CaseStatus, Party, Premises
from documents.models import IssuedDocument
from documents.selectors import documents_of
from documents.services import document_render, issue_for
from enforcement.document_kinds import EnforcementDocument
from enforcement.models import Appeal
from enforcement.services import appeals as appeal_services
from enforcement.services import notices as notice_services
from tests.steps import confirmed

from .conftest import aware, draft, schedule_hearing, village_day

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def private_media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture
def second_appeal(db, smo_user, clerk_user):
    """Another case's appeal, heard at the same meeting as `scheduled_appeal`."""
    party = Party.objects.create(
        name="Sam Neighbor", mailing_address="14 Shore Road\nPoquott, NY 11733"
    )
    case = Case.objects.create(
        number="MS4-1999-0002",
        source="web",
        summary="Wash water to the storm drain",
        premises=Premises.objects.create(address="14 Shore Road"),
        responsible_party=party,
        status=CaseStatus.VIOLATION_CONFIRMED,
        violation_confirmed_on=dt.date(2026, 3, 2),
        violation_finding="Wash water to the catch basin.",
    )
    notice = notice_services.notice_issue(
        notice=draft(case, smo_user), actor=smo_user, issued_on=dt.date(2026, 3, 3)
    )
    appeal = appeal_services.appeal_file(
        notice=notice,
        actor=clerk_user,
        appellant=party,
        filed_on=dt.date(2026, 3, 10),
        grounds="It was clean water.",
    )
    appeal, _ = schedule_hearing(
        appeal, clerk_user, aware(2026, 3, 24), location="Village Hall"
    )
    return appeal


def _issue(meeting, clerk_user, day=dt.date(2026, 3, 11)):
    with village_day(day):
        document = issue_for(
            kind=EnforcementDocument.MEETING_AGENDA, source=meeting, actor=clerk_user
        )
    return document_render(document_id=document.pk)


def _text(document):
    with document.pdf.open("rb") as handle:
        return " ".join(page.extract_text() for page in PdfReader(handle).pages)


def test_one_agenda_of_the_meeting_lists_every_appeal_heard(
    scheduled_appeal, second_appeal, clerk_user
):
    meeting = scheduled_appeal.meeting
    assert second_appeal.meeting == meeting
    agenda = _issue(meeting, clerk_user)
    assert agenda.is_issued and agenda.case is None  # the meeting's, no case's
    items = agenda.facts["items"]
    assert [i["case_number"] for i in items] == ["MS4-1999-0001", "MS4-1999-0002"]
    assert [i["appellant"] for i in items] == ["Pat Owner", "Sam Neighbor"]
    text = _text(agenda)
    for words in (
        "MS4-1999-0001",
        "MS4-1999-0002",
        "Pat Owner",
        "Sam Neighbor",
        f"NOV-{scheduled_appeal.notice_id}",
        f"NOV-{second_appeal.notice_id}",
    ):
        assert words in text, words
    assert "Case no." not in text


def test_the_agenda_signature_names_the_clerk_once(scheduled_appeal, clerk_user):
    agenda = _issue(scheduled_appeal.meeting, clerk_user)
    signature = re.search(
        r'<section class="signature">(.*?)</section>', agenda.html, re.S
    ).group(1)
    assert signature.count("Clerk") == 1, signature
    assert "For the Board of Trustees" in signature


def test_moving_a_hearing_to_another_meeting_corrects_each_agenda(
    scheduled_appeal, second_appeal, clerk_user
):
    """The agenda filed on the first appeal's case could not be corrected once
    that appeal moved; the meeting's agenda is corrected as a new version."""
    meeting = scheduled_appeal.meeting
    first = _issue(meeting, clerk_user)
    schedule_hearing(
        Appeal.objects.get(pk=scheduled_appeal.pk),
        clerk_user,
        aware(2026, 3, 31),
        location="Village Hall",
        on=dt.date(2026, 3, 12),
    )
    corrected = _issue(meeting, clerk_user, dt.date(2026, 3, 12))
    assert corrected.version == 2 and corrected.supersedes == first
    assert [i["appellant"] for i in corrected.facts["items"]] == ["Sam Neighbor"]
    later = Appeal.objects.get(pk=scheduled_appeal.pk).meeting
    assert later != meeting
    assert _issue(later, clerk_user, dt.date(2026, 3, 12)).facts["items"][0][
        "appellant"
    ] == ("Pat Owner")


def test_the_clerk_issues_the_agenda_from_the_meeting_page(
    scheduled_appeal, second_appeal, client_as
):
    meeting = scheduled_appeal.meeting
    url = reverse(
        "enforcement:document_issue",
        args=["meeting", meeting.pk, EnforcementDocument.MEETING_AGENDA],
    )
    assert client_as("smo").post(url).status_code == 403
    clerk = client_as("clerk")
    page = clerk.get(meeting.get_absolute_url()).content.decode()
    assert f'action="{url}"' in page
    with village_day(dt.date(2026, 3, 11)):
        data = confirmed(EnforcementDocument.MEETING_AGENDA)
        assert clerk.post(url, data).status_code == 302
    (agenda,) = documents_of(meeting, EnforcementDocument.MEETING_AGENDA)
    assert agenda.case is None
    assert len(IssuedDocument.objects.get(pk=agenda.pk).facts["items"]) == 2
    page = clerk.get(meeting.get_absolute_url()).content.decode()
    assert "issued; the PDF is being rendered" in page
    # Not on either case's appeal page: the agenda is the meeting's paper.
    appeal_page = clerk.get(scheduled_appeal.get_absolute_url()).content.decode()
    assert "Agenda of the Board" not in appeal_page


def test_an_agenda_filed_on_a_case_before_is_corrected_by_the_meetings(
    scheduled_appeal, clerk_user
):
    """An agenda issued when it was filed on its first hearing's case stays as
    it was (frozen) and readable; the next issue corrects it as version 2."""
    from dataclasses import replace

    from documents.services import document_issue
    from enforcement.documents.hearing import meeting_agenda_contract

    meeting, case = scheduled_appeal.meeting, scheduled_appeal.case
    with village_day(dt.date(2026, 3, 11)):
        facts = replace(meeting_agenda_contract(meeting), case_number=case.number)
        old = document_issue(
            kind=EnforcementDocument.MEETING_AGENDA,
            facts=facts,
            case=case,
            source=meeting,
            actor=clerk_user,
        )
    old = document_render(document_id=old.pk)
    assert old.case == case and "MS4-1999-0001" in _text(old)
    corrected = _issue(meeting, clerk_user, dt.date(2026, 3, 12))
    assert corrected.version == 2 and corrected.supersedes == old
    assert corrected.case is None
