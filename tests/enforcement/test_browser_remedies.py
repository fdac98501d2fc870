"""Real browser walks of the remedies (issue 14): every step by clicking what the
page offers — an emergency suspension from the case page to its lifting, an
alternative remedy through both sign-offs to completion, corrective measures
after an upheld appeal to the payment of the invoice. The data that precedes
each flow is set up through the services."""

import datetime as dt
import re

import pytest
from django.utils import timezone

from cases.models import CaseParty, CaseSource
from cases.services import case_add_party, case_open, case_run_transition
from enforcement.models import (
    AccessSuspension,
    AlternativeRemedy,
    AlternativeStatus,
    CorrectiveAction,
    CorrectiveStatus,
    Decision,
    SuspensionStatus,
)
from enforcement.services import appeals as appeal_svc
from enforcement.services import notices as notice_svc
from tests.conftest import browser_sign_in
from tests.steps import tick_confirmation

from .conftest import draft, schedule_hearing

PHONE = {"width": 390, "height": 844}


def confirmed_case(smo):
    """A case opened, investigated and confirmed through the services, with the
    owner named as the responsible party."""
    case = case_open(
        actor=smo,
        source=CaseSource.PHONE,
        summary="Pool water to the storm drain",
        new_premises={"address": "12 Shore Road"},
    )
    case = case_run_transition(case=case, transition="start_investigation", actor=smo)
    link = case_add_party(
        case=case,
        actor=smo,
        role=CaseParty.Role.OWNER,
        new_party={
            "name": "Pat Owner",
            "mailing_address": "12 Shore Road\nPoquott, NY 11733",
        },
    )
    return case_run_transition(
        case=case,
        transition="confirm_violation",
        actor=smo,
        responsible_party=link.party,
        violation_finding="Pool water pumped to the catch basin.",
    )


def days_ago(n) -> dt.date:
    return timezone.localdate() - dt.timedelta(days=n)


def iso(day: dt.date) -> str:
    return f"{day:%Y-%m-%d}"


def nav(page, name):
    """Click a link of the navigation bar (opening the menu on a phone)."""
    toggler = page.get_by_role("button", name="Toggle navigation")
    if toggler.is_visible():
        toggler.click()
    page.get_by_role("navigation", name="Main").get_by_role("link", name=name).click()


def open_case(page, case):
    nav(page, "Cases")
    page.get_by_role("link", name=case.number).click()
    page.wait_for_url(re.compile(rf"/{case.number}/$"))


def step_form(page, heading):
    """The form of one offered step (the box under its heading)."""
    name = re.compile(rf"^{re.escape(heading)}( \(R-[A-Z]+-\d+\))?$")
    return page.locator("form").filter(has=page.get_by_role("heading", name=name))


def labelled(text):
    """A field's label as the page reads it (a required field's ends in "*")."""
    return re.compile(rf"^\s*{re.escape(text)}\*?\s*$")


def take_step(page, label, **fields):
    """Fill the step's form (field label → value) and click its button."""
    form = step_form(page, label)
    for field_label, value in fields.items():
        control = form.get_by_label(labelled(field_label))
        if isinstance(value, bool):
            control.set_checked(value)
        elif control.evaluate("e => e.tagName") == "SELECT":
            control.select_option(label=value)
        else:
            control.fill(value)
    box = form.locator('input[name$="-confirm"]')
    if box.count():  # a legally binding step: tick "I confirm: …"
        box.check()
    form.get_by_role("button", name=label).click()


def pay_on_the_ledger(page, amount):
    """From the remedy's page: its invoice's charge on the ledger, a payment by
    check at the window, and back to the remedy (issue 27)."""
    page.get_by_test_id("invoice-ledger-link").click()
    page.get_by_label("Amount received ($)").fill(amount)
    page.get_by_label("How it was paid").select_option("check")
    page.get_by_label("Check number").fill("1042")
    page.locator('input[name="pay-confirm"]').check()
    page.get_by_role("button", name="Record the payment").click()
    page.get_by_test_id("charge-source").click()


def status_of(page) -> str:
    return page.get_by_test_id("remedy-status").inner_text()


def assert_in_order(text, story):
    positions = [text.index(step) for step in story]
    assert positions == sorted(positions), story


