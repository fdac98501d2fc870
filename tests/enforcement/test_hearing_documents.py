"""The notice of hearing and the agenda go through the document pipeline
(frozen, hashed, versioned); the notice's sending is recorded like a notice's
service."""

import datetime as dt
import re

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from pypdf import PdfReader

from documents.contracts import FactsInvalid
from documents.models import IssuedDocument
from documents.services import document_render, issue_for
from enforcement.document_kinds import EnforcementDocument
from enforcement.documents.hearing import agenda_text, hearing_notice_contract
from enforcement.models import HearingNoticeService
from enforcement.services import appeals as appeal_services
from enforcement.services import meetings as meeting_services
from kernel.workflow import Refused
from tests.steps import confirmed

from .conftest import issued_notice_of_hearing, village_day


@pytest.fixture(autouse=True)
def private_media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


def _issued_notice_of_hearing(appeal, clerk_user):
    with village_day(dt.date(2026, 3, 11)):
        return issued_notice_of_hearing(appeal, clerk_user)


def _text(document):
    with document.pdf.open("rb") as handle:
        return " ".join(page.extract_text() for page in PdfReader(handle).pages)


def test_a_notice_of_hearing_needs_a_scheduled_hearing(appeal):
    with pytest.raises(FactsInvalid, match="schedule the hearing"):
        hearing_notice_contract(appeal)


def test_the_notice_of_hearing_states_date_time_place_and_the_notice(
    scheduled_appeal, clerk_user
):
    document = _issued_notice_of_hearing(scheduled_appeal, clerk_user)
    assert document.is_issued and len(document.sha256) == 64
    assert document.version == 1
    assert document.facts["hearing_on"] == "2026-03-24"
    assert document.facts["hearing_time"] == "7:00 PM"
    text = _text(document)
    for words in (
        "Tuesday, March 24, 2026",
        "7:00 PM",
        "Village Hall",
        f"NOV-{scheduled_appeal.notice_id}",
        "What to bring",
        "If you cannot come on that date",
    ):
        assert words in text, words
    # issued again: a correction, version 2
    with village_day(dt.date(2026, 3, 12)):
        again = issue_for(
            kind=EnforcementDocument.HEARING_NOTICE,
            source=scheduled_appeal,
            actor=clerk_user,
        )
    assert again.version == 2 and again.supersedes == document


def test_only_the_clerk_issues_the_notice_of_hearing(scheduled_appeal, client_as):
    url = reverse(
        "enforcement:document_issue",
        args=["appeal", scheduled_appeal.pk, EnforcementDocument.HEARING_NOTICE],
    )
    assert client_as("smo").post(url).status_code == 403
    with village_day(dt.date(2026, 3, 11)):
        data = confirmed(EnforcementDocument.HEARING_NOTICE)
        assert client_as("clerk").post(url, data).status_code == 302
    assert IssuedDocument.objects.filter(
        kind=EnforcementDocument.HEARING_NOTICE
    ).exists()


def test_the_sending_is_recorded_with_the_article_number(
    scheduled_appeal, clerk_user, smo_user
):
    document = _issued_notice_of_hearing(scheduled_appeal, clerk_user)
    scheduled_appeal.refresh_from_db()
    with village_day(dt.date(2026, 3, 12)):
        with pytest.raises(ValidationError):
            meeting_services.hearing_notice_record_service(
                appeal=scheduled_appeal,
                actor=clerk_user,
                method="certified",
                served_on=dt.date(2026, 3, 12),
                sent_to="Pat Owner",
            )
        with pytest.raises(Refused):
            meeting_services.hearing_notice_record_service(
                appeal=scheduled_appeal,
                actor=smo_user,
                method="personal",
                served_on=dt.date(2026, 3, 12),
                sent_to="Pat Owner",
            )
        sent = meeting_services.hearing_notice_record_service(
            appeal=scheduled_appeal,
            actor=clerk_user,
            method="certified",
            served_on=dt.date(2026, 3, 12),
            sent_to="Pat Owner",
            article_number="9407 1111 0000 0000 0000",
        )
    assert sent.document == document
    assert HearingNoticeService.objects.get().article_number == "94071111000000000000"


def test_the_appeal_page_offers_the_notice_and_then_its_sending(
    scheduled_appeal, clerk_user, client_as
):
    client = client_as("clerk")
    page = client.get(scheduled_appeal.get_absolute_url()).content.decode()
    assert "Notice of hearing on appeal" in page
    assert "Record the sending" not in page
    _issued_notice_of_hearing(scheduled_appeal, clerk_user)
    page = client.get(scheduled_appeal.get_absolute_url()).content.decode()
    assert "Record the sending" in page


def test_the_agenda_lists_the_hearings_as_pdf_and_as_text(
    scheduled_appeal, clerk_user, client_as
):
    meeting = scheduled_appeal.meeting
    text = agenda_text(meeting)
    assert "Tuesday, March 24, 2026, 7:00 PM, Village Hall" in text
    assert f"Appeal {scheduled_appeal.pk}: Pat Owner" in text
    with village_day(dt.date(2026, 3, 11)):
        document = issue_for(
            kind=EnforcementDocument.MEETING_AGENDA, source=meeting, actor=clerk_user
        )
    document = document_render(document_id=document.pk)
    assert f"NOV-{scheduled_appeal.notice_id}" in _text(document)
    page = client_as("clerk").get(meeting.get_absolute_url()).content.decode()
    assert 'data-testid="agenda-text"' in page
    assert "Agenda of the Board of Trustees" in page


