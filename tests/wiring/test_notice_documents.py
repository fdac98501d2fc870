"""Issuing a notice of violation issues its document (R-NOV-1) in the same
transaction; the PDF holds what the law requires; a correction is a new version."""

import datetime as dt
import time

import pytest
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.urls import reverse

from cases.models import CaseStatus, Party
from deadlines.services import open_deadline_for
from documents.contracts import FactsInvalid
from documents.models import IssuedDocument
from documents.selectors import documents_of
from documents.services import document_issue, document_render
from enforcement.document_kinds import EnforcementDocument
from enforcement.documents.notice import notice_contract
from enforcement.models import NoticeOfViolation, NoticeStatus, RequirementKind
from enforcement.services import notices as svc
from tests.documents.conftest import pdf_text
from tests.enforcement.conftest import FINE, draft
from tests.steps import confirmed

pytestmark = pytest.mark.django_db


def nov_document(notice):
    return documents_of(notice, EnforcementDocument.NOTICE_OF_VIOLATION).get()


def rendered(document):
    return document_render(document_id=document.pk)


def test_issuing_a_notice_issues_its_document_in_the_same_transaction(
    issued_notice,
):
    document = nov_document(issued_notice)
    assert document.status == IssuedDocument.Status.RENDERING
    assert document.case == issued_notice.case
    assert document.document_number == f"NOV-{issued_notice.pk}"
    assert document.facts["recipient"]["name"] == "Pat Owner"
    assert document.issued_by == issued_notice.issued_by


def test_the_rendered_notice_holds_the_requirements_appeal_day_penalties_and_name(
    issued_notice, settings
):
    document = rendered(nov_document(issued_notice))
    assert document.status == IssuedDocument.Status.ISSUED
    text = pdf_text(document.pdf.read())
    for requirement in issued_notice.requirements.all():
        assert requirement.particulars in text
    stored = open_deadline_for(
        issued_notice, "R-APL-1"
    )  # R-APL-1: stored, not computed
    assert document.facts["last_day_to_appeal"] == stored.due_date.isoformat()
    assert f"{stored.due_date:%B} {stored.due_date.day}, {stored.due_date:%Y}" in text
    remediation = open_deadline_for(issued_notice, "R-NOV-2")
    assert document.facts["remediation_deadline"] == remediation.due_date.isoformat()
    assert "132-13 B" in text  # the penalties paragraph
    assert "Pat Owner" in text
    assert settings.VILLAGE["clerk_office"].split(",")[0] in text


def test_the_recipient_is_the_name_frozen_at_issue(issued_notice, owner):
    Party.objects.filter(pk=owner.pk).update(name="Someone Else")
    document = rendered(nov_document(issued_notice))
    text = pdf_text(document.pdf.read())
    assert "Pat Owner" in text and "Someone Else" not in text


def test_a_fine_prints_with_its_tier(confirmed_case, smo_user):
    notice = draft(
        confirmed_case,
        smo_user,
        requirements=[(RequirementKind.FINE, "Pay the fine to the Village Clerk.")],
        remediation_days=None,
        proposed_fine=FINE,
    )
    notice = svc.notice_issue(notice=notice, actor=smo_user)
    document = rendered(nov_document(notice))
    fine = document.facts["fine"]
    assert (fine["amount"], fine["tier"]) == ("300.00", 1)
    text = pdf_text(document.pdf.read())
    assert "300.00" in text
    # Issue 27: to whom, by when (the fine's charge on the ledger: the last day
    # to appeal, R-APL-1) and how and where it is paid.
    due = notice.last_day_to_appeal().due_date
    assert fine["due_on"] == due.isoformat()
    assert "Payable to Incorporated Village of Poquott" in text
    assert f"{due:%A, %B} {due.day}, {due.year}" in text
    for words in ("money order", "Monday to Friday", "45 Birchwood Avenue", "online"):
        assert words in text, words


