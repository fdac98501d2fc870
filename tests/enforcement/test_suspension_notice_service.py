"""§ 132-9 A, R-SUS-1: "The SMO shall notify the person of such suspension within
a reasonable time thereafter in writing of the reasons for the suspension."

The written notice of reasons is a document issued from the suspension's page;
issuing it offers, on the same page, to record how and when it was sent — the
date, the method and the certified mail article number, as a notice of
violation's service is recorded — and recording that meets the deadline of the
written notice. Built through the services and the pages; asserted on what the
SMO reads (the page, the PDF's text)."""

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from cases.services import Refused
from deadlines.models import Deadline
from documents.contracts import FactsInvalid
from documents.models import IssuedDocument
from documents.services import document_render
from enforcement.document_kinds import EnforcementDocument
from enforcement.models import SuspensionStatus
from enforcement.services import remedies as svc
from kernel.humanize import human_date
from tests.documents.conftest import pdf_text
from tests.steps import confirmed
from tests.visible import visible_text

pytestmark = pytest.mark.django_db

ARTICLE = "9407 1118 9876 5432 1000 00"
DIGITS = ARTICLE.replace(" ", "")  # as stored (article_number_clean)
REASONS = "Chlorinated pool water flowing to the bay."


@pytest.fixture(autouse=True)
def private_media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture
def suspension(confirmed_case, smo_user, owner, settings):
    settings.SUSPENSION_NOTICE_BUSINESS_DAYS = 2
    return svc.suspension_start(
        case=confirmed_case,
        actor=smo_user,
        party=owner,
        suspended_at=timezone.now() - dt.timedelta(hours=3),
        reasons=REASONS,
    )


def _issue(client, suspension):
    page = suspension.get_absolute_url()
    url = reverse(
        "enforcement:document_issue",
        args=["suspension", suspension.pk, EnforcementDocument.EMERGENCY_SUSPENSION],
    )
    return client.post(url, {"next": page})


def _step(client, suspension, **data):
    url = f"{suspension.get_absolute_url()}step/record_notice/"
    fields = {f"record_notice-{k}": v for k, v in data.items()}
    return client.post(
        url,
        confirmed("record_notice", {"expected_status": suspension.status}, **fields),
    )


def test_issuing_the_notice_of_reasons_offers_to_record_its_service_and_meets_the_deadline(
    suspension, smo_user, smo_client
):
    """R-SUS-1: issue the written notice; the page then offers "Record the notice
    of reasons" with the date it was issued; certified mail needs its article
    number; once recorded, the deadline is met and the page says how it was sent."""
    today = timezone.localdate()
    deadline = svc.open_deadline_for(suspension, "R-SUS-1")
    assert deadline.status == Deadline.Status.OPEN

    issued = _issue(smo_client, suspension)
    assert issued.status_code == 302
    assert issued["Location"].endswith("#step-record_notice")
    page = smo_client.get(issued["Location"]).content.decode()
    assert (
        "Record how and when it was sent: “Record the notice of reasons” below" in page
    )
    assert 'id="step-record_notice"' in page
    assert f'name="record_notice-notice_sent_on" value="{today:%Y-%m-%d}"' in page

    document = IssuedDocument.objects.get(kind=EnforcementDocument.EMERGENCY_SUSPENSION)
    document = document_render(document_id=document.pk)
    text = pdf_text(document.pdf.open("rb").read())
    assert REASONS in text and document.document_number in text

    refused = _step(
        smo_client,
        suspension,
        notice_sent_on=f"{today:%Y-%m-%d}",
        notice_method="certified",
    )
    assert refused.status_code == 200
    assert "Give the certified mail article number." in refused.content.decode()
    suspension.refresh_from_db()
    assert suspension.status == SuspensionStatus.SUSPENDED

    done = _step(
        smo_client,
        suspension,
        notice_sent_on=f"{today:%Y-%m-%d}",
        notice_method="certified",
        notice_article_number=ARTICLE,
    )
    assert done.status_code == 302
    page = smo_client.get(done["Location"]).content.decode()
    served = (
        f"sent {human_date(today)} (Certified mail, article {DIGITS}, "
        f"{document.document_number} version 1)"
    )
    assert served in visible_text(page)
    assert f"Met {human_date(today)}" in visible_text(page)
    assert "Suspended; notice of reasons sent" in page
    deadline.refresh_from_db()
    assert deadline.status == Deadline.Status.MET and deadline.met_on == today
    suspension.refresh_from_db()
    assert suspension.notice_document == document


def test_the_notice_of_reasons_can_be_recorded_as_sent_by_the_service(
    suspension, smo_user
):
    """R-SUS-1: recorded as sent without a document issued here (a letter
    delivered by hand); it cannot be dated before the suspension."""
    # the day before the suspension (3 hours ago may be yesterday in the village)
    before = timezone.localdate(suspension.suspended_at) - dt.timedelta(days=1)
    with pytest.raises(
        Refused, match="cannot be sent before the day of the suspension"
    ):
        svc.remedy_step(
            obj=suspension,
            transition="record_notice",
            actor=smo_user,
            notice_sent_on=before,
            notice_method="personal",
        )
    done = svc.remedy_step(
        obj=suspension,
        transition="record_notice",
        actor=smo_user,
        notice_sent_on=timezone.localdate(),
        notice_method="personal",
    )
    assert done.status == SuspensionStatus.NOTIFIED
    assert done.service_words == "Personal delivery"
    assert done.notice_document is None
    assert svc.open_deadline_for(done, "R-SUS-1") is None or (
        svc.open_deadline_for(done, "R-SUS-1").status == Deadline.Status.MET
    )


def test_a_suspension_at_night_is_dated_by_the_village_not_utc():
    """R-SUS-1: the notice of reasons may be dated the day of the suspension. At
    9:30 PM in Poquott it is already the next day in UTC; the check reads the
    village's date (it refused every evening's notice before)."""
    import dataclasses
    from zoneinfo import ZoneInfo

    from documents.contracts import validate_facts
    from enforcement.documents.access import sample_emergency_suspension

    evening = dt.datetime(2026, 3, 2, 21, 30, tzinfo=ZoneInfo("America/New_York"))
    facts = dataclasses.replace(
        sample_emergency_suspension(),
        suspended_at=evening.astimezone(dt.UTC),
        issued_on=dt.date(2026, 3, 2),
    )
    assert validate_facts(EnforcementDocument.EMERGENCY_SUSPENSION, facts) is facts
    day_before = dataclasses.replace(facts, issued_on=dt.date(2026, 3, 1))
    with pytest.raises(FactsInvalid, match="the suspension is dated after the notice"):
        validate_facts(EnforcementDocument.EMERGENCY_SUSPENSION, day_before)
