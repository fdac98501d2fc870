"""One whole case walked by clicking only (issue 14, "How it is checked"): a
resident's report on the public site → triage → a case with its premises and a
party added from the case page → an inspection refused, a search warrant filed,
issued and executed, the second visit with findings → the violation confirmed →
a notice of violation with a proposed fine issued and served → the appeal, the
hearing, the Board's decision (upheld), its filing and certified mailing → the
corrective measures → the case closed, its chronology complete.

Only users and their roles are seeded; everything else is made through the pages,
with the links, buttons and fields they show. The only URLs typed are the public
home page and the sign-in page."""

import datetime as dt
import re
from contextlib import contextmanager
from unittest import mock

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from cases.models import Case, CaseStatus
from enforcement.models import CorrectiveAction, CorrectiveStatus, NoticeOfViolation
from intake.models import Report
from tests.conftest import browser_sign_in
from tests.enforcement.test_browser_remedies import (
    assert_in_order,
    iso,
    labelled,
    pay_on_the_ledger,
    step_form,
    take_step,
)
from tests.inspections.test_browser_fieldwork import (
    walk_the_inspection_and_warrant_from_the_case,
)
from tests.reports.helpers import png_bytes
from tests.steps import tick_confirmation
from tests.walks.test_notice_and_appeal import (
    _appeal_to_decision,
    _issue_notice_with_a_fine,
    _menu,
    _open_case,
    _sign_out,
)

PHONE = {"width": 390, "height": 844}


def resident_reports_a_discharge(page, tmp_path) -> str:
    """The resident's report from the public home page; returns the tracking code."""
    page.goto("/")
    page.get_by_role("main").get_by_role("link", name="Report a discharge").click()
    page.get_by_label("Street address or nearest corner").fill("12 Harbor Road")
    page.get_by_label("Describe it in your own words").fill(
        "Soapy water running from the car wash into the street drain."
    )
    photo = tmp_path / "drain.png"
    photo.write_bytes(png_bytes())
    page.get_by_label(re.compile(r"Photos \(up to \d+\)")).set_input_files(str(photo))
    expect(page.locator("#photo-count")).to_have_text("1 photo chosen.")
    page.get_by_label("Your e-mail").fill("resident@example.org")
    page.get_by_role("button", name="Send report").click()
    page.wait_for_url("**/report/done/")
    expect(page.get_by_role("heading", level=1)).to_contain_text(
        "your report was received"
    )
    return page.locator("#tracking-code").inner_text().strip()


def smo_opens_a_case_from_triage(page, code) -> Case:
    browser_sign_in(page, "smo")
    _menu(page)
    page.get_by_role("link", name="Triage").first.click()
    page.get_by_role("checkbox", name=code).check()
    page.get_by_label("Summary").fill("Car-wash suds in the street drain")
    page.get_by_role("button", name="Triage selected reports").click()
    page.wait_for_url(re.compile(r"/staff/cases/MS4-\d{4}-\d{4}/$"))
    return Case.objects.get(reports__tracking_code=code)


def smo_names_the_operator(page):
    """Start the investigation; "Confirm violation" waits for a party, and its
    reason links to the page that names one."""
    page.get_by_role("link", name="Start investigation").click()
    page.get_by_role("button", name="Start investigation").click()
    expect(page.get_by_test_id("case-status")).to_have_text("Under investigation")
    why = page.locator("#why-confirm_violation")
    expect(why).to_contain_text("add the owner, operator or discharger")
    why.get_by_role("link", name="Name a party").click()
    page.get_by_label("Role").select_option("operator")
    page.get_by_label("New party: name").fill("Harbor Auto Detailing LLC")
    page.get_by_label("Mailing address").fill("12 Harbor Road\nPoquott, NY 11733")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("main")).to_contain_text("Harbor Auto Detailing LLC")


def smo_confirms_the_violation(page, case):
    _open_case(page, case)
    page.get_by_role("link", name="Confirm violation").click()
    page.get_by_label("Responsible party").select_option(
        label="Harbor Auto Detailing LLC"
    )
    page.get_by_label("Finding").fill("Wash-bay floor drain piped to the MS4")
    page.get_by_role("button", name="Confirm violation").click()
    expect(page.get_by_test_id("case-status")).to_have_text("Violation confirmed")


def clerk_records_the_appeal_to_its_mailing(page, case):
    browser_sign_in(page, "clerk")
    _open_case(page, case)
    page.get_by_role("link", name=re.compile(r"^NOV-\d+")).first.click()
    _appeal_to_decision(page, "Upheld")
    expect(page.get_by_role("main")).to_contain_text("94071000000000000002")
    _sign_out(page)


