"""Resolving a case ends its clocks everywhere a person looks (issue 25), walked
in a browser at desktop and phone size using only what the pages show: the SMO
records the case resolved from the case list; the case page, the deadline list
and the SMO's calendar feed show no running date of it; the respondent's page
says it is resolved; the next day's reminder sweep sends nothing for it, and the
reminder that was waiting is cancelled."""

import datetime as dt

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from deadlines.reminders import sweep_reminders
from enforcement.services import notices as notice_svc
from kernel.humanize import human_date
from kernel.models import CaseEvent
from outbox.models import OutgoingMessage
from portal.services import live_access
from tests.conftest import browser_sign_in
from tests.enforcement.conftest import draft
from tests.enforcement.test_browser_remedies import confirmed_case
from tests.steps import tick_confirmation
from tests.test_browser_layout import SIZES

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def iso(day: dt.date) -> str:
    return day.isoformat()


def nav_to(page, name):
    """Click the navigation bar's link `name`, opening the menu on a narrow screen."""
    toggle = page.get_by_role("button", name="Toggle navigation")
    if toggle.is_visible():
        toggle.click()
    page.get_by_role("navigation", name="Main").get_by_role(
        "link", name=name, exact=True
    ).click()


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_smo_resolves_a_case_and_no_clock_of_it_runs_anywhere(
    browser_page, live_server, settings, smo_user, size
):
    settings.SITE_URL = live_server.url
    today = timezone.localdate()
    case = confirmed_case(smo_user)
    # Issued 8 days ago with 10 days: remediation due in two days, and the
    # sweep queues its reminder today (R-NOV-2).
    notice = notice_svc.notice_issue(
        notice=draft(case, smo_user, violation_date=today - dt.timedelta(days=9)),
        actor=smo_user,
        issued_on=today - dt.timedelta(days=8),
    )
    sweep_reminders(today=today)
    waiting = OutgoingMessage.objects.filter(case=case, kind="reminder")
    assert waiting.filter(status=OutgoingMessage.Status.PENDING).exists()
    code = live_access(case, notice.recipient).printed

    page = browser_page
    page.set_viewport_size(SIZES[size])
    browser_sign_in(page, smo_user.username)
    nav_to(page, "Cases")
    page.get_by_role("link", name=case.number).first.click()
    page.get_by_role("link", name="Record resolved").click()
    page.get_by_label("Date the discharge or connection was eliminated").fill(
        iso(today)
    )
    page.get_by_label("How the elimination was verified").fill(
        "Dye test at the catch basin: clear"
    )
    tick_confirmation(page)
    page.get_by_role("button", name="Record resolved").click()
    expect(page.get_by_test_id("case-status")).to_have_text("Resolved")
    expect(page.get_by_test_id("case-closed-clocks")).to_have_text(
        f"This case was resolved on {human_date(today)}: no deadline runs for it "
        "any more."
    )
    panel = page.locator(".case-deadlines").inner_text()
    assert "Open" not in panel.split() and "Overdue" not in panel
    assert panel.count("No longer running") == 2  # R-APL-1 and R-NOV-2

    # The deadline list (open deadlines by default) and the calendar feed.
    nav_to(page, "Dashboard")
    page.get_by_role("link", name="All deadlines").click()
    expect(page.locator("main")).not_to_contain_text(case.number)
    page.get_by_role("link", name="My calendar feed").first.click()
    feed_url = page.get_by_label("Calendar address (iCal)").input_value()
    feed = page.request.get(feed_url).text()
    assert "BEGIN:VCALENDAR" in feed and case.number not in feed

    # The respondent's page, entered with the code the notice printed.
    page.goto("/respond/")
    page.get_by_label("Access code").fill(code)
    page.get_by_role("button", name="Open my case page").click()
    expect(page.get_by_test_id("portal-case-closed")).to_have_text(
        f"This case was resolved on {human_date(today)}. Nothing more is required "
        "of you."
    )
    expect(page.locator("main")).not_to_contain_text("days left")
    expect(page.locator("main")).to_contain_text("No date runs for you on this notice.")

    # The reminder that was waiting is cancelled; the next day's sweep sends nothing.
    assert set(waiting.values_list("status", flat=True)) == {
        OutgoingMessage.Status.SKIPPED
    }
    # Each cancellation is a step of the message's machine, on the chronology.
    cancelled = CaseEvent.objects.filter(
        case=case, summary__startswith="Reminder not sent: "
    )
    assert cancelled.count() == waiting.count() > 0
    assert all("no longer runs" in event.detail for event in cancelled)
    before = OutgoingMessage.objects.filter(case=case).count()
    sweep_reminders(today=today + dt.timedelta(days=1))
    assert OutgoingMessage.objects.filter(case=case).count() == before
