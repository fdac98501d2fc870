"""Corrective measures (§ 132-15, R-COR-1, R-COR-2) and nuisance abatement
(§ 132-18, R-NUI-1): the request for access, the invoice of costs."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal
from typing import ClassVar

from django.db import models

from documents.contracts import (
    DocumentFacts,
    FactsInvalid,
    Recipient,
    after_issue,
    blank,
    clerk_office,
)
from documents.registry import register
from documents.samples import SAMPLE_PREMISES, sample_common

from ..document_kinds import EnforcementDocument
from .common import (
    common_facts,
    premises_address_of,
    recipient_of,
    smo_signatory,
    today,
)
from .notice import ABATE_OR_RESTORE_REQUIREMENTS, notice_number

# --- corrective measures (R-COR-1, R-COR-2) ---------------------------------------


class AccessRequestBasis(models.TextChoices):
    NOT_CORRECTED = "not_corrected", "Not corrected as the notice of violation required"
    APPEAL_UPHELD = (
        "appeal_upheld",
        "Not corrected within five business days of the decision upholding the SMO",
    )


@dataclass(frozen=True, kw_only=True)
class AccessRequestFacts(DocumentFacts):
    """The SMO's request for the owner's permission for access to abate the
    violation and/or restore the property, § 132-15 A (R-COR-1): addressed to
    the owner (`recipient`), with a copy to the notice's recipient when another
    person (`copy_to`, the cc line)."""

    kind: ClassVar[str] = EnforcementDocument.ACCESS_REQUEST
    template: ClassVar[str] = "documents/access_request.html"
    rule_id: ClassVar[str] = "R-COR-1"
    base_rules: ClassVar[tuple[str, ...]] = ("R-COR-1", "R-COR-2")

    premises_address: str
    notice_number: str
    notice_issued_on: dt.date
    basis: str  # AccessRequestBasis
    correction_due_on: dt.date  # the NOV's deadline, or the stored R-COR-1 deadline
    appeal_decided_on: dt.date | None = None
    measures: str
    reply_by: dt.date | None = None
    copy_to: Recipient | None = None

    def problems(self) -> list[str]:
        found = super().problems()
        if self.copy_to is not None and blank(self.copy_to.name):
            found.append("the name of the person sent a copy is missing")
        if self.basis not in AccessRequestBasis.values:
            found.append("the basis of the request is not known")
        if (
            self.basis == AccessRequestBasis.APPEAL_UPHELD
            and self.appeal_decided_on is None
        ):
            found.append(
                "the date of the Board's decision upholding the SMO is missing"
            )
        if blank(self.measures):
            found.append("the measures to abate or restore are missing")
        if blank(self.notice_number):
            found.append("the notice of violation is not identified")
        found += after_issue(self, self.reply_by, "the reply date")
        return found

    @property
    def basis_label(self) -> str:
        return AccessRequestBasis(self.basis).label


@dataclass(frozen=True, kw_only=True)
class InvoiceLine:
    description: str
    amount: Decimal
    performed_on: dt.date | None = None


# What Chapter 132 says of an unpaid invoice, in words (printed on the invoice
# and shown on the remedy's page). The cost is the discharger's (R-COR-2) or the
# violator's (R-NUI-1); the chapter gives the Village no lien on the premises
# and no levy on the tax roll for it, so an unpaid balance stays a debt the
# Village may sue for — which is what this says, and no more.
UNPAID_WORDS = (
    "Chapter 132 makes this cost the responsibility of the person charged. It "
    "does not provide a lien on the premises or a charge on the tax roll for an "
    "unpaid invoice: an unpaid balance remains a debt owed to the Village, which "
    "may recover it by a civil action."
)


@dataclass(frozen=True, kw_only=True)
class CorrectiveInvoiceFacts(DocumentFacts):
    """Invoice for the cost of corrective measures, the discharger's sole
    responsibility (§ 132-15 B, R-COR-2; § 132-13 A, R-NOV-2), or of a summary
    abatement at the violator's expense (§ 132-18, R-NUI-1): `cost_rule_id`."""

    kind: ClassVar[str] = EnforcementDocument.CORRECTIVE_INVOICE
    template: ClassVar[str] = "documents/corrective_invoice.html"
    rule_id: ClassVar[str] = "R-COR-2"
    base_rules: ClassVar[tuple[str, ...]] = ("R-COR-2", "R-NOV-2")

    premises_address: str
    authority: str  # the court order or missed NOV deadline the work was done under
    lines: tuple[InvoiceLine, ...]
    total: Decimal
    payment_due_on: dt.date | None = None
    payment_instructions: str
    cost_rule_id: str = "R-COR-2"
    unpaid: str = UNPAID_WORDS

    def relied_on(self) -> tuple[str, ...]:
        if self.cost_rule_id == "R-COR-2":
            return self.base_rules
        return (self.cost_rule_id,)

    def extra_context(self, cite: dict) -> dict:
        return {"cost_rows": [cite[r] for r in self.relied_on() if r in cite]}

    def problems(self) -> list[str]:
        found = super().problems()
        if not self.lines:
            found.append("the invoice has no lines")
        for line in self.lines:
            if blank(line.description):
                found.append("an invoice line has no description")
            if line.amount <= 0:
                found.append(
                    f"an invoice line of ${line.amount} is not a positive amount"
                )
        if sum((line.amount for line in self.lines), Decimal("0")) != self.total:
            found.append("the total is not the sum of the lines")
        if blank(self.authority):
            found.append("the authority for the work is missing")
        if blank(self.payment_instructions):
            found.append("how to pay is missing")
        found += after_issue(self, self.payment_due_on, "the payment date")
        return found