def test_downloading_twice_returns_the_same_stored_bytes(issued_notice, client_as):
    document = rendered(nov_document(issued_notice))
    client = client_as("smo")
    url = reverse("documents:download", args=[document.pk])
    first = b"".join(client.get(url).streaming_content)
    second = b"".join(client.get(url).streaming_content)
    assert first == second == document.pdf.open("rb").read()
    assert first.startswith(b"%PDF")


def test_a_correction_issues_a_new_version_and_both_remain(issued_notice, smo_user):
    first = rendered(nov_document(issued_notice))
    correction = svc.notice_start_correction(notice=issued_notice, actor=smo_user)
    correction = svc.notice_issue(notice=correction, actor=smo_user)
    second = nov_document(correction)
    assert second.supersedes == first and second.version == 2
    rendered(second)
    versions = IssuedDocument.objects.filter(case=issued_notice.case).order_by(
        "version"
    )
    assert [d.version for d in versions] == [1, 2]
    assert all(d.is_issued for d in versions)
    issued_notice.refresh_from_db()
    assert issued_notice.status == NoticeStatus.SUPERSEDED


def test_invalid_document_facts_roll_the_notice_back(confirmed_case, smo_user):
    nameless = Party.objects.create(name=" ", mailing_address="3 Shore Road")
    confirmed_case.case_parties.create(party=nameless, role="owner")
    notice = draft(confirmed_case, smo_user, recipient=nameless)
    with pytest.raises(FactsInvalid, match="recipient's name is missing"):
        svc.notice_issue(notice=notice, actor=smo_user)
    notice.refresh_from_db()
    confirmed_case.refresh_from_db()
    assert notice.status == NoticeStatus.DRAFT and notice.issued_on is None
    assert not notice.deadlines().exists()
    assert not IssuedDocument.objects.exists()
    assert confirmed_case.status == CaseStatus.VIOLATION_CONFIRMED


def test_a_notice_requiring_abatement_without_a_remediation_deadline_is_refused(
    issued_notice,
):
    # R-NOV-2: the contract refuses what the enforcement step would otherwise print.
    facts = notice_contract(issued_notice)
    from dataclasses import replace

    with pytest.raises(FactsInvalid, match="R-NOV-2"):
        document_issue(
            kind=EnforcementDocument.NOTICE_OF_VIOLATION,
            facts=replace(facts, remediation_deadline=None),
            case=issued_notice.case,
            source=issued_notice,
            actor=issued_notice.issued_by,
        )


def test_the_issue_page_shows_a_message_and_saves_nothing_on_invalid_facts(
    confirmed_case, smo_user, client_as, settings
):
    settings.VILLAGE = {**settings.VILLAGE, "clerk_office": ""}
    notice = draft(confirmed_case, smo_user)
    client = client_as("smo")
    response = client.post(
        reverse("enforcement:notice_step", args=[notice.pk, "issue"]),
        confirmed("issue", expected_status="draft"),
        follow=True,
    )
    assert response.status_code == 200
    assert "where to file an appeal is missing" in response.content.decode()
    notice.refresh_from_db()
    assert notice.status == NoticeStatus.DRAFT
    assert not IssuedDocument.objects.exists()


def test_the_notice_page_issues_and_then_shows_the_download(
    confirmed_case, smo_user, client_as
):
    notice = draft(confirmed_case, smo_user)
    client = client_as("smo")
    client.post(
        reverse("enforcement:notice_step", args=[notice.pk, "issue"]),
        confirmed("issue", expected_status="draft"),
    )
    document = nov_document(notice)
    page = reverse("enforcement:notice_detail", args=[notice.pk])
    assert "rendering" in client.get(page).content.decode()
    rendered(document)
    body = client.get(page).content.decode()
    assert reverse("documents:download", args=[document.pk]) in body