def test_the_notice_of_hearing_may_be_sent_by_email_to_an_address(
    scheduled_appeal, clerk_user, client_as
):
    _issued_notice_of_hearing(scheduled_appeal, clerk_user)
    client = client_as("clerk")
    page = client.get(scheduled_appeal.get_absolute_url()).content.decode()
    assert '<option value="email">E-mail</option>' in page
    url = reverse(
        "enforcement:appeal_record", args=[scheduled_appeal.pk, "hearing_service"]
    )
    data = {
        "hearing_service-method": "email",
        "hearing_service-served_on": "2026-03-12",
        "hearing_service-sent_to": "Pat Owner",
        "hearing_service-confirm": "on",
    }
    with village_day(dt.date(2026, 3, 12)):
        refused = client.post(url, data)
        assert "Give the e-mail address it was sent to" in refused.content.decode()
        assert not HearingNoticeService.objects.exists()
        done = client.post(
            url, {**data, "hearing_service-sent_to": "Pat Owner, pat@example.org"}
        )
    assert done.status_code == 302
    sent = HearingNoticeService.objects.get()
    assert sent.method == HearingNoticeService.Method.EMAIL
    assert not sent.awaits_delivery_outcome  # no green card to wait for
    page = client.get(scheduled_appeal.get_absolute_url()).content.decode()
    assert "to Pat Owner, pat@example.org: E-mail on Thu, Mar 12, 2026" in page


def test_the_notice_of_hearing_page_links_back_to_its_appeal_and_case(
    scheduled_appeal, clerk_user, client_as
):
    document = _issued_notice_of_hearing(scheduled_appeal, clerk_user)
    page = client_as("clerk").get(reverse("documents:detail", args=[document.pk]))
    body = page.content.decode()
    appeal_url = scheduled_appeal.get_absolute_url()
    assert f'<a href="{appeal_url}">Appeal {scheduled_appeal.pk}</a>' in body
    case = scheduled_appeal.case
    assert f'<a href="{case.get_absolute_url()}">Case {case.number}</a>' in body


def test_after_a_corrected_notice_the_page_waits_for_its_pdf_then_offers_the_sending(
    scheduled_appeal, clerk_user, client_as
):
    """R-APL-2: issuing the corrected notice of a moved hearing leaves its PDF to
    the worker; meanwhile the appeal page says it is being prepared (with the
    status the script polls), then offers "Record the sending" once it is ready."""
    from enforcement.services.appeals import appeal_schedule_hearing

    from .conftest import aware

    _issued_notice_of_hearing(scheduled_appeal, clerk_user)
    with village_day(dt.date(2026, 3, 12)):
        moved, _ = appeal_schedule_hearing(
            appeal=scheduled_appeal,
            actor=clerk_user,
            hearing_at=aware(2026, 3, 31),
            location="Village Hall",
        )
    client = client_as("clerk")
    url = moved.get_absolute_url()
    status_url = reverse("enforcement:hearing_notice_status", args=[moved.pk])
    issue = reverse(
        "enforcement:document_issue",
        args=["appeal", moved.pk, EnforcementDocument.HEARING_NOTICE],
    )
    with village_day(dt.date(2026, 3, 12)):
        data = confirmed(EnforcementDocument.HEARING_NOTICE)
        assert client.post(issue, data).status_code == 302  # worker not run
    corrected = IssuedDocument.objects.get(
        kind=EnforcementDocument.HEARING_NOTICE, version=2
    )
    assert corrected.status == IssuedDocument.Status.RENDERING
    page = client.get(url).content.decode()
    assert "The notice of hearing is being prepared." in page
    assert f'data-hearing-notice-status="{status_url}"' in page
    assert 'data-rendering="true"' in page
    assert "js/hearing-notice-status.js" in page
    assert "Record the sending" not in page
    assert "hearing-notice-out-of-date" not in page
    status = client.get(status_url)
    assert "no-store" in status["Cache-Control"]
    assert status.json() == {"step": "rendering", "rendering": True}

    document_render(document_id=corrected.pk)  # what the worker does
    assert client.get(status_url).json() == {"step": "send", "rendering": False}
    page = client.get(url).content.decode()
    assert "Record the sending" in page
    assert "being prepared" not in page
    assert "hearing-notice-status.js" not in page
    assert client_as("smo").get(status_url).status_code == 200


def test_the_status_of_the_notice_of_hearing_is_for_staff_only(
    scheduled_appeal, client
):
    url = reverse("enforcement:hearing_notice_status", args=[scheduled_appeal.pk])
    assert client.get(url).status_code in (302, 403)


def _signature(html: str) -> str:
    return re.search(r'<section class="signature">(.*?)</section>', html, re.S).group(1)


def test_the_boards_papers_are_signed_once_by_the_clerk_for_the_board(
    scheduled_appeal, clerk_user
):
    """Issue 26: not "Village Clerk / Village Clerk, for the Board of Trustees"."""
    hearing = _issued_notice_of_hearing(scheduled_appeal, clerk_user)
    decided = appeal_services.appeal_decide(
        appeal=scheduled_appeal,
        actor=clerk_user,
        decision="upheld",
        decided_on=dt.date(2026, 3, 24),
        resolution="Upheld.",
    )
    with village_day(dt.date(2026, 3, 24)):
        decision = document_render(
            document_id=issue_for(
                kind=EnforcementDocument.APPEAL_DECISION,
                source=decided,
                actor=clerk_user,
            ).pk
        )
    for document in (hearing, decision):
        signature = _signature(document.html)
        assert signature.count("Clerk") == 1, signature
        assert "Village Clerk" in signature
        assert "For the Board of Trustees" in signature
        assert "Village Clerk For the Board of Trustees" in " ".join(
            _text(document).split()
        )