def sample_access_request() -> AccessRequestFacts:
    return AccessRequestFacts(
        **sample_common(number="ACC-2026-0001"),
        premises_address=SAMPLE_PREMISES,
        notice_number="NOV-2026-0001",
        notice_issued_on=dt.date(2026, 1, 5),
        basis=AccessRequestBasis.APPEAL_UPHELD,
        correction_due_on=dt.date(2026, 2, 23),
        appeal_decided_on=dt.date(2026, 2, 16),
        measures="Clean the catch basin; cap the laundry connection at the lot line.",
        reply_by=dt.date(2026, 3, 9),
        copy_to=Recipient(
            name="Sample Tenant LLC", address_lines=("1 Sample Lane", "Poquott, NY")
        ),
    )


def sample_corrective_invoice() -> CorrectiveInvoiceFacts:
    return CorrectiveInvoiceFacts(
        **sample_common(number="INV-2026-0001"),
        premises_address=SAMPLE_PREMISES,
        authority="Order of the Suffolk County District Court of February 2, 2026",
        lines=(
            InvoiceLine(
                description="Vacuum truck: catch basin cleaning",
                amount=Decimal("640.00"),
                performed_on=dt.date(2026, 2, 12),
            ),
            InvoiceLine(description="Pipe cap at lot line", amount=Decimal("185.50")),
        ),
        total=Decimal("825.50"),
        payment_due_on=dt.date(2026, 4, 1),
        payment_instructions="Pay by check to the Incorporated Village of Poquott "
        "at the Village Clerk's office, quoting the invoice number.",
    )


# --- corrective measures (R-COR-1, R-COR-2) --------------------------------------


def access_request_measures(notice) -> str:
    """The measures the Village proposes to take under § 132-15 A ("measures
    reasonably necessary to abate the violation and/or restore the property"),
    from the notice's requirements: the elimination of the illicit connection
    or discharge (1) and the abatement and restoration (3), each with its
    particulars; never the order to cease and desist, the fine, monitoring or
    BMPs. '' when the notice requires neither."""
    return "\n".join(
        f"({r.number}) {r.particulars}"
        for r in sorted(notice.requirements.all(), key=lambda r: r.number)
        if r.number in ABATE_OR_RESTORE_REQUIREMENTS
    )


def _access_request_copies(action) -> tuple:
    copy = action.copy_to
    return (copy,) if copy is not None else ()


@register(
    EnforcementDocument.ACCESS_REQUEST,
    facts=AccessRequestFacts,
    source="enforcement.correctiveaction",
    sample=sample_access_request,
    party_of=lambda action: action.owner,
    copies_of=_access_request_copies,
)
def access_request_contract(action) -> AccessRequestFacts:
    """The SMO's letter asking the owner's permission for access to abate
    (R-COR-1), dated the letter's date, addressed to the owner the request
    names, with a copy to the notice's recipient when another person (the
    notice's frozen name and address); the correction was due on the notice's
    compliance deadline as stored (R-COR-1 after an upheld appeal, else R-NOV-2,
    else R-APL-1)."""
    from ..models import Decision

    notice = action.notice
    upheld = (
        # Only an upholding decision starts R-COR-1 (§ 132-15 A); a modified one
        # is carried out by a superseding notice with its own dates (issue 19).
        notice.appeals.filter(decision=Decision.UPHELD)
        .exclude(decided_on=None)
        .order_by("-decided_on")
        .first()
    )
    due = notice.compliance_deadline()
    measures = access_request_measures(notice)
    problems = []
    if due is None:
        problems.append("the notice has no stored compliance deadline")
    if not measures:
        problems.append(
            "the notice of violation requires no measure to abate the "
            "violation or restore the property (elimination (1) or "
            "abatement and restoration (3))"
        )
    if action.owner is None:  # a request recorded before the owner was
        problems.append(
            "the request names no owner of the premises to address the letter "
            "to (name the owner on the case)"
        )
    if problems:
        raise FactsInvalid(EnforcementDocument.ACCESS_REQUEST, problems)
    copy = action.copy_to
    return AccessRequestFacts(
        **common_facts(
            action.case,
            f"ACC-{action.pk}",
            action.request_letter_on,
            recipient_of(action.owner.name, action.owner.mailing_address),
            smo_signatory(action.created_by),
        ),
        copy_to=(
            recipient_of(
                notice.recipient_name or copy.name,
                notice.recipient_address or copy.mailing_address,
            )
            if copy is not None
            else None
        ),
        premises_address=premises_address_of(action.case),
        notice_number=notice_number(notice),
        notice_issued_on=notice.issued_on,
        basis=AccessRequestBasis.APPEAL_UPHELD
        if upheld is not None
        else AccessRequestBasis.NOT_CORRECTED,
        correction_due_on=due.due_date,
        appeal_decided_on=upheld.decided_on if upheld else None,
        measures=measures,
    )