@contextmanager
def days_later(days):
    """The server's clock (the live server's thread is in this process) `days`
    on; what the pages are given is dated by it too (`timezone.localdate()`)."""
    real_now = timezone.now
    moved = dt.timedelta(days=days)
    with mock.patch("django.utils.timezone.now", lambda: real_now() + moved):
        yield


def smo_meets_the_correction_period(page, case) -> dt.date:
    """After the upholding decision the discharger has five business days to
    correct (R-COR-1): "Record not complied" waits, and the corrective-measures
    page says why it has no notice to offer. Returns the day correction is due."""
    _open_case(page, case)
    page.get_by_role("link", name=re.compile(r"^NOV-\d+")).first.click()
    waits = step_form(page, "Record not complied")
    expect(waits.get_by_role("button", name="Record not complied")).to_be_disabled()
    expect(waits).to_contain_text("wait until the compliance deadline has passed")
    page.get_by_role("link", name="case file").click()
    page.get_by_role("link", name="Request access (corrective measures)").click()
    why = page.get_by_test_id("corrective-waits")
    expect(why).to_contain_text("wait until the compliance deadline has passed")
    assert re.search(r"due \w{3}, \w{3} \d{1,2}, \d{4}", why.inner_text())
    # the date as the page shows it, read from its <time datetime=…> for machines
    return dt.date.fromisoformat(why.locator("time").first.get_attribute("datetime"))


def smo_takes_the_corrective_measures(page, case):
    """The notice not complied with; the owner's permission for access asked
    (the owner named first: the request waits for one, and its reason links to
    the page that names one) and given; the work done by a contractor, its costs
    itemized, invoiced, paid."""
    today = iso(timezone.localdate())
    _open_case(page, case)
    page.get_by_role("link", name=re.compile(r"^NOV-\d+")).first.click()
    take_step(page, "Record not complied")
    expect(page.get_by_role("main")).to_contain_text("Not complied by the deadline")
    page.get_by_role("link", name="case file").click()
    page.get_by_role("link", name="Request access (corrective measures)").click()
    expect(page.get_by_role("button", name="Save")).to_be_disabled()
    why = page.get_by_test_id("blocked-by")
    expect(why).to_contain_text("name the owner of the premises on the case first")
    why.get_by_role("link", name="Name the owner").click()
    expect(page.get_by_label("Role")).to_have_value("owner")
    page.get_by_label("New party: name").fill("Harbor Realty LLC")
    page.get_by_label("Mailing address").fill("1 Harbor Road\nPoquott, NY 11733")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("main")).to_contain_text("Harbor Realty LLC")
    page.get_by_role("link", name="Request access (corrective measures)").click()
    page.get_by_label("Notice not complied with").select_option(index=1)
    page.get_by_label("Date of the letter requesting access").fill(today)
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_test_id("remedy-status")).to_have_text(
        "Owner's permission for access requested"
    )
    take_step(
        page,
        "Access granted",
        **{"Date of the owner's answer": today, "What the owner said": "Come in."},
    )
    take_step(
        page,
        "Record the work done",
        **{
            "Work done by": "A contractor",
            "Name of the agency or contractor": "ACME Drain Services",
            "Work done": "Wash-bay drain plugged; catch basin flushed.",
            "Date the work was completed": today,
        },
    )
    page.get_by_role("link", name="Itemize a cost on this page").click()
    costs = page.get_by_role("form", name="Itemize a cost")
    costs.get_by_label(labelled("Cost (what it was for)")).fill("Vacuum truck")
    costs.get_by_label(labelled("Amount ($)")).fill("400.00")
    costs.get_by_label(labelled("Date incurred")).fill(today)
    costs.get_by_role("button", name="Add cost").click()
    expect(page.get_by_test_id("cost-total")).to_contain_text("$400.00")
    # The case page offers the invoice once the costs are itemized (R-COR-2).
    page.get_by_role("link", name="case file").click()
    page.get_by_role("link", name="Issue the invoice").click()
    take_step(page, "Issue the invoice")
    expect(page.get_by_test_id("remedy-status")).to_have_text(
        "Invoiced to the discharger"
    )
    expect(page.get_by_test_id("invoice-balance")).to_contain_text(
        "$400.00 remains due"
    )
    # Paid at the window, on the invoice's charge on the ledger (issue 27).
    pay_on_the_ledger(page, "400.00")
    expect(page.get_by_test_id("remedy-status")).to_have_text("Paid")