def test_a_draft_notice_has_a_preview_from_its_facts(draft_notice, client_as):
    client = client_as("smo")
    body = client.get(
        reverse("enforcement:notice_detail", args=[draft_notice.pk])
    ).content.decode()
    assert "Preview notice" in body
    from django.contrib.contenttypes.models import ContentType

    url = reverse(
        "documents:draft_preview",
        args=[
            EnforcementDocument.NOTICE_OF_VIOLATION,
            ContentType.objects.get_for_model(NoticeOfViolation).pk,
            draft_notice.pk,
        ],
    )
    assert url in body
    preview = client.get(url).content.decode()
    assert "Clean the catch basin." in preview
    assert not IssuedDocument.objects.exists()


def test_a_clerk_may_not_issue_a_notice(draft_notice, clerk_user, client_as):
    response = client_as("clerk").post(
        reverse("enforcement:notice_step", args=[draft_notice.pk, "issue"]),
        {"expected_status": "draft"},
    )
    assert response.status_code == 403
    with pytest.raises(PermissionDenied):
        document_issue(
            kind=EnforcementDocument.NOTICE_OF_VIOLATION,
            facts=notice_contract(draft_notice),
            case=draft_notice.case,
            source=draft_notice,
            actor=clerk_user,
        )
    assert not IssuedDocument.objects.exists()


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_renders_the_notice_issued_on_commit(
    celery_worker_on_redis, smo_user
):

    from cases.models import Case, CaseParty, Premises

    owner = Party.objects.create(name="Wren Worker", mailing_address="9 Shore Road")
    case = Case.objects.create(
        number="MS4-1999-0009",
        source="web",
        summary="Worker",
        premises=Premises.objects.create(address="9 Shore Road"),
        responsible_party=owner,
        status=CaseStatus.VIOLATION_CONFIRMED,
        violation_confirmed_on=dt.date(2026, 3, 2),
    )
    CaseParty.objects.create(case=case, party=owner, role=CaseParty.Role.OWNER)
    with transaction.atomic():
        notice = draft(case, smo_user)
    notice = svc.notice_issue(notice=notice, actor=smo_user)
    document = nov_document(notice)
    for _ in range(300):
        document.refresh_from_db()
        if document.status != IssuedDocument.Status.RENDERING:
            break
        time.sleep(0.1)
    assert document.status == IssuedDocument.Status.ISSUED
    text = pdf_text(document.pdf.read())
    assert "Wren Worker" in text and "Clean the catch basin." in text


# --- the prohibition violated, from what the case records ----------------------

VIOLATED = {
    "illicit_discharge": "R-PRO-1",
    "illicit_connection": "R-CON-1",
    "contaminating_activity": "R-ACT-1",
    "spill": "R-SPL-1",
    "access_obstruction": "R-ACC-3",
    "permit_noncompliance": "R-IND-1",
    "unauthorized_reinstatement": "R-SUS-2",
}


def test_every_case_kind_names_a_prohibition_of_the_citation_table():
    from cases.models import CaseKind

    assert set(VIOLATED) == set(CaseKind.values)


@pytest.mark.parametrize(("kind", "rule_id"), sorted(VIOLATED.items()))
def test_an_issued_notice_relies_on_the_prohibition_the_case_records(
    confirmed_case, smo_user, kind, rule_id
):
    """Issued through the services from a real case (no violation_rule_ids on
    it): the PDF's "Sections relied on" names the prohibition of its kind."""
    from kernel.citations import citation
    from tests.documents.conftest import squash

    assert not hasattr(confirmed_case, "violation_rule_ids")
    type(confirmed_case).objects.filter(pk=confirmed_case.pk).update(kind=kind)
    confirmed_case.refresh_from_db()
    notice = svc.notice_issue(notice=draft(confirmed_case, smo_user), actor=smo_user)
    document = rendered(nov_document(notice))
    assert rule_id in document.citations
    text = pdf_text(document.pdf.read())
    relied_on = text.split("Sections of the Village Code relied on", 1)[1]
    row = citation(rule_id)
    assert f"{squash(row.section)} {squash(row.heading)}" in relied_on
    # and the finding states it
    finding = text.split("Finding of the Stormwater Management Officer", 1)[1]
    assert squash(row.heading) in finding.split("You are required to", 1)[0]
