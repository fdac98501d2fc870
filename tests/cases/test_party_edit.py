"""Editing a named party from the case page (issue 14: a refusal links to the
page that fixes it): SMO staff only, bad input kept, the change on the case's
chronology and in the party's history; the notice of violation refused for want
of a mailing address links here."""

import datetime as dt

import pytest
from django.urls import reverse

from cases.models import Case, CaseParty, CaseStatus, EventKind, Party, Premises
from enforcement.models import RequirementKind
from enforcement.services import notices as notice_services
from kernel.models import CaseEvent

from .factories import CaseFactory, PartyFactory, name_party

pytestmark = pytest.mark.django_db

ROLES = ["anonymous", "no_role", "smo", "clerk", "attorney", "inspector", "superuser"]
WRITE = {"smo": 200, "superuser": 200}


@pytest.fixture
def case(db):
    return CaseFactory(investigating=True)


@pytest.fixture
def party(case):
    return name_party(case, PartyFactory(name="Harbor Auto LLC", phone="631-555"))


def _url(case, party, **query):
    url = reverse("cases:party_edit", args=[case.number, party.pk])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def _post(party, **changes):
    data = {
        "kind": party.kind,
        "name": party.name,
        "contact_person": party.contact_person,
        "mailing_address": party.mailing_address,
        "email": party.email,
        "phone": party.phone,
    }
    return data | changes


@pytest.mark.parametrize("role", ROLES)
def test_party_edit_page_is_for_smo_staff_only(client_as, case, party, role):
    client = client_as(role)
    expected = 302 if role == "anonymous" else WRITE.get(role, 403)
    assert client.get(_url(case, party)).status_code == expected
    response = client.post(_url(case, party), _post(party, mailing_address="x"))
    assert response.status_code == (302 if role in WRITE else expected)
    party.refresh_from_db()
    assert (party.mailing_address == "x") == (role in WRITE)


def test_a_party_not_named_on_the_case_is_not_found(client_as, case):
    stranger = PartyFactory(name="Somebody Else")
    response = client_as("smo").get(_url(case, stranger))
    assert response.status_code == 404


def test_smo_adds_the_mailing_address_and_the_chronology_says_so(
    client_as, case, party, smo_user
):
    client = client_as("smo")
    page = client.get(reverse("cases:detail", args=[case.number])).content.decode()
    assert f'href="{_url(case, party)}"' in page
    response = client.post(
        _url(case, party),
        _post(party, mailing_address="7 Harbor Road\nPoquott, NY 11733"),
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("cases:detail", args=[case.number])
    party.refresh_from_db()
    assert party.mailing_address == "7 Harbor Road\nPoquott, NY 11733"
    event = CaseEvent.objects.filter(case=case, kind=EventKind.PARTY).last()
    assert event.summary == "Party details changed: Harbor Auto LLC"
    assert event.detail == "mailing address: — → 7 Harbor Road Poquott, NY 11733"
    assert event.actor == smo_user
    latest = party.history.first()
    assert latest.history_user == smo_user
    assert latest.history_change_reason == f"Edited from case {case.number}"
    page = client.get(reverse("cases:detail", args=[case.number])).content.decode()
    assert "7 Harbor Road<br>Poquott, NY 11733" in page


def test_saving_without_a_change_writes_no_event(client_as, case, party):
    before = CaseEvent.objects.filter(case=case).count()
    response = client_as("smo").post(_url(case, party), _post(party))
    assert response.status_code == 302
    assert CaseEvent.objects.filter(case=case).count() == before
    assert party.history.count() == 1


def test_bad_input_is_answered_with_the_errors_and_the_input_kept(
    client_as, case, party
):
    before = CaseEvent.objects.filter(case=case).count()
    response = client_as("smo").post(
        _url(case, party),
        _post(party, name="  ", email="not-an-address", mailing_address="1 Main St"),
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert "This field is required." in html
    assert "Enter a valid email address." in html
    assert "not-an-address" in html and "1 Main St" in html
    assert "Edit party: Harbor Auto LLC" in html
    party.refresh_from_db()
    assert party.mailing_address == "" and party.email == ""
    assert CaseEvent.objects.filter(case=case).count() == before


def test_next_sends_the_user_back_to_a_page_of_this_site_only(client_as, case, party):
    client = client_as("smo")
    back = client.post(_url(case, party, next="/staff/"), _post(party, phone="1"))
    assert back["Location"] == "/staff/"
    away = client.post(
        _url(case, party, next="https://evil.example/"), _post(party, phone="2")
    )
    assert away["Location"] == reverse("cases:detail", args=[case.number])


# --- the notice of violation's refusal links here ---------------------------------


@pytest.fixture
def notice_without_address(smo_user):
    owner = Party.objects.create(name="Pat Owner", mailing_address="12 Shore Road")
    case = Case.objects.create(
        number="MS4-1999-0002",
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
    return notice


def test_notice_refused_for_want_of_an_address_links_to_the_party_edit_page(
    client_as, notice_without_address
):
    notice = notice_without_address
    html = client_as("smo").get(notice.get_absolute_url()).content.decode()
    assert "give the recipient a mailing address" in html
    edit = reverse("cases:party_edit", args=[notice.case.number, notice.recipient_id])
    assert f'href="{edit}?next={notice.get_absolute_url()}">Edit party</a>' in html
