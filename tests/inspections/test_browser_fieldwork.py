"""Field work completed by clicking only (issue 14): what the page offers, nothing
typed in the address bar after signing in.

(a) A case opened from a resident's report has no premises: scheduling an
inspection from it is refused with the link that adds them; then the inspection,
a refused access, the search-warrant application filed, issued and executed, the
second visit and its finalizing — each step on the case's chronology. At desktop
and phone size.
(b) A spill told by telephone: its page offers the written confirmation; it is
recorded, the record closed, and its own chronology lists every step."""

import datetime as dt
import re

import pytest
from django.utils import timezone

from cases.models import CaseParty
from cases.services import case_add_party, case_open_from_reports
from inspections.models import (
    Inspection,
    InspectionStatus,
    SpillNotification,
    SpillStatus,
    WarrantApplication,
    WarrantStatus,
)
from kernel.humanize import human_long_date
from tests.cases.factories import PremisesFactory, ReportFactory
from tests.conftest import browser_sign_in
from tests.steps import tick_confirmation

PHONE = {"width": 390, "height": 844}


def go(page, name):
    """Follow an entry of the main navigation (behind the menu button on phones)."""
    toggler = page.get_by_role("button", name="Toggle navigation")
    if toggler.is_visible():
        toggler.click()
    page.get_by_role("navigation", name="Main").get_by_role("link", name=name).click()


def field(page, label):
    """The field labelled exactly `label` (crispy marks required ones with *)."""
    return page.get_by_label(re.compile(rf"^\s*{re.escape(label)}\s*\*?\s*$"))


def local(moment: dt.datetime) -> str:
    return timezone.localtime(moment).strftime("%Y-%m-%dT%H:%M")


def case_from_a_report(smo_user):
    report = ReportFactory(description="Soapy water running from the car wash")
    case = case_open_from_reports(
        reports=[report], actor=smo_user, summary="Car-wash suds in the street drain"
    )
    case_add_party(
        case=case,
        actor=smo_user,
        role=CaseParty.Role.OPERATOR,
        new_party={"name": "Harbor Auto Detailing LLC", "kind": "entity"},
    )
    assert case.premises is None
    return case


