"""Issue 25, § 132-15 A (R-COR-1): the Stormwater Management Officer "shall
request the owner's permission for access to the subject private property".
The request for access is addressed to the owner named on the case, with a
copy to the notice's recipient (the respondent) when another person: the cc
line names them, the chronology records the copy, and the letter reaches them
on their own page as it reaches the owner. With no owner named, the request
page refuses, says why and links to where the owner is named.

Through the pages as the SMO works; the letter read from its PDF."""

import datetime as dt

import pytest
from django.urls import reverse

from cases.models import CaseParty
from documents.selectors import documents_of
from documents.services import document_render
from enforcement.document_kinds import EnforcementDocument
from enforcement.models import CorrectiveAction
from enforcement.services import notices as notice_svc
from enforcement.services import remedies as remedy_svc
from enforcement.services.flow import Refused
from kernel.models import CaseEvent
from portal.services import live_access, portal_issue
from tests.documents.conftest import pdf_text
from tests.enforcement.conftest import draft
from tests.portal.conftest import enter
from tests.visible import visible_text

pytestmark = pytest.mark.django_db

LETTER_ON = dt.date(2026, 3, 20)


def not_complied(case, smo_user, recipient):
    notice = draft(case, smo_user, recipient=recipient)
    notice = notice_svc.notice_issue(
        notice=notice, actor=smo_user, issued_on=dt.date(2026, 3, 3)
    )
    return notice_svc.notice_record_noncompliance(notice=notice, actor=smo_user)


def request_page(case):
    return reverse("enforcement:remedy_create", args=[case.pk, "corrective"])


def request_access(client, case, notice, owner):
    """The SMO fills in "Request access (corrective measures)" and saves."""
    return client.post(
        request_page(case),
        {
            "notice": notice.pk,
            "request_letter_on": LETTER_ON.isoformat(),
            "owner": owner.pk,
        },
        follow=True,
    )


def issue_letter(client, action):
    """The SMO issues the letter from the record's page; the worker renders it."""
    client.post(
        reverse(
            "enforcement:document_issue",
            args=["corrective", action.pk, EnforcementDocument.ACCESS_REQUEST],
        )
    )
    document = documents_of(action, EnforcementDocument.ACCESS_REQUEST).get()
    return document_render(document_id=document.pk)


def test_a_respondent_who_is_not_the_owner_gets_a_copy_of_the_owners_letter(
    confirmed_case, owner, agent, smo_user, client_as, client
):
    notice = not_complied(confirmed_case, smo_user, recipient=agent)
    smo = client_as("smo")
    page = request_access(smo, confirmed_case, notice, owner)
    assert page.status_code == 200
    action = CorrectiveAction.objects.get()
    assert action.owner == owner

    letter = issue_letter(smo, action)
    text = pdf_text(letter.pdf.read())
    assert (
        "To the owner of the premises: Pat Owner 12 Shore Road Poquott, NY 11733"
        in (text)
    )
    assert f"No. NOV-{notice.pk} of Tuesday, March 3, 2026, issued to Agent LLC" in (
        text
    )
    assert "cc: Agent LLC, 1 Main St" in text
    # The same paper goes to two parties: no one party's access code on it.
    assert "access code" not in text
    assert live_access(confirmed_case, owner) is None

    # The copy is recorded as the letter is.
    assert CaseEvent.objects.filter(
        case=confirmed_case,
        summary__endswith=(
            "owner's permission for access requested by letter of Friday, March 20, 2026 "
            "to Pat Owner, copy to Agent LLC"
        ),
    ).exists()

    # And each reads it on the page their own code opens.
    for party in (agent, owner):
        code = (
            live_access(confirmed_case, party)
            or portal_issue(case=confirmed_case, party=party, actor=smo_user)
        ).printed
        client.get(reverse("portal:leave"))
        enter(client, code)
        home = visible_text(client.get(reverse("portal:home")))
        assert f"ACC-{action.pk}" in home, party
        opened = client.get(reverse("portal:document", args=[letter.pk]))
        assert opened.status_code == 200, party


def test_the_owner_who_is_the_respondent_gets_the_letter_without_a_cc(
    confirmed_case, owner, smo_user, client_as
):
    notice = not_complied(confirmed_case, smo_user, recipient=owner)
    smo = client_as("smo")
    request_access(smo, confirmed_case, notice, owner)
    action = CorrectiveAction.objects.get()
    assert action.copy_to is None

    text = pdf_text(issue_letter(smo, action).pdf.read())
    assert "To the owner of the premises: Pat Owner 12 Shore Road" in text
    assert "cc:" not in text
    assert "issued to" not in text
    # One addressee: the owner's own code, as on every letter to a party.
    assert live_access(confirmed_case, owner).printed in text
    assert CaseEvent.objects.filter(
        summary__endswith="requested by letter of Friday, March 20, 2026 to Pat Owner"
    ).exists()


def test_with_no_owner_named_the_request_page_refuses_and_links_to_naming_one(
    confirmed_case, owner, smo_user, client_as
):
    notice = not_complied(confirmed_case, smo_user, recipient=owner)
    CaseParty.objects.filter(case=confirmed_case, role=CaseParty.Role.OWNER).delete()
    smo = client_as("smo")
    name_owner = (
        reverse("cases:party_add", args=[confirmed_case.number]) + "?role=owner"
    )

    page = smo.get(request_page(confirmed_case))
    html = page.content.decode()
    why = (
        "Not yet: name the owner of the premises on the case first: the "
        "Stormwater Management Officer asks the owner's permission for access "
        "(§ 132-15 A) — Name the owner"
    )
    assert why in visible_text(page)
    assert f'<a href="{name_owner}">Name the owner</a>' in html
    assert 'type="button" class="btn btn-secondary" disabled' in html
    assert 'type="submit"' not in html.split('id="why-blocked"')[0].split("<form")[-1]

    # A request sent anyway is refused, and the service says the same words:
    # nothing is saved.
    refused = request_access(smo, confirmed_case, notice, owner)
    assert why in visible_text(refused)
    with pytest.raises(Refused, match="name the owner of the premises") as caught:
        remedy_svc.corrective_request_access(
            notice=notice, actor=smo_user, request_letter_on=LETTER_ON
        )
    assert caught.value.reasons[0].url == name_owner
    assert not CorrectiveAction.objects.exists()

    # The link opens "Name a party" with the role of owner chosen.
    form = smo.get(name_owner).content.decode()
    assert '<option value="owner" selected>Owner</option>' in form
