"""Issue 16: recording the service of a notice of violation and starting an
emergency suspension are legally binding steps — each asks "I confirm: …"
saying what it does and what it starts, does nothing without the tick, and says
what it did in words. And R-SUS-1: the written notice of reasons is due on the
case's deadlines panel, with the engine's date, until it is recorded as sent."""

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from deadlines.models import Deadline
from deadlines.services import compute_due
from enforcement.document_kinds import EnforcementDocument
from enforcement.models import AccessSuspension, ServiceRecord
from kernel.actions import CONFIRM_MISSING
from kernel.humanize import human_date
from tests.steps import case_confirmed, confirmed
from tests.visible import visible_text

pytestmark = pytest.mark.django_db

ARTICLE = "9407 1118 9876 5432 1000 00"
DIGITS = ARTICLE.replace(" ", "")  # as stored (article_number_clean)


@pytest.fixture(autouse=True)
def private_media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


def _service(served_on=None, **more):
    return {
        "method": "certified",
        "served_on": (served_on or timezone.localdate()).isoformat(),
        "article_number": ARTICLE,
        "served_by": "Post office",
        "where": "12 Shore Road",
        **more,
    }


def test_record_service_asks_for_confirmation_with_the_last_day_to_appeal(
    issued_notice, smo_client
):
    url = reverse("enforcement:notice_service", args=[issued_notice.pk])
    appeal = issued_notice.deadlines().get(rule_id="R-APL-1")
    page = smo_client.get(url).content.decode()
    assert "I confirm: Recording the service" in page
    assert human_date(appeal.due_date) in page


def test_record_service_without_the_tick_does_nothing_and_keeps_the_input(
    issued_notice, smo_client
):
    url = reverse("enforcement:notice_service", args=[issued_notice.pk])
    page = smo_client.post(url, _service())
    assert page.status_code == 200
    body = page.content.decode()
    assert CONFIRM_MISSING.replace("“", "&ldquo;")[:10] in body or (
        "Tick" in body and "nothing was done" in body
    )
    assert ARTICLE in body
    assert not ServiceRecord.objects.exists()


def test_record_service_confirmed_says_what_it_did(issued_notice, smo_client):
    url = reverse("enforcement:notice_service", args=[issued_notice.pk])
    page = smo_client.post(url, case_confirmed(_service()), follow=True)
    body = page.content.decode()
    record = ServiceRecord.objects.get()
    assert record.article_number == DIGITS
    assert (
        f"Service of notice of violation NOV-{issued_notice.pk} recorded: "
        f"certified mail, article {DIGITS}, on {human_date(timezone.localdate())}"
    ) in body
    assert "The last day to appeal stays" in body


def _suspend_url(case):
    return reverse("enforcement:remedy_create", args=[case.pk, "suspension"])


def _suspension(owner, **more):
    at = timezone.localtime() - dt.timedelta(hours=2)
    return {
        "party": owner.pk,
        "suspended_at": at.strftime("%Y-%m-%dT%H:%M"),
        "reasons": "Heating oil reaching the catch basin.",
        **more,
    }


def test_starting_a_suspension_asks_for_confirmation_of_the_notice_deadline(
    confirmed_case, smo_client
):
    page = smo_client.get(_suspend_url(confirmed_case)).content.decode()
    due = compute_due("R-SUS-1", timezone.localdate()).due
    assert "I confirm: Suspending cuts the premises" in page
    assert f"will be due by {human_date(due)}" in page


def test_a_suspension_without_the_tick_is_not_started(
    confirmed_case, owner, smo_client
):
    page = smo_client.post(_suspend_url(confirmed_case), _suspension(owner))
    assert page.status_code == 200
    assert "nothing was done" in page.content.decode()
    assert "Heating oil reaching the catch basin." in page.content.decode()
    assert not AccessSuspension.objects.exists()
    assert not Deadline.objects.filter(rule_id="R-SUS-1").exists()


def test_the_written_notice_is_due_on_the_deadlines_panel_until_recorded_as_sent(
    confirmed_case, owner, smo_client
):
    """R-SUS-1: started with its confirmation, the suspension says when the
    written notice of reasons is due; the case's deadlines panel shows that date
    (the engine's) as open; issued and recorded as sent, the deadline is met and
    leaves the list of open deadlines."""
    page = smo_client.post(
        _suspend_url(confirmed_case), case_confirmed(_suspension(owner)), follow=True
    )
    suspension = AccessSuspension.objects.get()
    event_day = timezone.localtime(suspension.suspended_at).date()
    due = compute_due("R-SUS-1", event_day).due
    assert "the written notice of reasons is due by" in page.content.decode()
    deadline = Deadline.objects.get(rule_id="R-SUS-1")
    assert deadline.due_date == due

    case_page = smo_client.get(confirmed_case.get_absolute_url()).content.decode()
    panel = case_page[case_page.index('id="case-dl-h"') :]
    assert "R-SUS-1" in panel and f"Due {human_date(due)}" in visible_text(panel)
    open_list = reverse("deadlines:list")
    assert (
        f"/staff/deadlines/{deadline.pk}/" in smo_client.get(open_list).content.decode()
    )

    issue = reverse(
        "enforcement:document_issue",
        args=["suspension", suspension.pk, EnforcementDocument.EMERGENCY_SUSPENSION],
    )
    smo_client.post(issue)
    step = f"{suspension.get_absolute_url()}step/record_notice/"
    smo_client.post(
        step,
        confirmed(
            "record_notice",
            {"expected_status": "suspended"},
            **{
                "record_notice-notice_sent_on": timezone.localdate().isoformat(),
                "record_notice-notice_method": "personal",
            },
        ),
    )
    deadline.refresh_from_db()
    assert deadline.status == Deadline.Status.MET
    case_page = smo_client.get(confirmed_case.get_absolute_url()).content.decode()
    panel = case_page[case_page.index('id="case-dl-h"') :]
    assert f"Met {human_date(timezone.localdate())}" in visible_text(panel)
    body = smo_client.get(open_list).content.decode()
    assert f"/staff/deadlines/{deadline.pk}/" not in body