def walk_emergency_suspension(page, case):
    browser_sign_in(page, "smo")
    open_case(page, case)
    page.get_by_role("link", name="Emergency suspension").click()
    page.get_by_label("Party").select_option(label="Pat Owner")
    suspended = timezone.localtime() - dt.timedelta(hours=3)
    page.get_by_label("Suspended at").fill(f"{suspended:%Y-%m-%dT%H:%M}")
    page.get_by_role("textbox", name="Reasons").fill(
        "Chlorinated pool water flowing to the bay."
    )
    # Binding (issue 16): unticked, nothing is suspended and the input stays.
    page.get_by_role("button", name="Save").click()
    assert "nothing was done" in page.content()
    assert (
        page.get_by_role("textbox", name="Reasons")
        .input_value()
        .startswith("Chlorinated")
    )
    confirm = page.get_by_role("checkbox", name=re.compile("^I confirm: Suspending"))
    assert "notice will be due by" in confirm.evaluate("e => e.labels[0].innerText")
    tick_confirmation(page)
    page.get_by_role("button", name="Save").click()
    page.wait_for_url(re.compile(r"/remedies/suspension/\d+/$"))
    assert "notice of reasons is due by" in page.get_by_role("alert").first.inner_text()
    assert status_of(page) == "Suspended; written notice of reasons due"

    # A step refused keeps what the user typed: no date, the method stays.
    form = step_form(page, "Record the notice of reasons")
    form.get_by_label(labelled("How it was sent")).select_option(label="Certified mail")
    form.get_by_label(labelled("Certified mail article number")).fill(
        "9407 1118 9876 5432 1000 00"
    )
    form.get_by_label("Date the notice of reasons was sent").evaluate(
        "e => e.removeAttribute('required')"
    )
    tick_confirmation(page, "record_notice")
    form.get_by_role("button", name="Record the notice of reasons").click()
    assert "Please correct the errors below" in page.content()
    form = step_form(page, "Record the notice of reasons")
    assert form.get_by_label(labelled("How it was sent")).input_value() == "certified"
    assert (
        form.get_by_label(labelled("Certified mail article number")).input_value()
        == "9407 1118 9876 5432 1000 00"
    )

    take_step(
        page,
        "Record the notice of reasons",
        **{"Date the notice of reasons was sent": iso(timezone.localdate())},
    )
    assert "notice of reasons recorded as sent on" in page.content()
    assert status_of(page) == "Suspended; notice of reasons sent"

    take_step(
        page,
        "Lift the suspension",
        **{
            "Date the suspension is lifted": iso(timezone.localdate()),
            "Why the suspension is lifted": "Pool drained to the sanitary sewer.",
        },
    )
    assert "suspension lifted on" in page.content()
    assert status_of(page) == "Suspension lifted"
    chronology = page.get_by_test_id("record-chronology").inner_text()
    assert_in_order(
        chronology,
        [
            "MS4 access of Pat Owner suspended",
            "notice of reasons recorded as sent",
            "suspension lifted",
        ],
    )

    page.get_by_role("link", name="case file").click()
    timeline = page.get_by_test_id("timeline").inner_text()
    for entry in (
        "MS4 access of Pat Owner suspended",
        "notice of reasons recorded as sent",
        "suspension lifted",
    ):
        assert entry in timeline
    suspension = AccessSuspension.objects.get(case=case)
    assert suspension.status == SuspensionStatus.LIFTED
    assert suspension.notice_method == "certified"
    assert suspension.notice_article_number == "9407111898765432100000"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_smo_suspends_access_records_the_notice_of_reasons_and_lifts_it(
    browser_page, smo_user
):
    case = confirmed_case(smo_user)
    walk_emergency_suspension(browser_page, case)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_emergency_suspension_walk_on_a_phone(browser_page, smo_user):
    case = confirmed_case(smo_user)
    browser_page.set_viewport_size(PHONE)
    walk_emergency_suspension(browser_page, case)
    assert browser_page.evaluate("document.documentElement.scrollWidth") <= 390


