"""The invoice of the costs of corrective measures (R-COR-2) and of a summary
abatement (R-NUI-1), issued from the case page like every other document: its
amount is the total of the itemized costs, its number the office's, its document
lists the costs; each payment recorded, a part payment saying what remains."""

import datetime as dt
from decimal import Decimal

import pytest
from django.contrib.contenttypes.models import ContentType
from django.urls import reverse
from django.utils import timezone

from documents.models import IssuedDocument
from documents.services import document_preview
from enforcement import charges
from enforcement.document_kinds import EnforcementDocument
from enforcement.documents import corrective
from enforcement.models import CorrectiveStatus
from enforcement.services import notices as notice_svc
from enforcement.services import remedies as svc
from ledger.models import Payment
from tests.steps import confirmed

pytestmark = pytest.mark.django_db
KIND = EnforcementDocument.CORRECTIVE_INVOICE


@pytest.fixture
def work_done(issued_notice, smo_user):
    notice = notice_svc.notice_record_noncompliance(
        notice=issued_notice, actor=smo_user
    )
    action = svc.corrective_request_access(
        notice=notice, actor=smo_user, request_letter_on=dt.date(2026, 3, 20)
    )
    action = svc.remedy_step(
        obj=action,
        transition="record_access_granted",
        actor=smo_user,
        response_on=dt.date(2026, 3, 25),
    )
    return svc.remedy_step(
        obj=action,
        transition="record_work",
        actor=smo_user,
        performed_by="contractor",
        performer_name="ACME",
        work_description="Basin cleaned",
        work_completed_on=dt.date(2026, 4, 8),
    )


@pytest.fixture
def costed(work_done, smo_user):
    for description, amount in (("Vacuum truck", "400"), ("Disposal", "125.50")):
        svc.cost_item_add(
            remedy=work_done,
            actor=smo_user,
            description=description,
            amount=Decimal(amount),
            incurred_on=dt.date(2026, 4, 8),
        )
    return work_done


def _panel_steps(client, case):
    return client.get(case.get_absolute_url()).content.decode()


def _issue_url(remedy):
    return reverse("enforcement:document_issue", args=["corrective", remedy.pk, KIND])


def _pay_url(remedy):
    # Payments of an invoice are recorded on its charge on the ledger (issue 27).
    return reverse("ledger:payment_record", args=[charges.remedy_charge(remedy).pk])


def _payment(amount, **more):
    return {
        "pay-received_on": timezone.localdate().isoformat(),
        "pay-amount": amount,
        "pay-method": "check",
        "pay-check_number": "1042",
        "pay-confirm": "on",
        **more,
    }


def test_the_case_page_offers_the_invoice_only_once_costs_are_itemized(
    work_done, smo_user, client_as
):
    client = client_as("smo")
    body = _panel_steps(client, work_done.case)
    assert "Issue the invoice" not in body
    svc.cost_item_add(
        remedy=work_done,
        actor=smo_user,
        description="Vacuum truck",
        amount=Decimal("400"),
        incurred_on=dt.date(2026, 4, 8),
    )
    body = _panel_steps(client, work_done.case)
    assert "$400.00 of itemized costs" in body
    assert f"{work_done.get_absolute_url()}#step-invoice" in body
    ct = ContentType.objects.get_for_model(work_done)
    assert reverse("documents:draft_preview", args=[KIND, ct.pk, work_done.pk]) in (
        body
    )
    # The clerk reads the panel but is offered no step.
    assert "Issue the invoice" not in _panel_steps(client_as("clerk"), work_done.case)


def test_issuing_the_invoice_numbers_it_and_totals_the_costs(costed, client_as):
    client = client_as("smo")
    page = client.post(_issue_url(costed), confirmed(KIND), follow=True)
    body = page.content.decode()
    costed.refresh_from_db()
    assert costed.status == CorrectiveStatus.INVOICED
    assert costed.invoice_amount == Decimal("525.50")
    assert costed.invoice_number == f"INV-CM-{costed.pk}"
    assert costed.invoiced_on == timezone.localdate()
    assert f"invoice INV-CM-{costed.pk}" in body and "$525.50" in body
    assert "the PDF is being rendered" in body
    document = IssuedDocument.objects.get(kind=KIND, object_id=costed.pk)
    assert document.document_number == f"INV-CM-{costed.pk}"
    html = document_preview(KIND, corrective.corrective_invoice_contract(costed))
    for words in ("Vacuum truck", "Disposal", "$525.50", "lien", "tax roll"):
        assert words in html
    # The page now offers the payment and says nothing is paid yet.
    assert "Record payment" in body
    assert "$525.50 remains due" in body