def walk_the_inspection_and_warrant_from_the_case(page, case):
    now = timezone.now()
    browser_sign_in(page, "smo")
    go(page, "Cases")
    page.get_by_role("link", name=case.number).click()

    # The case has no premises: scheduling is refused with the way out.
    page.get_by_role("link", name="Schedule an inspection").click()
    field(page, "Kind").select_option("complaint")
    page.get_by_label("Scheduled for").fill(local(now - dt.timedelta(hours=3)))
    page.get_by_label("Purpose").fill("Look at the wash bay drain")
    page.get_by_role("button", name="Save").click()
    alert = page.get_by_role("alert").filter(has_text="has no premises")
    assert alert.is_visible()
    assert page.get_by_label("Purpose").input_value() == "Look at the wash bay drain"
    alert.get_by_role("link", name="Add the premises").click()

    page.get_by_label("New premises: address").fill("12 Harbor Road")
    page.get_by_label("New premises: land use").select_option("commercial")
    page.get_by_role("button", name="Save").click()
    assert "12 Harbor Road" in page.get_by_role("main").inner_text()

    # Now the inspection is scheduled at the case's premises.
    page.get_by_role("link", name="Schedule an inspection").click()
    assert field(page, "Premises").locator("option:checked").inner_text() == (
        "12 Harbor Road"
    )
    field(page, "Kind").select_option("complaint")
    page.get_by_label("Scheduled for").fill(local(now - dt.timedelta(hours=3)))
    page.get_by_role("button", name="Save").click()
    first = Inspection.objects.get(case=case)
    assert page.get_by_test_id("record-status").inner_text() == "Scheduled"

    # The visit: access refused.
    visit = page
    visit.get_by_label("When the visit took place").fill(
        local(now - dt.timedelta(hours=2))
    )
    visit.get_by_label("Who went").fill("S. Officer, J. Tech")
    visit.get_by_label("Access outcome").select_option("refused")
    visit.get_by_label("Access notes").fill("The manager refused entry at the gate")
    page.get_by_role("button", name="Record the visit").click()
    assert page.get_by_test_id("record-status").inner_text() == "Recorded"
    tick_confirmation(page, "warrant")
    page.get_by_role("button", name="Start a warrant application").click()

    # The warrant application: filed, issued, executed.
    today = timezone.localdate().isoformat()
    filing = page
    field(filing, "Probable-cause statement").fill(
        "Soapy dry-weather flow from the wash bay reaches the storm drain"
    )
    field(filing, "Court").fill("Suffolk County District Court")
    filing.get_by_label("Date filed").fill(today)
    page.get_by_role("button", name="File with the court").click()
    assert page.get_by_test_id("record-status").inner_text() == "Filed with the court"
    page.get_by_label("Date the court issued the warrant").fill(today)
    page.get_by_role("button", name="Record the warrant issued").click()
    assert page.get_by_test_id("record-status").inner_text() == "Warrant issued"
    page.get_by_label("Date the warrant was executed").fill(today)
    page.get_by_role("button", name="Record the warrant executed").click()
    assert page.get_by_test_id("record-status").inner_text() == "Warrant executed"
    warrant = WarrantApplication.objects.get(inspection=first)

    # The second visit, under the warrant: access granted, findings, finalized.
    page.get_by_role("link", name="Schedule the inspection under the warrant").click()
    page.get_by_label("Scheduled for").fill(local(now - dt.timedelta(minutes=50)))
    page.get_by_role("button", name="Save").click()
    second = Inspection.objects.exclude(pk=first.pk).get(case=case)
    assert second.kind == Inspection.Kind.FOLLOW_UP
    visit = page
    visit.get_by_label("When the visit took place").fill(
        local(now - dt.timedelta(minutes=30))
    )
    visit.get_by_label("Who went").fill("S. Officer, Deputy Sheriff")
    visit.get_by_label("Access outcome").select_option("granted")
    visit.get_by_label("Findings").fill("Wash-bay floor drain piped to the MS4")
    page.get_by_role("button", name="Record the visit").click()
    tick_confirmation(page, "finalize")
    page.get_by_role("button", name="Finalize (lock)").click()
    assert page.get_by_test_id("record-status").inner_text() == "Finalized (locked)"

    # The case's chronology lists every step, in order.
    page.get_by_role("link", name=case.number).first.click()
    timeline = page.get_by_test_id("timeline").inner_text()
    story = [
        "Case opened",
        "Party named: Harbor Auto Detailing LLC",
        "Case details changed",
        "Complaint inspection scheduled",
        f"Inspection {first.pk} recorded: Access refused",
        f"Search-warrant application {warrant.pk} started",
        f"Warrant application {warrant.pk}: filed with the court",
        f"Warrant application {warrant.pk}: search warrant issued",
        f"Warrant application {warrant.pk}: search warrant executed",
        "Follow-up inspection scheduled",
        f"Inspection {second.pk} recorded: Access granted",
        f"Inspection {second.pk} finalized and locked",
    ]
    positions = [timeline.index(line) for line in story]
    assert positions == sorted(positions)

    first.refresh_from_db()
    second.refresh_from_db()
    warrant.refresh_from_db()
    assert first.status == InspectionStatus.RECORDED
    assert first.access_outcome == Inspection.Access.REFUSED
    assert warrant.status == WarrantStatus.EXECUTED
    assert second.status == InspectionStatus.FINALIZED
    assert first.premises.address == "12 Harbor Road"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_inspection_and_warrant_from_a_case_without_premises_at_desktop_size(
    browser_page, smo_user
):
    walk_the_inspection_and_warrant_from_the_case(
        browser_page, case_from_a_report(smo_user)
    )


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_inspection_and_warrant_from_a_case_without_premises_at_phone_size(
    browser_page, smo_user
):
    browser_page.set_viewport_size(PHONE)
    walk_the_inspection_and_warrant_from_the_case(
        browser_page, case_from_a_report(smo_user)
    )


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_spill_told_by_telephone_is_confirmed_in_writing_and_closed(
    browser_page, smo_user
):
    PremisesFactory(address="40 Washington Street")
    now = timezone.now()
    page = browser_page
    browser_sign_in(page, "smo")
    go(page, "Spills")
    page.get_by_role("link", name="Record a spill notification").click()
    field(page, "Premises").select_option(label="40 Washington Street")
    page.get_by_label("Reported by (person responsible)").fill("Pat Quinn")
    page.get_by_label("Release became known at").fill(
        local(now - dt.timedelta(hours=2))
    )
    field(page, "Material").fill("Wash water")
    page.get_by_label("Containment steps").fill("Boom across the drain")
    page.get_by_label("Cleanup steps").fill("Vacuum truck")
    page.get_by_label("How the village was told").select_option("telephone")
    page.get_by_label("Village told at").fill(local(now - dt.timedelta(hours=1)))
    page.get_by_role("button", name="Record spill notification").click()
    assert page.get_by_test_id("record-status").inner_text() == "Recorded"

    # The page offers the written confirmation; closing waits for it.
    assert page.get_by_role("button", name="Close the spill record").is_disabled()
    page.get_by_label("Written confirmation mailed on (postmark)").fill(
        timezone.localdate().isoformat()
    )
    page.get_by_role("button", name="Record the written confirmation").click()
    status = page.get_by_test_id("record-status").inner_text()
    assert status == "Written confirmation received"
    page.get_by_label("Closing notes").fill("Drain flushed; no residue")
    tick_confirmation(page, "close")
    page.get_by_role("button", name="Close the spill record").click()
    assert page.get_by_test_id("record-status").inner_text() == "Closed"

    spill = SpillNotification.objects.get()
    chronology = page.get_by_test_id("chronology").inner_text()
    story = [
        f"Spill notification {spill.pk} recorded: Wash water (nonhazardous)",
        f"Written confirmation of spill {spill.pk} mailed "
        f"{human_long_date(timezone.localdate())} — on time",
        f"Spill notification {spill.pk} closed",
    ]
    positions = [chronology.index(line) for line in story]
    assert positions == sorted(positions)
    assert spill.status == SpillStatus.CLOSED