def sign_out(page):
    toggler = page.get_by_role("button", name="Toggle navigation")
    if toggler.is_visible():
        toggler.click()
    page.get_by_role("button", name="Sign out").click()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_alternative_remedies_through_both_sign_offs_to_completion(
    browser_page, smo_user, attorney_user, inspector_user
):
    case = confirmed_case(smo_user)
    page = browser_page
    browser_sign_in(page, "smo")
    open_case(page, case)
    page.get_by_role("link", name="Propose alternative remedies").click()
    page.get_by_label("Party").select_option(label="Pat Owner")
    page.get_by_label("Violation date").fill(iso(days_ago(10)))
    for criterion in (
        "(1) the violation was unintentional",
        "(3) environmental damage was minimal",
        "(4) the violator acted quickly to remedy it",
        "(5) the violator cooperated in investigation and resolution",
    ):
        page.get_by_label(criterion).check()
    page.get_by_label("Findings").fill(
        "A first, accidental discharge, stopped at once."
    )
    page.get_by_label("Attendance at compliance workshops").check()
    page.get_by_label("Storm drain stenciling or storm drain marking").check()
    page.get_by_label("Details (dates, place, provider)").fill("Spring 2026")
    page.get_by_role("button", name="Save").click()
    page.wait_for_url(re.compile(r"/remedies/alternative/\d+/$"))
    assert status_of(page) == "Proposed; awaiting the Municipal Attorney"
    # The SMO may not sign for the attorney: no such button is offered.
    assert (
        page.get_by_role("button", name="Recommend (Municipal Attorney)").count() == 0
    )
    sign_out(page)

    browser_sign_in(page, "attorney")
    nav(page, "Sign-offs")
    page.get_by_role("link", name=re.compile(rf"{case.number} — Pat Owner")).click()
    take_step(
        page,
        "Recommend (Municipal Attorney)",
        **{"Note with the recommendation": "Meets all five criteria."},
    )
    assert "recommended by the Municipal Attorney" in page.content()
    assert status_of(page) == "Recommended; awaiting the Building Inspector"
    assert page.get_by_role("button", name="Concur (Building Inspector)").count() == 0
    sign_out(page)

    browser_sign_in(page, "inspector")
    nav(page, "Sign-offs")
    page.get_by_role("link", name=re.compile(rf"{case.number} — Pat Owner")).click()
    take_step(page, "Concur (Building Inspector)")
    assert "the Building Inspector (Inspector) concurred" in page.content()
    assert status_of(page) == "Approved; remedies under way"
    sign_out(page)

    browser_sign_in(page, "smo")
    open_case(page, case)
    page.get_by_role("link", name=re.compile(r"Alternative remedies \d+")).click()
    # Completion waits for every remedy to be done, and says where to do it.
    assert page.get_by_role("button", name="Record completion").is_disabled()
    assert "record the completion of every remedy chosen" in page.content()
    for kind in (
        "Attendance at compliance workshops",
        "Storm drain stenciling or storm drain marking",
    ):
        page.get_by_label(f"Date completed: {kind}").fill(iso(days_ago(2)))
        page.get_by_role("button", name=f"Record completed: {kind}").click()
        assert f"{kind}: completed on" in page.content()
    take_step(page, "Record completion")
    assert status_of(page) == "Completed"
    chronology = page.get_by_test_id("record-chronology").inner_text()
    assert_in_order(
        chronology,
        [
            "proposed for Pat Owner",
            "recommended by the Municipal Attorney",
            "the Building Inspector (Inspector) concurred",
            "Alternative remedy completed: Attendance at compliance workshops",
            "Alternative remedy completed: Storm drain stenciling",
            "completed on",
        ],
    )
    page.get_by_role("link", name="case file").click()
    timeline = page.get_by_test_id("timeline").inner_text()
    assert "recommended by the Municipal Attorney" in timeline
    assert "concurred" in timeline
    remedy = AlternativeRemedy.objects.get(case=case)
    assert remedy.status == AlternativeStatus.COMPLETED
    assert remedy.recommended_by == attorney_user
    assert remedy.concurred_by == inspector_user


