"""The receipt of a payment (issue 27), a document of the pipeline
(documents), registered by LedgerConfig.ready()."""

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal
from typing import ClassVar

from django.utils import timezone

from documents.contracts import (
    DocumentFacts,
    Recipient,
    Signatory,
    blank,
    how_to_pay,
    village_contact,
)
from documents.registry import register
from kernel.humanize import money

from .document_kinds import LedgerDocument

RECEIVED_BY = "for the Incorporated Village of Poquott"


@dataclass(frozen=True, kw_only=True)
class PaymentReceiptFacts(DocumentFacts):
    """The Village's receipt for one payment against a charge on the ledger: the
    fine a notice required (§ 132-13 A(5), R-NOV-1), an invoice of corrective
    measures (R-COR-2) or of an abatement (R-NUI-1), or a court fine."""

    kind: ClassVar[str] = LedgerDocument.PAYMENT_RECEIPT
    template: ClassVar[str] = "documents/payment_receipt.html"
    rule_id: ClassVar[str] = "R-NOV-1"

    received_on: dt.date
    amount: Decimal
    method: str
    charge_reference: str
    charge_kind: str
    charge_amount: Decimal
    paid_to_date: Decimal
    balance: Decimal
    how_to_pay: str = ""
    # A payment voided after its receipt: the receipt is issued again, marked
    # void with the reason (the first version stays, superseded).
    voided_on: dt.date | None = None
    void_reason: str = ""

    @property
    def amount_words(self) -> str:
        return money(self.amount)

    def problems(self) -> list[str]:
        found = super().problems()
        if self.amount is None or self.amount <= 0:
            found.append("the amount received is not a positive amount")
        if blank(self.method):
            found.append("how it was paid is missing")
        if blank(self.charge_reference):
            found.append("what the payment pays is missing")
        if self.balance is not None and self.balance < 0:
            found.append("the balance is negative")
        if self.voided_on is not None and blank(self.void_reason):
            found.append("the reason the payment was voided is missing")
        return found


def sample_payment_receipt() -> PaymentReceiptFacts:
    return PaymentReceiptFacts(
        case_number="MS4-2026-0001",
        document_number="R-2026-00001",
        issued_on=dt.date(2026, 3, 2),
        recipient=Recipient(
            name="Pat Owner", address_lines=("12 Shore Road", "Poquott, NY 11733")
        ),
        contact=village_contact(),
        signatory=Signatory(name="Village Clerk", title=RECEIVED_BY),
        received_on=dt.date(2026, 3, 2),
        amount=Decimal("100.00"),
        method="Check no. 1042",
        charge_reference="NOV-1",
        charge_kind="Fine required by a notice of violation",
        charge_amount=Decimal("250.00"),
        paid_to_date=Decimal("100.00"),
        balance=Decimal("150.00"),
        how_to_pay=how_to_pay("NOV-1"),
    )


def _lines(text: str) -> tuple[str, ...]:
    return tuple(line.strip() for line in (text or "").splitlines() if line.strip())


@register(
    LedgerDocument.PAYMENT_RECEIPT,
    facts=PaymentReceiptFacts,
    source="ledger.payment",
    sample=sample_payment_receipt,
    case_of=lambda payment: payment.charge.case,
    party_of=lambda payment: payment.charge.payer,
)
def payment_receipt_contract(payment) -> PaymentReceiptFacts:
    """The receipt of `payment`: what was received, against what, and what
    remains, as the ledger stood when it was recorded — or, once the payment is
    voided, the same receipt marked void with the reason and what remains now."""
    charge = payment.charge
    payer = charge.payer
    recorder = payment.recorded_by
    left = charge.balance()
    voided_on = timezone.localdate(payment.voided_at) if payment.voided_at else None
    return PaymentReceiptFacts(
        case_number=charge.case.number,
        document_number=payment.receipt_number,
        issued_on=voided_on or payment.received_on,
        recipient=Recipient(
            name=payer.name, address_lines=_lines(payer.mailing_address)
        ),
        contact=village_contact(),
        signatory=Signatory(
            name=(recorder.get_full_name() or recorder.get_username())
            if recorder
            else village_contact().name,
            title=RECEIVED_BY,
        ),
        received_on=payment.received_on,
        amount=payment.amount,
        method=payment.method_words(),
        charge_reference=charge.reference,
        charge_kind=charge.get_kind_display(),
        charge_amount=charge.amount,
        paid_to_date=charge.amount_paid(),
        balance=left,
        how_to_pay=how_to_pay(charge.reference) if left else "",
        voided_on=voided_on,
        void_reason=payment.void_reason,
    )
