"""Each other kind of document, built from a real record (the builders of
enforcement/documents/ and inspections/documents.py), previewed, issued from
its page by the roles the documents service allows, and rendered."""

import datetime as dt
from decimal import Decimal

import pytest
from django.contrib.contenttypes.models import ContentType
from django.urls import reverse
from django.utils import timezone

from documents.contracts import FactsInvalid, validate_facts
from documents.models import IssuedDocument
from documents.services import document_preview, document_render, issue_for
from enforcement.document_kinds import EnforcementDocument
from enforcement.documents import access as access_docs
from enforcement.documents import appeal_decision as decision_docs
from enforcement.documents import corrective as corrective_docs
from enforcement.services import appeals as appeal_svc
from enforcement.services import notices as notice_svc
from enforcement.services import remedies as remedy_svc
from inspections import documents as ins_docs
from inspections import services as ins_svc
from inspections.document_kinds import InspectionDocument
from inspections.models import Inspection
from tests.documents.conftest import pdf_text
from tests.enforcement.conftest import aware
from tests.steps import confirmed

pytestmark = pytest.mark.django_db


def step(obj, name, actor, **fields):
    return remedy_svc.remedy_step(obj=obj, transition=name, actor=actor, **fields)


@pytest.fixture
def decided_appeal(scheduled_appeal, clerk_user):
    return appeal_svc.appeal_decide(
        appeal=scheduled_appeal,
        actor=clerk_user,
        decision="upheld",
        decided_on=dt.date(2026, 3, 24),
        resolution="The Board finds the water was pool water, not rain water.",
    )


@pytest.fixture
def corrective(issued_notice, smo_user):
    notice = notice_svc.notice_record_noncompliance(
        notice=issued_notice, actor=smo_user
    )
    return remedy_svc.corrective_request_access(
        notice=notice, actor=smo_user, request_letter_on=dt.date(2026, 3, 20)
    )


@pytest.fixture
def costed(corrective, smo_user):
    """Work done and its cost itemized: the invoice may be issued."""
    a = step(
        corrective, "record_access_granted", smo_user, response_on=dt.date(2026, 3, 25)
    )
    a = step(
        a,
        "record_work",
        smo_user,
        performed_by="contractor",
        performer_name="ACME",
        work_description="Basin cleaned",
        work_completed_on=dt.date(2026, 4, 8),
    )
    remedy_svc.cost_item_add(
        remedy=a,
        actor=smo_user,
        description="Vacuum truck: catch basin cleaning",
        amount=Decimal("400"),
        incurred_on=dt.date(2026, 4, 8),
    )
    return a


@pytest.fixture
def suspension(confirmed_case, smo_user, owner):
    return remedy_svc.suspension_start(
        case=confirmed_case,
        actor=smo_user,
        party=owner,
        suspended_at=aware(2026, 3, 5, 10),
        reasons="Heating oil reaching the catch basin from a basement drain.",
    )


@pytest.fixture
def termination(confirmed_case, smo_user, owner):
    return remedy_svc.termination_propose(
        case=confirmed_case,
        actor=smo_user,
        party=owner,
        notice_on=dt.date(2026, 4, 1),
        reasons="A laundry drain remains connected to the storm sewer.",
    )


@pytest.fixture
def denied(termination, smo_user):
    t = step(
        termination,
        "record_petition",
        smo_user,
        petition_on=dt.date(2026, 4, 3),
        petition_grounds="Fixed",
    )
    t = step(t, "schedule_hearing", smo_user, hearing_at=aware(2026, 4, 9))
    return step(
        t,
        "deny_access",
        smo_user,
        decided_on=dt.date(2026, 4, 9),
        determination="Dye testing showed the laundry drain still connected.",
    )


