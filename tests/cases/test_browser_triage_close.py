"""Issue 26, in a real browser at phone and desktop size: the SMO closes a report
as an exempt discharge from the triage page by clicks only, and the resident's
status page says the discharge is of a kind the law allows."""

import re

import pytest

from cases.models import CaseStatus
from intake.models import Report
from tests.conftest import browser_sign_in
from tests.test_browser_layout import SIZES
from tests.walks.test_notice_and_appeal import _menu

from .factories import ReportFactory

_WIDER_THAN_VIEWPORT = "() => document.documentElement.scrollWidth > window.innerWidth"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("size", sorted(SIZES))
def test_smo_closes_a_report_as_exempt_and_the_resident_reads_why(
    browser_page, smo_user, size
):
    report = ReportFactory(
        description="Water running from a lawn sprinkler into the drain",
        address="12 Birchwood Avenue",
    )
    other = ReportFactory(description="Oil sheen at the outfall")
    page = browser_page
    page.set_viewport_size(SIZES[size])
    browser_sign_in(page, "smo")
    _menu(page)
    page.get_by_role("link", name="Triage").first.click()
    page.wait_for_url("**/staff/triage/")

    card = page.get_by_test_id("triage-report").filter(has_text=report.tracking_code)
    card.get_by_text(f"Close {report.tracking_code} without a case").click()
    exempt = card.get_by_test_id("triage-close-exempt")
    exempt.get_by_label("Landscape irrigation or lawn watering", exact=True).check()
    assert not page.evaluate(_WIDER_THAN_VIEWPORT)
    exempt.get_by_role("button", name="Close as exempt").click()

    page.wait_for_url(re.compile(r"/staff/triage/$"))
    assert "closed as an exempt discharge" in page.locator("main").inner_text()
    # It left the queue; the other report is still waiting.
    assert page.get_by_test_id("triage-report").count() == 1
    assert other.tracking_code in page.get_by_test_id("triage-report").inner_text()
    report.refresh_from_db()
    assert report.case.status == CaseStatus.EXEMPT

    # The resident checks the report with the tracking code.
    page.goto("/")
    _menu(page)
    page.get_by_role("link", name="Check a report").first.click()
    page.get_by_label("Tracking code").fill(report.tracking_code)
    page.get_by_role("button", name="Check").click()
    assert page.locator("#public-status").inner_text() == "Closed — not a violation"
    assert page.locator("#status-words").inner_text() == (
        "Closed: the discharge is of a kind the law allows: Lawn watering and "
        "landscape irrigation."
    )
    assert not page.evaluate(_WIDER_THAN_VIEWPORT)
    assert Report.objects.filter(case__isnull=True).count() == 1
