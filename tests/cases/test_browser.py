"""One real browser: the SMO takes a report from triage to a resolved case and reads
the chronology (issue 3, "Done when")."""

import re

import pytest

from cases.models import Case, CaseStatus
from tests.conftest import browser_sign_in
from tests.steps import tick_confirmation

from .factories import ReportFactory


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_smo_triages_a_report_confirms_and_resolves_and_reads_the_timeline(
    browser_page, smo_user
):
    report = ReportFactory(description="Soapy water from the car wash drain")
    page = browser_page
    browser_sign_in(page, "smo")
    page.get_by_role("link", name="Triage").first.click()
    page.get_by_label(report.tracking_code).check()
    page.get_by_label("Summary").fill("Car-wash suds in the street drain")
    page.get_by_role("button", name="Triage selected reports").click()
    page.wait_for_url(re.compile(r"/staff/cases/MS4-\d{4}-\d{4}/$"))

    page.get_by_role("link", name="Start investigation").click()
    page.get_by_role("button", name="Start investigation").click()
    # "Confirm violation" is shown disabled, saying what is missing and linking to it.
    why = page.locator("#why-confirm_violation")
    assert "add the owner, operator or discharger" in why.inner_text()
    why.get_by_role("link", name="Name a party").click()
    page.get_by_label("Role").select_option("operator")
    page.get_by_label("New party: name").fill("Harbor Auto Detailing LLC")
    page.get_by_role("button", name="Save").click()

    page.get_by_role("link", name="Confirm violation").click()
    page.get_by_label("Responsible party").select_option(
        label="Harbor Auto Detailing LLC"
    )
    page.get_by_label("Finding").fill("Wash-bay floor drain piped to the MS4")
    page.get_by_role("button", name="Confirm violation").click()
    assert "Violation confirmed" in page.get_by_test_id("case-status").inner_text()

    page.get_by_role("link", name="Record resolved").click()
    page.get_by_label("Date the discharge or connection was eliminated").fill(
        "2026-01-05"
    )
    page.get_by_label("How the elimination was verified").fill("Dye test negative")
    tick_confirmation(page)
    page.get_by_role("button", name="Record resolved").click()

    assert page.get_by_test_id("case-status").inner_text() == "Resolved"
    timeline = page.get_by_test_id("timeline").inner_text()
    story = [
        "Case opened",
        f"Report {report.tracking_code}",
        "Start investigation",
        "Party named: Harbor Auto Detailing LLC",
        "Confirm violation",
        "Record resolved",
    ]
    positions = [timeline.index(step) for step in story]
    assert positions == sorted(positions)
    case = Case.objects.get(summary="Car-wash suds in the street drain")
    assert case.status == CaseStatus.RESOLVED
    assert case.responsible_party.name == "Harbor Auto Detailing LLC"