def smo_records_the_fine_paid(page, notice):
    """The fine the notice required is paid at the window (issue 27): a case is
    resolved only once its balance is paid, written off or referred."""
    page.get_by_role("link", name="case file").click()
    page.get_by_test_id("ledger-panel").get_by_role(
        "link", name=f"NOV-{notice.pk}"
    ).click()
    page.get_by_label("Amount received ($)").fill(f"{notice.proposed_fine}")
    page.get_by_label("How it was paid").select_option("money_order")
    tick_confirmation(page, "pay")
    page.get_by_role("button", name="Record the payment").click()
    expect(page.locator(".alert-success").first).to_contain_text("paid in full")
    page.get_by_test_id("charge-source").click()


def smo_closes_the_case(page, case):
    page.get_by_role("link", name="case file").click()
    page.get_by_role("link", name="Record resolved").click()
    page.get_by_label("Date the discharge or connection was eliminated").fill(
        iso(timezone.localdate())
    )
    page.get_by_label("How the elimination was verified").fill(
        "Dye test at the wash bay: nothing reaches the storm drain"
    )
    tick_confirmation(page)
    page.get_by_role("button", name="Record resolved").click()
    expect(page.get_by_test_id("case-status")).to_have_text("Resolved")


def the_whole_chronology(page, case) -> str:
    """The case page's chronology, every entry (read in the browser)."""
    whole = page.get_by_test_id("chronology-all-link")
    if whole.count():
        whole.click()
    return page.get_by_test_id("timeline").inner_text()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("size", [None, PHONE], ids=["desktop", "phone"])
def test_a_whole_case_from_the_report_to_its_closing(
    browser_page, smo_user, clerk_user, tmp_path, size
):
    page = browser_page
    if size:
        page.set_viewport_size(size)
    try:
        code = resident_reports_a_discharge(page, tmp_path)
        report = Report.objects.get(tracking_code=code)
        assert report.photos.count() == 1
        assert report.reporter_email == "resident@example.org"

        case = smo_opens_a_case_from_triage(page, code)
        smo_names_the_operator(page)
        _sign_out(page)
        # Signs the SMO in again; premises added from the refused scheduling;
        # inspection, access refused, warrant filed/issued/executed, second visit.
        walk_the_inspection_and_warrant_from_the_case(page, case)
        smo_confirms_the_violation(page, case)
        _issue_notice_with_a_fine(page, case)
        _sign_out(page)

        clerk_records_the_appeal_to_its_mailing(page, case)

        browser_sign_in(page, "smo")
        notice = NoticeOfViolation.objects.get(case=case)
        assert notice.proposed_fine is not None and notice.fine_max is not None
        correct_by = smo_meets_the_correction_period(page, case)
        _sign_out(page)
        # The discharger's five business days pass (R-COR-1): the live server
        # runs in this process, so its clock is moved on past the due date.
        with days_later((correct_by - timezone.localdate()).days + 1):
            browser_sign_in(page, "smo")
            smo_takes_the_corrective_measures(page, case)
            smo_records_the_fine_paid(page, notice)
            smo_closes_the_case(page, case)
            timeline = the_whole_chronology(page, case)
            # The case page shows its end state.
            assert page.get_by_test_id("case-status").inner_text() == "Resolved"
    except Exception:
        page.screenshot(path="/tmp/walk-fail.png", full_page=True)
        raise
    appeal = notice.appeals.get()
    assert_in_order(
        timeline,
        [
            "Case opened (Online report)",
            f"Report {code}",
            "Start investigation",
            "Party named: Harbor Auto Detailing LLC",
            "Case details changed",
            "Complaint inspection scheduled",
            "recorded: Access refused",
            "filed with the court",
            "search warrant issued",
            "search warrant executed",
            "recorded: Access granted",
            "Confirm violation",
            f"Notice of violation {notice.pk}: Issue the notice",
            f"Notice of violation {notice.pk} served: Certified mail",
            f"Appeal {appeal.pk} of notice {notice.pk} filed",
            f"Appeal {appeal.pk}: Schedule the hearing",
            f"Appeal {appeal.pk}: Record the decision",
            "Corrective-measures clock started",
            f"Appeal {appeal.pk}: decision filed with the municipal clerk",
            f"Appeal {appeal.pk}: decision mailed by certified mail",
            f"Notice of violation {notice.pk}: Record not complied",
            "Party named: Harbor Realty LLC",
            "to Harbor Realty LLC, copy to Harbor Auto Detailing LLC",
            "the owner granted access",
            "work done by a contractor ACME Drain Services",
            "invoice INV-CM-",
            "in full",
            f"Payment of ${notice.proposed_fine:,.2f} received",
            "Record resolved",
        ],
    )
    case.refresh_from_db()
    assert case.status == CaseStatus.RESOLVED
    assert appeal.decision == "upheld"
    assert CorrectiveAction.objects.get(notice=notice).status == CorrectiveStatus.PAID
