# ruff: noqa: F401, F811 (fixtures)
"""The invoice of corrective measures on the ledger (issue 27, R-COR-2): issued,
it is a charge; paid in full there, the invoice is paid; a payment voided puts
it back to partly paid, or to invoiced when nothing is left."""

from decimal import Decimal

import pytest

from enforcement import charges
from enforcement.models import CorrectiveStatus
from enforcement.services import remedies as svc
from ledger import services
from ledger.models import Charge, ChargeKind
from tests.enforcement.test_invoice import costed, work_done

pytestmark = pytest.mark.django_db


@pytest.fixture
def invoice(costed, smo_user):
    action = svc.remedy_invoice(remedy=costed, actor=smo_user)
    return Charge.objects.get(corrective_action=action)


def _pay(charge, actor, amount):
    return services.payment_record(
        charge=charge,
        actor=actor,
        received_on=charge.issued_on,
        amount=amount,
        method="money_order",
    )


def test_issuing_the_invoice_charges_its_total_to_the_notices_recipient(
    invoice, costed
):
    assert invoice.kind == ChargeKind.CORRECTIVE_INVOICE
    assert invoice.amount == Decimal("525.50")
    assert invoice.reference == f"INV-CM-{costed.pk}"
    assert invoice.payer == costed.notice.recipient
    assert invoice.due_on is None and "on receipt" in invoice.due_explanation


def test_paid_in_full_on_the_ledger_the_invoice_is_paid(invoice, costed, smo_user):
    _pay(invoice, smo_user, "525.50")
    costed.refresh_from_db()
    assert costed.status == CorrectiveStatus.PAID
    assert costed.paid_on == invoice.issued_on


def test_voiding_moves_the_invoice_back(invoice, costed, smo_user):
    first = _pay(invoice, smo_user, "25.50")
    second = _pay(invoice, smo_user, "500")
    costed.refresh_from_db()
    assert costed.status == CorrectiveStatus.PAID
    services.payment_void(payment=second, actor=smo_user, reason="Wrong case")
    costed.refresh_from_db()
    assert costed.status == CorrectiveStatus.PARTLY_PAID and costed.paid_on is None
    assert costed.balance_due() == Decimal("500.00")
    services.payment_void(payment=first, actor=smo_user, reason="Wrong case")
    costed.refresh_from_db()
    assert costed.status == CorrectiveStatus.INVOICED
    assert charges.remedy_payments(costed) == []
    assert "a payment was voided" in svc.step_words(costed, "reopen_unpaid")
