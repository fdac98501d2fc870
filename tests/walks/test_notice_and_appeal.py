"""Click-only walks (issue 14): a notice of violation WITH a fine is drafted, issued
and served by the SMO; the Board clerk records the appeal, schedules the hearing,
records the Board's decision, its filing and its certified mailing. Only the links,
buttons and fields the pages show are used (the sign-in page is the one URL typed)."""

import datetime as dt
import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from cases.models import Case, CaseParty, CaseStatus, Party, Premises
from enforcement.models import Appeal, NoticeOfViolation
from kernel.models import CaseEvent
from tests.conftest import browser_sign_in
from tests.steps import tick_confirmation


def _confirmed_case():
    owner = Party.objects.create(
        name="Pat Owner", mailing_address="12 Shore Road\nPoquott, NY 11733"
    )
    case = Case.objects.create(
        number="MS4-2026-0101",
        source="web",
        summary="Pool water to the storm drain",
        premises=Premises.objects.create(address="12 Shore Road"),
        responsible_party=owner,
        status=CaseStatus.VIOLATION_CONFIRMED,
        violation_confirmed_on=timezone.localdate() - dt.timedelta(days=2),
        violation_finding="Pool water pumped to the catch basin.",
    )
    CaseParty.objects.create(case=case, party=owner, role=CaseParty.Role.OWNER)
    return case


def _menu(page):
    """On a phone the navigation is behind its toggle button."""
    toggle = page.locator(".navbar-toggler")
    if toggle.is_visible():
        toggle.click()
        # Bootstrap's collapse animates: click only once the menu has opened.
        page.locator("#mainnav.collapse.show").wait_for()


def _sign_out(page):
    _menu(page)
    page.get_by_role("button", name="Sign out").click()
    expect(page.get_by_role("button", name="Sign out")).to_have_count(0)


def _open_case(page, case):
    _menu(page)
    page.get_by_role("link", name="Cases", exact=True).first.click()
    page.get_by_role("link", name=case.number).first.click()


def _issue_notice_with_a_fine(page, case):
    _open_case(page, case)
    page.get_by_role("link", name="Draft a notice of violation").click()
    page.get_by_label("(5) Payment of a fine").check()
    page.get_by_label("Particulars of (5)").fill("Pay the fine proposed below.")
    page.get_by_label("(3) Abatement").check()
    page.get_by_label("Particulars of (3)").fill("Clean the catch basin.")
    page.get_by_label("Days to complete abatement or restoration (R-NOV-2)").fill("30")
    page.get_by_label("Proposed fine ($)").fill("250")
    page.get_by_role("button", name="Save").click()
    # The draft offers "Issue the notice" (the fine's tier is checked on submit).
    tick_confirmation(page, "issue")
    page.get_by_role("button", name="Issue the notice").click()
    assert "issued" in page.locator(".alert-success").first.inner_text()
    page.get_by_role("link", name="Record service").click()
    page.get_by_label("Method").select_option("certified")
    page.get_by_label("Served on").fill(timezone.localdate().isoformat())
    page.get_by_label("Certified mail article number").fill("9407 1000 0000 0000 0001")
    # Recording the service is binding (issue 16): ticked, it says what it did.
    tick_confirmation(page)
    page.get_by_role("button", name="Save").click()
    assert (
        "recorded: certified mail" in page.locator(".alert-success").first.inner_text()
    )


def _appeal_to_decision(page, decision_label):
    today = timezone.localdate()
    page.get_by_role("link", name="Record an appeal of this notice").click()
    page.get_by_label("Date filed").fill(today.isoformat())
    page.get_by_label("Grounds").fill("The pool was drained by a contractor.")
    page.get_by_role("button", name="Record the appeal").click()
    # A filed appeal offers the hearing: its date is the form's to give.
    page.get_by_label("Hearing date and time").fill(f"{today.isoformat()}T09:00")
    page.get_by_label("Location").fill("Village Hall")
    page.get_by_role("button", name="Schedule the hearing").click()
    assert "Hearing scheduled" in page.locator(".alert").first.inner_text()
    page.get_by_role("combobox", name=re.compile(r"^Decision")).select_option(
        label=decision_label
    )
    page.get_by_label("Date of decision").fill(today.isoformat())
    page.get_by_label("Resolution").fill("Resolved by the Board of Trustees.")
    tick_confirmation(page, "decide")
    page.get_by_role("button", name="Record the decision").click()
    page.get_by_label("Date filed in the office of the municipal clerk").fill(
        today.isoformat()
    )
    tick_confirmation(page, "filing")
    page.get_by_role("button", name="Record filing").click()
    page.get_by_label("Date mailed (certified)").fill(today.isoformat())
    page.get_by_label("Certified mail article number").fill("9407 1000 0000 0000 0002")
    tick_confirmation(page, "mailing")
    page.get_by_role("button", name="Record mailing").click()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("size", [None, {"width": 390, "height": 844}])
def test_notice_with_a_fine_through_an_upheld_appeal(
    browser_page, smo_user, clerk_user, size
):
    case = _confirmed_case()
    page = browser_page
    if size:
        page.set_viewport_size(size)
    browser_sign_in(page, "smo")
    _issue_notice_with_a_fine(page, case)
    notice = NoticeOfViolation.objects.get(case=case)
    assert notice.status == "issued" and notice.fine_max is not None
    assert notice.service_records.count() == 1
    _sign_out(page)

    browser_sign_in(page, "clerk")
    _open_case(page, case)
    page.get_by_role("link", name=f"NOV-{notice.pk}").first.click()
    _appeal_to_decision(page, "Upheld")
    appeal = Appeal.objects.get(notice=notice)
    assert appeal.decision == "upheld"
    assert appeal.filed_with_clerk_on and appeal.mailed_on
    assert "R-COR-1" in {d.rule_id for d in notice.deadlines()}
    summaries = " | ".join(
        CaseEvent.objects.filter(case=case).values_list("summary", flat=True)
    )
    for step in ("Issue the notice", "Schedule", "decision", "Filed", "ailed"):
        assert step.lower() in summaries.lower(), (step, summaries)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_reversed_decision_withdraws_the_notice(browser_page, smo_user, clerk_user):
    case = _confirmed_case()
    page = browser_page
    browser_sign_in(page, "smo")
    _issue_notice_with_a_fine(page, case)
    _sign_out(page)
    browser_sign_in(page, "clerk")
    _open_case(page, case)
    notice = NoticeOfViolation.objects.get(case=case)
    page.get_by_role("link", name=f"NOV-{notice.pk}").first.click()
    _appeal_to_decision(page, "Reversed")
    notice.refresh_from_db()
    assert notice.status == "withdrawn"