def _inspection(smo_user, case, outcome):
    inspection = ins_svc.inspection_schedule(
        actor=smo_user,
        kind=Inspection.Kind.COMPLAINT,
        premises=case.premises,
        officer=smo_user,
        scheduled_for=timezone.now() - dt.timedelta(days=1),
        case=case,
    )
    return ins_svc.inspection_record(
        actor=smo_user,
        inspection=inspection,
        performed_at=timezone.now() - dt.timedelta(hours=2),
        attendees="S. Officer, J. Tech",
        access_outcome=outcome,
        access_notes="The owner refused entry at the gate."
        if outcome == "refused"
        else "",
        findings="Floor drain piped to the storm sewer.",
    )


@pytest.fixture
def inspection(confirmed_case, smo_user):
    recorded = _inspection(smo_user, confirmed_case, "granted")
    return ins_svc.inspection_finalize(actor=smo_user, inspection=recorded)


@pytest.fixture
def warrant(confirmed_case, smo_user):
    refused = _inspection(smo_user, confirmed_case, "refused")
    return ins_svc.warrant_start(
        actor=smo_user,
        inspection=refused,
        probable_cause="Dye introduced in the laundry sink appeared at the outfall.",
        court="Suffolk County District Court",
    )


# (record fixture, kind, builder, text the PDF must hold)
CASES = [
    (
        "decided_appeal",
        EnforcementDocument.APPEAL_DECISION,
        decision_docs.appeal_decision_contract,
        "pool water, not rain water",
    ),
    (
        "corrective",
        EnforcementDocument.ACCESS_REQUEST,
        corrective_docs.access_request_contract,
        "Clean the catch basin.",
    ),
    (
        "costed",
        EnforcementDocument.CORRECTIVE_INVOICE,
        corrective_docs.corrective_invoice_contract,
        "Vacuum truck: catch basin cleaning",
    ),
    (
        "suspension",
        EnforcementDocument.EMERGENCY_SUSPENSION,
        access_docs.suspension_contract,
        "Heating oil reaching the catch basin",
    ),
    (
        "termination",
        EnforcementDocument.PROPOSED_TERMINATION,
        access_docs.proposed_termination_contract,
        "laundry drain remains connected",
    ),
    (
        "denied",
        EnforcementDocument.TERMINATION_DECISION,
        access_docs.termination_decision_contract,
        "still connected",
    ),
    (
        "inspection",
        InspectionDocument.INSPECTION_REPORT,
        ins_docs.inspection_report_contract,
        "Floor drain piped to the storm sewer.",
    ),
    (
        "warrant",
        InspectionDocument.WARRANT_COVER_SHEET,
        ins_docs.warrant_cover_sheet_contract,
        "Dye introduced in the laundry sink",
    ),
]


@pytest.mark.parametrize(
    "fixture,kind,builder,expected", CASES, ids=[c[1] for c in CASES]
)
def test_each_builder_makes_a_valid_contract_that_issues_and_renders(
    request, fixture, kind, builder, expected, smo_user
):
    record = request.getfixturevalue(fixture)
    facts = validate_facts(kind, builder(record))
    assert expected in document_preview(kind, facts)
    document = issue_for(kind=kind, source=record, actor=smo_user)
    document = document_render(document_id=document.pk)
    assert document.status == IssuedDocument.Status.ISSUED
    assert expected in pdf_text(document.pdf.read())


SOURCE_WORDS = {
    "decided_appeal": "appeal",
    "corrective": "corrective",
    "costed": "corrective",
    "suspension": "suspension",
    "termination": "termination",
    "denied": "termination",
    "inspection": "inspection",
    "warrant": "warrant",
}


@pytest.mark.parametrize(
    "fixture,kind", [(c[0], c[1]) for c in CASES], ids=[c[1] for c in CASES]
)
def test_the_record_page_offers_preview_and_issue_and_issues(
    request, fixture, kind, client_as
):
    record = request.getfixturevalue(fixture)
    client = client_as("smo")
    ct = ContentType.objects.get_for_model(record)
    preview = reverse("documents:draft_preview", args=[kind, ct.pk, record.pk])
    issue = reverse(
        "enforcement:document_issue", args=[SOURCE_WORDS[fixture], record.pk, kind]
    )
    page = client.post(issue, confirmed(kind), follow=True)
    assert page.status_code == 200
    body = page.content.decode()
    assert preview in body and "issued; the PDF is being rendered" in body
    assert IssuedDocument.objects.filter(kind=kind, object_id=record.pk).count() == 1