def test_without_costs_nothing_is_invoiced_and_the_page_says_why(work_done, client_as):
    body = (
        client_as("smo")
        .post(_issue_url(work_done), confirmed(KIND), follow=True)
        .content.decode()
    )
    work_done.refresh_from_db()
    assert work_done.status == CorrectiveStatus.WORK_DONE
    assert work_done.invoice_number == ""
    assert "itemize the costs" in body
    assert not IssuedDocument.objects.filter(kind=KIND).exists()


def test_a_part_payment_says_what_remains_then_the_rest_pays_it(costed, client_as):
    client = client_as("smo")
    client.post(_issue_url(costed), confirmed(KIND))
    body = client.post(_pay_url(costed), _payment("200"), follow=True)
    body = body.content.decode()
    costed.refresh_from_db()
    assert costed.status == CorrectiveStatus.PARTLY_PAID
    assert "receipt R-" in body and "$325.50 remains due" in body
    assert "Check no. 1042" in body
    # The case's ledger panel says what remains (issue 27).
    panel = client.get(costed.case.get_absolute_url()).content.decode()
    assert f"INV-CM-{costed.pk}" in panel and "balance $325.50" in panel
    body = client.post(_pay_url(costed), _payment("325.50"), follow=True)
    costed.refresh_from_db()
    assert costed.status == CorrectiveStatus.PAID
    assert "in full" in body.content.decode()
    assert len(charges.remedy_payments(costed)) == 2


@pytest.mark.parametrize(
    "changes,error",
    [
        ({"pay-amount": "600"}, "more than the $525.50"),
        ({"pay-amount": "0"}, "more than $0.00"),
        ({"pay-amount": "lots"}, "in dollars and cents"),
        ({"pay-received_on": "2999-01-01"}, "cannot be in the future"),
        ({"pay-received_on": "2026-01-01"}, "cannot precede the charge"),
        ({"pay-method": ""}, "Say how it was paid"),
    ],
)
def test_bad_payment_input_keeps_the_input_and_saves_nothing(
    costed, client_as, changes, error
):
    client = client_as("smo")
    client.post(_issue_url(costed), confirmed(KIND))
    page = client.post(_pay_url(costed), _payment("100", **changes))
    assert page.status_code == 200
    body = page.content.decode()
    assert error in body.replace("&#x27;", "'")
    assert 'value="1042"' in body
    costed.refresh_from_db()
    assert costed.status == CorrectiveStatus.INVOICED
    assert not Payment.objects.exists()


def test_a_nuisance_abatement_is_invoiced_from_its_page_too(
    confirmed_case, smo_user, client_as
):
    n = svc.nuisance_declare(
        case=confirmed_case,
        actor=smo_user,
        condition_description="Sewage pooling",
        declared_on=dt.date(2026, 4, 1),
    )
    n = svc.remedy_step(
        obj=n,
        transition="record_abatement",
        actor=smo_user,
        performed_by="village",
        work_description="Pumped out",
        work_completed_on=dt.date(2026, 4, 1),
    )
    svc.cost_item_add(
        remedy=n,
        actor=smo_user,
        description="Pump truck",
        amount=Decimal("250"),
        incurred_on=dt.date(2026, 4, 1),
    )
    url = reverse("enforcement:document_issue", args=["nuisance", n.pk, KIND])
    body = client_as("smo").post(url, confirmed(KIND), follow=True).content.decode()
    n.refresh_from_db()
    assert (n.status, n.invoice_number) == ("invoiced", f"INV-NA-{n.pk}")
    assert "issued to the violator" in body
    html = document_preview(KIND, corrective.abatement_invoice_contract(n))
    assert "Pump truck" in html and "Pat Owner" in html


def test_the_invoice_document_is_not_issued_before_the_work_is_done(
    issued_notice, smo_user, client_as
):
    notice = notice_svc.notice_record_noncompliance(
        notice=issued_notice, actor=smo_user
    )
    action = svc.corrective_request_access(
        notice=notice, actor=smo_user, request_letter_on=dt.date(2026, 3, 20)
    )
    body = (
        client_as("smo")
        .post(_issue_url(action), confirmed(KIND), follow=True)
        .content.decode()
    )
    assert "Not issued:" in body and "not possible while" in body
    assert not IssuedDocument.objects.filter(kind=KIND).exists()