def upheld_and_not_complied(case, smo, clerk):
    """A notice issued, appealed, upheld by the Board (decision filed and
    mailed) and not complied with within five business days (R-COR-1)."""
    notice = draft(case, smo, violation_date=days_ago(70))
    notice = notice_svc.notice_issue(notice=notice, actor=smo, issued_on=days_ago(60))
    appeal = appeal_svc.appeal_file(
        notice=notice,
        actor=clerk,
        appellant=case.responsible_party,
        filed_on=days_ago(55),
        grounds="The water was rain water.",
    )
    hearing = timezone.make_aware(dt.datetime.combine(days_ago(45), dt.time(19, 0)))
    # Scheduled on the filing day, for a hearing ten days later.
    appeal, _ = schedule_hearing(appeal, clerk, hearing, location="Village Hall")
    appeal = appeal_svc.appeal_decide(
        appeal=appeal,
        actor=clerk,
        decision=Decision.UPHELD,
        decided_on=days_ago(45),
        resolution="The SMO is upheld.",
    )
    appeal_svc.appeal_record_clerk_filing(
        appeal=appeal, actor=clerk, filed_on=days_ago(44)
    )
    appeal_svc.appeal_record_mailing(
        appeal=appeal,
        actor=clerk,
        mailed_on=days_ago(44),
        article_number="9407 1000 0000 0000 0001",
    )
    return notice_svc.notice_record_noncompliance(notice=notice, actor=smo)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_corrective_measures_after_an_upheld_decision_to_payment(
    browser_page, smo_user, clerk_user
):
    case = confirmed_case(smo_user)
    notice = upheld_and_not_complied(case, smo_user, clerk_user)
    page = browser_page
    browser_sign_in(page, "smo")
    open_case(page, case)
    page.get_by_role("link", name="Request access (corrective measures)").click()
    page.get_by_label("Notice not complied with").select_option(index=1)
    page.get_by_label("Date of the letter requesting access").fill(iso(days_ago(30)))
    page.get_by_role("button", name="Save").click()
    page.wait_for_url(re.compile(r"/remedies/corrective/\d+/$"))
    assert status_of(page) == "Owner's permission for access requested"

    take_step(
        page,
        "Access granted",
        **{
            "Date of the owner's answer": iso(days_ago(25)),
            "What the owner said": "Gate left open for the crew.",
        },
    )
    assert "the owner granted access" in page.content()
    assert status_of(page) == "Access granted"

    take_step(
        page,
        "Record the work done",
        **{
            "Work done by": "A contractor",
            "Name of the agency or contractor": "ACME Drain Services",
            "Work done": "Catch basin vacuumed and flushed.",
            "Date the work was completed": iso(days_ago(20)),
        },
    )
    assert status_of(page) == "Work done"
    # The invoice waits for the costs, and links to where they are itemized.
    assert page.get_by_role("button", name="Issue the invoice").is_disabled()
    page.get_by_role("link", name="Itemize a cost on this page").click()
    for description, amount in (("Vacuum truck", "400.00"), ("Disposal", "100.00")):
        costs = page.get_by_role("form", name="Itemize a cost")
        costs.get_by_label(labelled("Cost (what it was for)")).fill(description)
        costs.get_by_label(labelled("Amount ($)")).fill(amount)
        costs.get_by_label(labelled("Date incurred")).fill(iso(days_ago(20)))
        costs.get_by_role("button", name="Add cost").click()
        assert f"({description}) added" in page.content()
    assert "Total: $500.00" in page.get_by_test_id("cost-total").inner_text()

    # One click: numbered by the office, the total of the costs, its document.
    take_step(page, "Issue the invoice")
    assert "invoice INV-CM-" in page.content()
    assert status_of(page) == "Invoiced to the discharger"

    # Payments are recorded at the window, on the invoice's charge (issue 27).
    pay_on_the_ledger(page, "200.00")
    assert "$300.00 of invoice" in page.content()
    assert status_of(page) == "Invoice partly paid"
    pay_on_the_ledger(page, "300.00")
    assert "in full" in page.content()
    assert status_of(page) == "Paid"
    chronology = page.get_by_test_id("record-chronology").inner_text()
    story = [
        "owner's permission for access requested",
        "the owner granted access",
        "work done by a contractor ACME Drain Services",
        "cost $400.00",
        "cost $100.00",
        "invoice INV-CM-",
        "$300.00 of invoice",
        "in full",
    ]
    assert_in_order(chronology, story)
    page.get_by_role("link", name="case file").click()
    timeline = page.get_by_test_id("timeline").inner_text()
    for entry in story:
        assert entry in timeline
    action = CorrectiveAction.objects.get(notice=notice)
    assert action.status == CorrectiveStatus.PAID
    assert action.total_cost() == 500
