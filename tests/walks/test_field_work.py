"""Click-only walk of field work (issue 14): a case opened from a resident's report
has no premises; the SMO follows the page's own link to add it, schedules the
inspection from the case page, records access refused, and takes the warrant
through filed, issued and executed. The case chronology lists every step."""

import datetime as dt

import pytest
from django.utils import timezone

from cases.models import Case, CaseEvent, CaseStatus
from inspections.models import Inspection, WarrantApplication
from tests.conftest import browser_sign_in


def _menu(page):
    toggle = page.locator(".navbar-toggler")
    if toggle.is_visible():
        toggle.click()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("size", [None, {"width": 390, "height": 844}])
def test_inspection_refused_warrant_then_visit_recorded(browser_page, smo_user, size):
    case = Case.objects.create(
        number="MS4-2026-0202",
        source="web",
        summary="Milky water from a pipe behind 4 Harbor Lane",
        status=CaseStatus.INVESTIGATING,
    )
    page = browser_page
    if size:
        page.set_viewport_size(size)
    browser_sign_in(page, "smo")
    _menu(page)
    page.get_by_role("link", name="Cases", exact=True).first.click()
    page.get_by_role("link", name=case.number).first.click()

    page.get_by_role("link", name="Schedule an inspection").click()
    page.get_by_role("link", name="Add the premises to the case").click()
    page.get_by_label("New premises: address").fill("4 Harbor Lane")
    page.get_by_role("button", name="Save").click()
    page.get_by_role("link", name="Schedule an inspection").click()
    yesterday = timezone.localtime() - dt.timedelta(days=1)
    page.get_by_label("Kind").select_option(label="Complaint")
    page.get_by_label("Scheduled for").fill(yesterday.strftime("%Y-%m-%dT%H:%M"))
    page.get_by_role("button", name="Save").click()
    inspection = Inspection.objects.get(case=case)
    assert inspection.premises.address == "4 Harbor Lane"

    page.get_by_label("Performed at").fill(yesterday.strftime("%Y-%m-%dT%H:%M"))
    page.get_by_label("Who went").fill("SMO; owner's tenant")
    page.get_by_label("Access outcome").select_option(label="Access refused")
    page.get_by_label("Access notes").fill("The tenant refused entry to the yard.")
    page.get_by_role("button", name="Record the visit").click()
    page.get_by_role("button", name="Start a warrant application").click()
    page.get_by_label("Probable-cause statement").fill("Milky discharge seen.")
    page.get_by_label("Court").fill("Brookhaven Town Justice Court")
    page.get_by_role("button", name="Save draft").click()
    for step in (
        "File with the court",
        "Record warrant issued",
        "Record warrant executed",
    ):
        page.get_by_label("Date", exact=True).fill(timezone.localdate().isoformat())
        page.get_by_role("button", name=step).click()
    warrant = WarrantApplication.objects.get(inspection=inspection)
    assert warrant.status == "executed"

    assert inspection.premises.events.exists()
    events = " | ".join(
        CaseEvent.objects.filter(case=case).values_list("summary", flat=True)
    )
    story = (
        "inspection scheduled",
        "refused",
        "File with the court",
        "Record warrant issued",
        "Record warrant executed",
    )
    for needle in story:
        assert needle in events, (needle, events)
