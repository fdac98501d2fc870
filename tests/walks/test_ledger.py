"""Click-only walk (issue 27): the SMO issues a notice with a fine; the
respondent reads the amount and how to pay on their page; the SMO records a
payment at the window and opens its receipt; a charge past due is referred to
the Justice Court from the work queue, and the clerk records the conviction.
Only links, buttons and fields the pages show are used (the sign-in page is the
one URL typed); the past-due notice is made through the services beforehand.
The clerk also pages through a ledger longer than one page, filtered."""

import datetime as dt
from decimal import Decimal

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from cases.models import Case, CaseParty, CaseStatus, Party, Premises
from enforcement.models import NoticeOfViolation, RequirementKind
from enforcement.services import notices as notice_services
from ledger import services as ledger_services
from ledger.models import Charge, ChargeKind
from portal.services import live_access
from tests.conftest import browser_sign_in
from tests.steps import tick_confirmation
from tests.walks.test_notice_and_appeal import (
    _confirmed_case,
    _issue_notice_with_a_fine,
    _menu,
    _open_case,
    _sign_out,
)


def _past_due_fine(smo_user):
    owner = Party.objects.create(name="Lee Late", mailing_address="3 Hill Road")
    case = Case.objects.create(
        number="MS4-2026-0102",
        source="web",
        summary="Wash water to the drain",
        premises=Premises.objects.create(address="3 Hill Road"),
        responsible_party=owner,
        status=CaseStatus.VIOLATION_CONFIRMED,
        violation_confirmed_on=timezone.localdate() - dt.timedelta(days=45),
        violation_finding="Wash water to the catch basin.",
    )
    CaseParty.objects.create(case=case, party=owner, role=CaseParty.Role.OWNER)
    issued_on = timezone.localdate() - dt.timedelta(days=40)
    notice = notice_services.notice_draft(
        case=case,
        actor=smo_user,
        recipient=owner,
        violation_date=issued_on - dt.timedelta(days=1),
        findings="Wash water discharged to the MS4.",
        requirements=[(RequirementKind.FINE, "Pay the fine.")],
        proposed_fine=Decimal("200"),
    )
    notice_services.notice_issue(notice=notice, actor=smo_user, issued_on=issued_on)
    return Charge.objects.get(notice=notice)


PHONE = {"width": 390, "height": 844}


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("size", [None, PHONE], ids=["desktop", "phone"])
def test_a_fine_from_the_notice_to_the_window_and_to_the_justice_court(
    browser_page, smo_user, clerk_user, size
):
    late = _past_due_fine(smo_user)
    case = _confirmed_case()
    page = browser_page
    if size:
        page.set_viewport_size(size)
    browser_sign_in(page, "smo")
    _issue_notice_with_a_fine(page, case)
    notice = NoticeOfViolation.objects.get(case=case)
    reference = f"NOV-{notice.pk}"
    _sign_out(page)

    # The respondent: the amount, the balance and how to pay.
    code = live_access(case, case.responsible_party).printed
    _menu(page)
    page.get_by_role("link", name="Received a notice?").click()
    page.get_by_label("Access code").fill(code)
    page.get_by_role("button", name="Open my case page").click()
    charges = page.get_by_test_id("portal-charges")
    expect(charges).to_contain_text("Amount: $250.00")
    expect(charges).to_contain_text("Balance: $250.00")
    expect(charges).to_contain_text("Monday to Friday")
    expect(page.get_by_role("link", name="Pay online")).to_have_count(0)

    # The SMO at the window: a part payment, its receipt.
    browser_sign_in(page, "smo")
    _open_case(page, case)
    page.get_by_test_id("ledger-panel").get_by_role("link", name=reference).click()
    page.get_by_label("Amount received ($)").fill("100.00")
    page.get_by_label("How it was paid").select_option("check")
    page.get_by_label("Check number").fill("1042")
    tick_confirmation(page, "pay")
    page.get_by_role("button", name="Record the payment").click()
    expect(page.locator(".alert-success").first).to_contain_text("$150.00 remains due")
    expect(page.get_by_test_id("charge-balance")).to_contain_text("$150.00")
    page.get_by_test_id("receipt-link").first.click()
    expect(page.locator("body")).to_contain_text("Receipt for a payment")

    # The past-due charge: referred from the work queue.
    _menu(page)
    page.get_by_role("link", name="Dashboard").first.click()
    page.get_by_role(
        "link", name=f"Refer to the Justice Court: {late.reference}"
    ).click()
    tick_confirmation(page, "refer")
    page.get_by_role("button", name="Refer to the Justice Court").click()
    expect(page.get_by_test_id("referral-status")).to_contain_text("Awaiting the court")
    expect(page.get_by_test_id("court-packet")).to_be_visible()
    _sign_out(page)

    # The clerk records the conviction.
    browser_sign_in(page, "clerk")
    _menu(page)
    page.get_by_role("link", name="Ledger").first.click()
    page.get_by_role("link", name=late.reference).click()
    page.get_by_test_id("referral-link").click()
    page.get_by_label("Docket number").fill("26-0042")
    page.get_by_label("What the court did").select_option("convicted")
    page.get_by_label("Date of the disposition").fill(timezone.localdate().isoformat())
    page.get_by_label("Fine imposed ($)").fill("300")
    tick_confirmation(page, "dispose")
    page.get_by_role("button", name="Record the disposition").click()
    expect(page.get_by_test_id("referral-status")).to_contain_text("Convicted")
    expect(page.locator("body")).to_contain_text("JC-26-0042")