def test_a_clerk_may_issue_the_appeal_decision(decided_appeal, client_as):
    client = client_as("clerk")
    url = reverse(
        "enforcement:document_issue",
        args=["appeal", decided_appeal.pk, EnforcementDocument.APPEAL_DECISION],
    )
    response = client.post(url, confirmed(EnforcementDocument.APPEAL_DECISION))
    assert response.status_code == 302
    document = IssuedDocument.objects.get(kind=EnforcementDocument.APPEAL_DECISION)
    assert document.issued_by.username == response.wsgi_request.user.username


def test_an_appeal_not_yet_decided_gives_a_message_not_a_document(appeal, client_as):
    client = client_as("clerk")
    url = reverse(
        "enforcement:document_issue",
        args=["appeal", appeal.pk, EnforcementDocument.APPEAL_DECISION],
    )
    data = confirmed(EnforcementDocument.APPEAL_DECISION)
    body = client.post(url, data, follow=True).content.decode()
    assert "has not decided this appeal yet" in body and "Nothing was issued" in body
    assert not IssuedDocument.objects.filter(
        kind=EnforcementDocument.APPEAL_DECISION
    ).exists()
    with pytest.raises(FactsInvalid):
        decision_docs.appeal_decision_contract(appeal)


def test_issuing_again_makes_a_correction_superseding_the_issued_version(
    suspension, smo_user
):
    kind = EnforcementDocument.EMERGENCY_SUSPENSION
    first = document_render(
        document_id=issue_for(kind=kind, source=suspension, actor=smo_user).pk
    )
    second = issue_for(kind=kind, source=suspension, actor=smo_user)
    assert second.supersedes == first and second.version == 2


@pytest.mark.parametrize(
    "role,status",
    [
        ("anonymous", 302),
        ("attorney", 403),
        ("inspector", 403),
        ("clerk", 403),
        ("smo", 302),
    ],
)
def test_issue_url_by_role(suspension, client_as, role, status):
    url = reverse(
        "enforcement:document_issue",
        args=["suspension", suspension.pk, EnforcementDocument.EMERGENCY_SUSPENSION],
    )
    response = client_as(role).post(url)
    assert response.status_code == status
    if role == "anonymous":
        assert "login" in response["Location"]
    issued = IssuedDocument.objects.filter(object_id=suspension.pk).exists()
    assert issued is (role == "smo")


def test_a_document_of_another_record_is_not_found(suspension, client_as):
    url = reverse(
        "enforcement:document_issue",
        args=["suspension", suspension.pk, EnforcementDocument.APPEAL_DECISION],
    )
    assert client_as("smo").post(url).status_code == 404


def test_the_documents_panel_form_carries_the_pages_csrf_token(
    decided_appeal, clerk_user
):
    """The panel is rendered inside the page's context (kernel.panels), not a
    fresh one: its form must still post with the page's CSRF token."""
    import re

    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(clerk_user)
    page = client.get(reverse("enforcement:appeal_detail", args=[decided_appeal.pk]))
    issue = reverse(
        "enforcement:document_issue",
        args=["appeal", decided_appeal.pk, EnforcementDocument.APPEAL_DECISION],
    )
    form = re.search(
        rf'<form method="post" action="{re.escape(issue)}">\s*'
        r'<input type="hidden" name="csrfmiddlewaretoken" value="([^"]+)"',
        page.content.decode(),
    )
    assert form, "the Documents panel has no issue form with a CSRF token"
    response = client.post(
        issue,
        confirmed(
            EnforcementDocument.APPEAL_DECISION, csrfmiddlewaretoken=form.group(1)
        ),
    )
    assert response.status_code == 302
    assert IssuedDocument.objects.filter(
        kind=EnforcementDocument.APPEAL_DECISION
    ).exists()
