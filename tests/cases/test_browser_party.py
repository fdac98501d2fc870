"""In a real browser, by clicking only: the SMO gives a party its mailing address
from the case page, and a notice of violation refused for want of one is fixed
from the refusal's own link (issue 14: a refusal links to the page that fixes it)."""

import datetime as dt
import re

import pytest

from cases.models import Case, CaseParty, CaseStatus, EventKind, Party, Premises
from enforcement.models import RequirementKind
from enforcement.services import notices as notice_services
from kernel.models import CaseEvent
from tests.conftest import browser_sign_in

from .factories import CaseFactory, PartyFactory, name_party


def _open_case(page, number):
    page.get_by_role("link", name="Cases", exact=True).first.click()
    page.get_by_role("link", name=number).click()
    page.wait_for_url(re.compile(rf"/cases/{number}/$"))


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_smo_adds_a_mailing_address_from_the_case_page(browser_page, smo_user):
    case = CaseFactory(investigating=True)
    party = name_party(case, PartyFactory(name="Harbor Auto Detailing LLC"))
    page = browser_page
    browser_sign_in(page, "smo")
    _open_case(page, case.number)
    assert "No mailing address" in page.get_by_test_id("party-address").inner_text()

    page.get_by_role("link", name="Edit Harbor Auto Detailing LLC (Owner)").click()
    page.get_by_label("Mailing address").fill("7 Harbor Road\nPoquott, NY 11733")
    page.get_by_role("button", name="Save").click()

    page.wait_for_url(re.compile(rf"/cases/{case.number}/$"))
    address = page.get_by_test_id("party-address").inner_text()
    assert address == "7 Harbor Road\nPoquott, NY 11733"
    timeline = page.get_by_test_id("timeline").inner_text()
    assert "Party details changed: Harbor Auto Detailing LLC" in timeline
    party.refresh_from_db()
    assert party.mailing_address == "7 Harbor Road\nPoquott, NY 11733"
    assert CaseEvent.objects.filter(case=case, kind=EventKind.PARTY).exists()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_notice_refused_for_want_of_an_address_is_fixed_from_its_link(
    browser_page, smo_user
):
    owner = Party.objects.create(name="Pat Owner", mailing_address="12 Shore Road")
    case = Case.objects.create(
        number="MS4-1999-0003",
        source="web",
        summary="Pool water to the storm drain",
        premises=Premises.objects.create(address="12 Shore Road"),
        responsible_party=owner,
        status=CaseStatus.VIOLATION_CONFIRMED,
        violation_confirmed_on=dt.date(2026, 3, 2),
        violation_finding="Pool water pumped to the catch basin.",
    )
    CaseParty.objects.create(case=case, party=owner, role=CaseParty.Role.OWNER)
    notice = notice_services.notice_draft(
        case=case,
        actor=smo_user,
        recipient=owner,
        violation_date=dt.date(2026, 3, 2),
        findings="Pool water discharged to the MS4.",
        requirements=[(RequirementKind.CEASE_DESIST, "Stop pumping pool water.")],
        remediation_days=None,
    )
    owner.mailing_address = ""
    owner.save()
    page = browser_page
    browser_sign_in(page, "smo")
    _open_case(page, case.number)
    page.get_by_role("link", name=f"NOV-{notice.pk}").first.click()
    page.wait_for_url(re.compile(rf"{notice.get_absolute_url()}$"))
    main = page.locator("main")
    assert "give the recipient a mailing address" in main.inner_text()

    main.get_by_role("link", name="Edit party").click()
    page.get_by_label("Mailing address").fill("12 Shore Road\nPoquott, NY 11733")
    page.get_by_role("button", name="Save").click()

    page.wait_for_url(re.compile(rf"{notice.get_absolute_url()}$"))
    assert "give the recipient a mailing address" not in main.inner_text()
    owner.refresh_from_db()
    assert owner.mailing_address == "12 Shore Road\nPoquott, NY 11733"