def _court_fines(case, smo_user, count):
    """`count` court fines on `case`, JC-000 first; the first four paid in full."""
    fines = []
    for n in range(count):
        fine = ledger_services.charge_create(
            kind=ChargeKind.COURT_FINE,
            case=case,
            payer=Party.objects.create(name=f"Payer {n:03}"),
            amount=Decimal("40.00"),
            reference=f"JC-{n:03}",
            issued_on=timezone.localdate() - dt.timedelta(days=60 - n),
            actor=smo_user,
        )
        if n < 4:
            ledger_services.payment_record(
                charge=fine,
                actor=smo_user,
                received_on=timezone.localdate(),
                amount=Decimal("40.00"),
                method="cash",
            )
        fines.append(fine)
    return fines


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("size", [None, PHONE], ids=["desktop", "phone"])
def test_the_clerk_pages_through_a_filtered_ledger(
    browser_page, smo_user, clerk_user, size
):
    late = _past_due_fine(smo_user)
    _court_fines(late.case, smo_user, 30)  # 31 charges, 27 of them unpaid
    page = browser_page
    if size:
        page.set_viewport_size(size)
    browser_sign_in(page, "clerk")
    _menu(page)
    page.get_by_role("link", name="Ledger").first.click()
    table = page.get_by_test_id("ledger-table")
    pages = page.get_by_role("navigation", name="Pages")
    expect(pages).to_contain_text("Page 1 of 2")
    expect(table.locator("tfoot")).to_contain_text("Total of 31 charges (all pages)")

    page.get_by_label("Status").select_option(label="Unpaid")
    page.get_by_role("button", name="Filter").click()
    expect(table.locator("tfoot")).to_contain_text("Total of 27 charges (all pages)")
    expect(table.locator("tfoot")).to_contain_text("$1,240.00")  # 26 × $40 + $200
    expect(table.locator("tbody tr")).to_have_count(25)

    pages.get_by_role("link", name="Next").click()
    expect(pages).to_contain_text("Page 2 of 2")
    expect(table.locator("tbody tr")).to_have_count(2)
    expect(table.locator("tfoot")).to_contain_text("Total of 27 charges (all pages)")
    expect(page.get_by_label("Status")).to_have_value("unpaid")  # the filter kept
    for paid in ("JC-000", "JC-001", "JC-002", "JC-003"):
        expect(page.get_by_role("link", name=paid)).to_have_count(0)

    pages.get_by_role("link", name="Previous").click()
    expect(pages).to_contain_text("Page 1 of 2")
    expect(table.locator("tbody tr")).to_have_count(25)