def invoice_number(remedy) -> str:
    """The office's number of a remedy's invoice, as a notice's (NOV-n):
    INV-CM-n for corrective measures, INV-NA-n for a summary abatement."""
    from ..models import CorrectiveAction

    prefix = "INV-CM" if isinstance(remedy, CorrectiveAction) else "INV-NA"
    return f"{prefix}-{remedy.pk}"


def _invoice_facts(remedy, *, authority, recipient, cost_rule_id):
    return CorrectiveInvoiceFacts(
        **common_facts(
            remedy.case,
            remedy.invoice_number or invoice_number(remedy),
            remedy.invoiced_on or today(),
            recipient,
            smo_signatory(remedy.created_by),
        ),
        premises_address=premises_address_of(remedy.case),
        authority=authority,
        lines=tuple(
            InvoiceLine(
                description=i.description, amount=i.amount, performed_on=i.incurred_on
            )
            for i in remedy.cost_items.all()
        ),
        total=remedy.total_cost(),
        payment_instructions="Pay by check to the Incorporated Village of Poquott "
        f"at the office of the {clerk_office()}, quoting the invoice number.",
        cost_rule_id=cost_rule_id,
    )


@register(
    EnforcementDocument.CORRECTIVE_INVOICE,
    facts=CorrectiveInvoiceFacts,
    source="enforcement.correctiveaction",
    sample=sample_corrective_invoice,
)
def corrective_invoice_contract(action) -> CorrectiveInvoiceFacts:
    """The invoice of the itemized costs of the corrective measures (R-COR-2):
    its lines the cost items, its total their sum, numbered and dated as the
    invoice step recorded (before it: the number it will get, today)."""
    notice = action.notice
    if action.order_on and action.order_court:
        authority = f"Order of {action.order_court} of {action.order_on:%B %-d, %Y}" + (
            f": {action.order_terms}" if action.order_terms else ""
        )
    else:
        authority = (
            f"Notice of violation {notice_number(notice)} of "
            f"{notice.issued_on:%B %-d, %Y}, not complied with by its deadline; "
            "access granted by the owner"
        )
    return _invoice_facts(
        action,
        authority=authority,
        recipient=recipient_of(notice.recipient_name, notice.recipient_address),
        cost_rule_id="R-COR-2",
    )


@register(
    EnforcementDocument.CORRECTIVE_INVOICE,
    facts=CorrectiveInvoiceFacts,
    source="enforcement.nuisanceabatement",
    sample=sample_corrective_invoice,
    party_of=lambda abatement: abatement.case.responsible_party,
)
def abatement_invoice_contract(abatement) -> CorrectiveInvoiceFacts:
    """The invoice of the itemized costs of a summary abatement (R-NUI-1), to
    the case's responsible party."""
    party = abatement.case.responsible_party
    problems = []
    if party is None:
        problems.append("the case names no responsible party to invoice")
    if abatement.declared_on is None:
        problems.append("the date the condition was declared a nuisance is missing")
    if problems:
        raise FactsInvalid(EnforcementDocument.CORRECTIVE_INVOICE, problems)
    return _invoice_facts(
        abatement,
        authority=(
            f"Condition declared a nuisance on {abatement.declared_on:%B %-d, %Y} "
            f"and summarily abated: {abatement.condition_description}"
        ),
        recipient=recipient_of(party.name, party.mailing_address),
        cost_rule_id="R-NUI-1",
    )
