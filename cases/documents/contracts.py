"""The plain-data contracts of the documents: exactly the facts each template needs.

The enforcement, inspection and appeal code builds one of these dataclasses from its
own records (a notice, an appeal, an inspection…) and hands it to
`cases.documents.services.document_preview` / `document_issue`. Nothing here reads
those records: the contract is the boundary, and what is issued is frozen as the
contract's JSON on the IssuedDocument row.

Rules the law imposes on a document's content (RULES.md) are checked by
`validate_facts` before anything is rendered; a document that would say less than
the law requires is refused with a clear message (FactsInvalid).

Dates are facts: every legal date (the last day to appeal, a remediation
deadline…) comes from a stored Deadline (cases.deadlines), never from arithmetic
here. Words of the law come from the citation table (cases.Citation), never from
this module or the templates; `relied_on()` names the rows a document prints.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import types
import typing
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import ClassVar

from django.conf import settings
from django.db import models


class DocumentKind(models.TextChoices):
    NOTICE_OF_VIOLATION = "notice_of_violation", "Notice of violation"
    EMERGENCY_SUSPENSION = "emergency_suspension", "Emergency suspension notice"
    PROPOSED_TERMINATION = (
        "proposed_termination",
        "Notice of proposed termination of MS4 access",
    )
    TERMINATION_DECISION = (
        "termination_decision",
        "Decision on a petition for reconsideration",
    )
    ACCESS_REQUEST = "access_request", "Request for access to abate"
    APPEAL_DECISION = "appeal_decision", "Decision of the Board of Trustees on appeal"
    CORRECTIVE_INVOICE = "corrective_invoice", "Invoice for corrective-measure costs"
    INSPECTION_REPORT = "inspection_report", "Inspection report"
    WARRANT_COVER_SHEET = (
        "warrant_cover_sheet",
        "Search warrant application: cover sheet",
    )


class FactsInvalid(ValueError):
    """The facts do not make a lawful document; `problems` says what is missing."""

    def __init__(self, kind: str, problems: list[str]):
        self.kind = kind
        self.problems = problems
        label = DocumentKind(kind).label if kind in DocumentKind.values else kind
        super().__init__(f"Cannot render the {label}: " + "; ".join(problems))


# § 132-13 A(1)–(6): each has its own row in the citation table (migration
# cases/0005), so the words printed for a requirement are data staff can read.
NOV_REQUIREMENT_NUMBERS = (1, 2, 3, 4, 5, 6)
ABATEMENT_REQUIREMENT = 3  # abatement/remediation and restoration → R-NOV-2
FINE_REQUIREMENT = 5  # payment of a fine → fine and tier


def requirement_rule_id(number: int) -> str:
    return f"R-NOV-1({number})"


# § 132-13 B: the fine range of each offense tier (R-PEN-1..3), inclusive, in
# dollars. Used to refuse a proposed fine the tier does not allow; the printed
# range is the citation's own wording.
FINE_TIERS = {
    1: ("R-PEN-1", Decimal("0"), Decimal("350")),
    2: ("R-PEN-2", Decimal("350"), Decimal("700")),
    3: ("R-PEN-3", Decimal("700"), Decimal("1000")),
}


# --- shared parts ---------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class Recipient:
    """The addressee as frozen at issue (name and postal address lines)."""

    name: str
    address_lines: tuple[str, ...] = ()
    attention: str = ""


@dataclass(frozen=True, kw_only=True)
class Contact:
    """Whom to call about the document."""

    name: str
    phone: str
    email: str = ""


@dataclass(frozen=True, kw_only=True)
class Signatory:
    name: str
    title: str


def village_contact() -> Contact:
    """The Stormwater Management Officer's contact from settings.VILLAGE."""
    village = settings.VILLAGE
    return Contact(
        name=village["smo_name"], phone=village["smo_phone"], email=village["smo_email"]
    )


def clerk_office() -> str:
    """Where appeals are filed (settings.VILLAGE clerk_office)."""
    return settings.VILLAGE["clerk_office"]


@dataclass(frozen=True, kw_only=True)
class DocumentFacts:
    """What every document carries: the case, its own number and date, the
    recipient as frozen, whom to call and who signs."""

    kind: ClassVar[str]
    template: ClassVar[str]
    rule_id: ClassVar[str]  # the rule the document is issued under (timeline)
    base_rules: ClassVar[tuple[str, ...]] = ()

    case_number: str
    document_number: str
    issued_on: dt.date
    recipient: Recipient
    contact: Contact
    signatory: Signatory

    def relied_on(self) -> tuple[str, ...]:
        """The citation rows the document prints, in print order."""
        return self.base_rules

    def problems(self) -> list[str]:
        found = []
        for name in ("case_number", "document_number"):
            if not str(getattr(self, name) or "").strip():
                found.append(f"{name.replace('_', ' ')} is missing")
        if not isinstance(self.issued_on, dt.date):
            found.append("the date of issue is missing")
        if not self.recipient.name.strip():
            found.append("the recipient's name is missing")
        if not self.contact.name.strip() or not self.contact.phone.strip():
            found.append("whom to call (name and telephone) is missing")
        if not self.signatory.name.strip():
            found.append("the signatory is missing")
        return found

    def extra_context(self, cite: dict) -> dict:
        return {}


def _after_issue(facts: DocumentFacts, day, what: str) -> list[str]:
    if (
        isinstance(day, dt.date)
        and isinstance(facts.issued_on, dt.date)
        and day < facts.issued_on
    ):
        return [f"{what} ({day:%Y-%m-%d}) is before the date of issue"]
    return []


def _blank(value) -> bool:
    return not str(value or "").strip()


# --- notice of violation (R-NOV-1, R-NOV-2, R-PEN-1..3, R-APL-1) -----------------


@dataclass(frozen=True, kw_only=True)
class Requirement:
    """One requirement of § 132-13 A(1)–(6) chosen for the notice, with what the
    person must do under it. The printed words of (n) come from the citation
    table (row R-NOV-1(n))."""

    number: int
    particulars: str


@dataclass(frozen=True, kw_only=True)
class Fine:
    """The fine proposed (§ 132-13 A(5)) and the offense tier of § 132-13 B."""

    amount: Decimal
    tier: int  # 1 first offense (R-PEN-1), 2 second (R-PEN-2), 3 third+ (R-PEN-3)

    @property
    def rule_id(self) -> str:
        return FINE_TIERS[self.tier][0]


@dataclass(frozen=True, kw_only=True)
class NoticeOfViolationFacts(DocumentFacts):
    """Notice of violation, § 132-13 A (R-NOV-1). `document_number` is the notice
    number. `last_day_to_appeal` and its explanation are the stored R-APL-1
    deadline of the notice (cases.deadlines.services.open_deadline_for)."""

    kind: ClassVar[str] = DocumentKind.NOTICE_OF_VIOLATION
    template: ClassVar[str] = "documents/notice_of_violation.html"
    rule_id: ClassVar[str] = "R-NOV-1"

    premises_address: str
    violation_rule_ids: tuple[str, ...] = ()  # prohibitions violated, e.g. R-PRO-1
    finding: str
    requirements: tuple[Requirement, ...]
    remediation_deadline: dt.date | None = None
    fine: Fine | None = None
    last_day_to_appeal: dt.date | None = None
    appeal_deadline_explanation: str = ""
    appeal_filing_office: str

    @property
    def requires_abatement(self) -> bool:
        return any(r.number == ABATEMENT_REQUIREMENT for r in self.requirements)

    @property
    def requires_fine(self) -> bool:
        return any(r.number == FINE_REQUIREMENT for r in self.requirements)

    def relied_on(self) -> tuple[str, ...]:
        rules = ["R-NOV-1", *self.violation_rule_ids]
        rules += [requirement_rule_id(r.number) for r in self.requirements]
        if self.requires_abatement:
            rules.append("R-NOV-2")
        rules.append("R-PEN-1")  # the penalties paragraph of § 132-13 B
        if self.fine is not None and self.fine.tier in FINE_TIERS:
            rules.append(self.fine.rule_id)
        rules.append("R-APL-1")
        return tuple(dict.fromkeys(rules))

    def problems(self) -> list[str]:
        found = super().problems()
        if _blank(self.premises_address):
            found.append("the premises address is missing")
        if _blank(self.finding):
            found.append("the finding of the Stormwater Management Officer is missing")
        numbers = [r.number for r in self.requirements]
        if not numbers:
            found.append("no requirement of § 132-13 A(1)–(6) is chosen")
        for number in numbers:
            if number not in NOV_REQUIREMENT_NUMBERS:
                found.append(f"requirement ({number}) is not one of (1)–(6)")
        if len(set(numbers)) != len(numbers):
            found.append("a requirement is chosen twice")
        for r in self.requirements:
            if _blank(r.particulars):
                found.append(f"requirement ({r.number}) has no particulars")
        # R-NOV-2: abatement or restoration needs a deadline (and the sentence,
        # which the template prints whenever requirement (3) is chosen).
        if self.requires_abatement and self.remediation_deadline is None:
            found.append(
                "abatement or restoration (requirement (3)) is required but no "
                "remediation deadline is set (R-NOV-2)"
            )
        if self.remediation_deadline is not None and not self.requires_abatement:
            found.append(
                "a remediation deadline is set but abatement or restoration "
                "(requirement (3)) is not required"
            )
        found += _after_issue(
            self, self.remediation_deadline, "the remediation deadline"
        )
        if self.requires_fine and self.fine is None:
            found.append(
                "payment of a fine (requirement (5)) is required but no fine is proposed"
            )
        if self.fine is not None and not self.requires_fine:
            found.append("a fine is proposed but requirement (5) is not chosen")
        if self.fine is not None:
            tier = FINE_TIERS.get(self.fine.tier)
            if tier is None:
                found.append(f"offense tier {self.fine.tier} is not 1, 2 or 3")
            elif not (tier[1] <= self.fine.amount <= tier[2]) or self.fine.amount <= 0:
                found.append(
                    f"a fine of ${self.fine.amount} is outside the range of offense "
                    f"tier {self.fine.tier} ({tier[0]}: ${tier[1]}–${tier[2]})"
                )
        # R-APL-1: the right to appeal, the exact last day, where and how to file.
        if self.last_day_to_appeal is None:
            found.append("the last day to appeal (R-APL-1) is missing")
        elif isinstance(self.issued_on, dt.date) and not (
            self.last_day_to_appeal > self.issued_on
        ):
            found.append("the last day to appeal is not after the date of issue")
        if _blank(self.appeal_deadline_explanation):
            found.append("the explanation of the last day to appeal is missing")
        if _blank(self.appeal_filing_office):
            found.append("where to file an appeal is missing")
        return found

    def extra_context(self, cite: dict) -> dict:
        return {
            "requirements": [
                {
                    "number": r.number,
                    "particulars": r.particulars,
                    "citation": cite.get(requirement_rule_id(r.number)),
                }
                for r in sorted(self.requirements, key=lambda r: r.number)
            ],
            "fine_citation": cite.get(self.fine.rule_id) if self.fine else None,
            "violations": [cite[r] for r in self.violation_rule_ids if r in cite],
        }


# --- suspension and termination of MS4 access (R-SUS-1, R-SUS-2) ----------------


@dataclass(frozen=True, kw_only=True)
class EmergencySuspensionFacts(DocumentFacts):
    """Written notice of the reasons for an emergency suspension, § 132-9 A
    (R-SUS-1), sent within a reasonable time after the suspension."""

    kind: ClassVar[str] = DocumentKind.EMERGENCY_SUSPENSION
    template: ClassVar[str] = "documents/emergency_suspension.html"
    rule_id: ClassVar[str] = "R-SUS-1"
    base_rules: ClassVar[tuple[str, ...]] = ("R-SUS-1",)

    premises_address: str
    suspended_at: dt.datetime
    reasons: str
    actions_required: str = ""

    def problems(self) -> list[str]:
        found = super().problems()
        if _blank(self.premises_address):
            found.append("the premises address is missing")
        if _blank(self.reasons):
            found.append("the reasons for the suspension are missing (R-SUS-1)")
        if isinstance(self.suspended_at, dt.datetime):
            # The written notice follows the suspension (R-SUS-1).
            if (
                isinstance(self.issued_on, dt.date)
                and self.suspended_at.date() > self.issued_on
            ):
                found.append("the suspension is dated after the notice")
        else:
            found.append("the date and time of the suspension are missing")
        return found


@dataclass(frozen=True, kw_only=True)
class ProposedTerminationFacts(DocumentFacts):
    """Written notice of the proposed termination of MS4 access and the reasons,
    § 132-9 B (R-SUS-2), with the right to petition for reconsideration."""

    kind: ClassVar[str] = DocumentKind.PROPOSED_TERMINATION
    template: ClassVar[str] = "documents/proposed_termination.html"
    rule_id: ClassVar[str] = "R-SUS-2"
    base_rules: ClassVar[tuple[str, ...]] = ("R-SUS-2",)

    premises_address: str
    reasons: str
    proposed_effective_on: dt.date | None = None
    petition_to: str  # where the petition for reconsideration goes (the SMO)

    def problems(self) -> list[str]:
        found = super().problems()
        if _blank(self.premises_address):
            found.append("the premises address is missing")
        if _blank(self.reasons):
            found.append(
                "the reasons for the proposed termination are missing (R-SUS-2)"
            )
        if _blank(self.petition_to):
            found.append("where to petition for reconsideration is missing")
        found += _after_issue(
            self, self.proposed_effective_on, "the proposed termination date"
        )
        return found


class PetitionOutcome(models.TextChoices):
    ACCESS_GRANTED = "access_granted", "Access granted"
    ACCESS_DENIED = "access_denied", "Access denied"


@dataclass(frozen=True, kw_only=True)
class TerminationDecisionFacts(DocumentFacts):
    """The SMO's written decision on a petition for reconsideration, § 132-9 B
    (R-SUS-2): access granted (the discharge ceased and steps were taken against
    recurrence) or denied in writing (not ceased, or likely to recur)."""

    kind: ClassVar[str] = DocumentKind.TERMINATION_DECISION
    template: ClassVar[str] = "documents/termination_decision.html"
    rule_id: ClassVar[str] = "R-SUS-2"
    base_rules: ClassVar[tuple[str, ...]] = ("R-SUS-2",)

    premises_address: str
    proposed_notice_number: str
    proposed_notice_issued_on: dt.date
    petition_received_on: dt.date
    hearing_held_on: dt.date | None = None
    outcome: str  # PetitionOutcome
    determination: str

    def problems(self) -> list[str]:
        found = super().problems()
        if self.outcome not in PetitionOutcome.values:
            found.append("the outcome is not 'access granted' or 'access denied'")
        if _blank(self.determination):
            found.append("the written determination is missing (R-SUS-2)")
        if _blank(self.proposed_notice_number):
            found.append("the notice of proposed termination is not identified")
        return found

    @property
    def outcome_label(self) -> str:
        return PetitionOutcome(self.outcome).label


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
    violation and/or restore the property, § 132-15 A (R-COR-1)."""

    kind: ClassVar[str] = DocumentKind.ACCESS_REQUEST
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

    def problems(self) -> list[str]:
        found = super().problems()
        if self.basis not in AccessRequestBasis.values:
            found.append("the basis of the request is not known")
        if (
            self.basis == AccessRequestBasis.APPEAL_UPHELD
            and self.appeal_decided_on is None
        ):
            found.append(
                "the date of the Board's decision upholding the SMO is missing"
            )
        if _blank(self.measures):
            found.append("the measures to abate or restore are missing")
        if _blank(self.notice_number):
            found.append("the notice of violation is not identified")
        found += _after_issue(self, self.reply_by, "the reply date")
        return found

    @property
    def basis_label(self) -> str:
        return AccessRequestBasis(self.basis).label


@dataclass(frozen=True, kw_only=True)
class InvoiceLine:
    description: str
    amount: Decimal
    performed_on: dt.date | None = None


@dataclass(frozen=True, kw_only=True)
class CorrectiveInvoiceFacts(DocumentFacts):
    """Invoice for the cost of corrective measures, the discharger's sole
    responsibility (§ 132-15 B, R-COR-2; § 132-13 A, R-NOV-2)."""

    kind: ClassVar[str] = DocumentKind.CORRECTIVE_INVOICE
    template: ClassVar[str] = "documents/corrective_invoice.html"
    rule_id: ClassVar[str] = "R-COR-2"
    base_rules: ClassVar[tuple[str, ...]] = ("R-COR-2", "R-NOV-2")

    premises_address: str
    authority: str  # the court order or missed NOV deadline the work was done under
    lines: tuple[InvoiceLine, ...]
    total: Decimal
    payment_due_on: dt.date | None = None
    payment_instructions: str

    def problems(self) -> list[str]:
        found = super().problems()
        if not self.lines:
            found.append("the invoice has no lines")
        for line in self.lines:
            if _blank(line.description):
                found.append("an invoice line has no description")
            if line.amount <= 0:
                found.append(
                    f"an invoice line of ${line.amount} is not a positive amount"
                )
        if sum((line.amount for line in self.lines), Decimal("0")) != self.total:
            found.append("the total is not the sum of the lines")
        if _blank(self.authority):
            found.append("the authority for the work is missing")
        if _blank(self.payment_instructions):
            found.append("how to pay is missing")
        found += _after_issue(self, self.payment_due_on, "the payment date")
        return found


# --- appeal decision (R-APL-3) -----------------------------------------------------


class AppealOutcome(models.TextChoices):
    UPHELD = "upheld", "The determination of the SMO is upheld"
    MODIFIED = "modified", "The determination of the SMO is modified"
    REVERSED = "reversed", "The determination of the SMO is reversed"


@dataclass(frozen=True, kw_only=True)
class AppealDecisionFacts(DocumentFacts):
    """The Board of Trustees' decision on an appeal of a notice of violation,
    filed with the municipal clerk and mailed by certified mail within five days of
    the decision (§ 132-14, R-APL-3)."""

    kind: ClassVar[str] = DocumentKind.APPEAL_DECISION
    template: ClassVar[str] = "documents/appeal_decision.html"
    rule_id: ClassVar[str] = "R-APL-3"

    notice_number: str
    notice_issued_on: dt.date
    appeal_filed_on: dt.date
    hearing_held_on: dt.date
    decided_on: dt.date
    outcome: str  # AppealOutcome
    decision: str
    certified_mail_article: str = ""

    def relied_on(self) -> tuple[str, ...]:
        rules = ["R-APL-1", "R-APL-2", "R-APL-3"]
        if self.outcome in (AppealOutcome.UPHELD, AppealOutcome.MODIFIED):
            rules.append("R-COR-1")
        return tuple(rules)

    def problems(self) -> list[str]:
        found = super().problems()
        if self.outcome not in AppealOutcome.values:
            found.append("the outcome is not upheld, modified or reversed")
        if _blank(self.decision):
            found.append("the text of the decision is missing")
        if _blank(self.notice_number):
            found.append("the notice of violation appealed is not identified")
        dates = [self.appeal_filed_on, self.hearing_held_on, self.decided_on]
        if all(isinstance(d, dt.date) for d in dates) and dates != sorted(dates):
            found.append("the filing, hearing and decision dates are out of order")
        found += (
            ["the decision is dated after this document"]
            if isinstance(self.decided_on, dt.date)
            and isinstance(self.issued_on, dt.date)
            and self.decided_on > self.issued_on
            else []
        )
        return found

    @property
    def outcome_label(self) -> str:
        return AppealOutcome(self.outcome).label


# --- inspection and warrant (R-ACC-1, R-ACC-3, R-ACC-4) --------------------------


class AccessOutcome(models.TextChoices):
    GRANTED = "granted", "Access granted"
    DELAYED = "delayed", "Access delayed"
    REFUSED = "refused", "Access refused"


@dataclass(frozen=True, kw_only=True)
class InspectionReportFacts(DocumentFacts):
    """Report of an inspection under § 132-11 B (R-ACC-1)."""

    kind: ClassVar[str] = DocumentKind.INSPECTION_REPORT
    template: ClassVar[str] = "documents/inspection_report.html"
    rule_id: ClassVar[str] = "R-ACC-1"

    premises_address: str
    inspected_at: dt.datetime
    inspector: str
    access_outcome: str  # AccessOutcome
    observations: str
    samples: tuple[str, ...] = ()
    findings: str = ""
    follow_up: str = ""

    def relied_on(self) -> tuple[str, ...]:
        if self.access_outcome in (AccessOutcome.DELAYED, AccessOutcome.REFUSED):
            return ("R-ACC-1", "R-ACC-3")
        return ("R-ACC-1",)

    def problems(self) -> list[str]:
        found = super().problems()
        if self.access_outcome not in AccessOutcome.values:
            found.append("the access outcome is not granted, delayed or refused")
        if _blank(self.inspector):
            found.append("the inspector is missing")
        if _blank(self.observations):
            found.append("the observations are missing")
        if _blank(self.premises_address):
            found.append("the premises address is missing")
        return found

    @property
    def access_outcome_label(self) -> str:
        return AccessOutcome(self.access_outcome).label


class WarrantGround(models.TextChoices):
    SUSPECTED_VIOLATION = (
        "suspected_violation",
        "Probable cause to believe that there may be a violation of the article",
    )
    ROUTINE_PROGRAM = (
        "routine_program",
        "A need to inspect and/or sample as part of a routine inspection and "
        "sampling program designed to verify compliance",
    )


@dataclass(frozen=True, kw_only=True)
class WarrantCoverSheetFacts(DocumentFacts):
    """Cover sheet of the SMO's application for a search warrant after access was
    refused, § 132-11 B(6) (R-ACC-4). The recipient is the court."""

    kind: ClassVar[str] = DocumentKind.WARRANT_COVER_SHEET
    template: ClassVar[str] = "documents/warrant_cover_sheet.html"
    rule_id: ClassVar[str] = "R-ACC-4"
    base_rules: ClassVar[tuple[str, ...]] = ("R-ACC-4", "R-ACC-1", "R-ACC-3")

    premises_address: str
    applicant: str
    access_refused_on: dt.date
    refused_by: str
    ground: str  # WarrantGround
    probable_cause: str
    attachments: tuple[str, ...] = ()

    def problems(self) -> list[str]:
        found = super().problems()
        if self.ground not in WarrantGround.values:
            found.append("the ground for the warrant is not known")
        if _blank(self.probable_cause):
            found.append("the statement of probable cause is missing (R-ACC-4)")
        if _blank(self.applicant):
            found.append("the applicant is missing")
        if (
            isinstance(self.access_refused_on, dt.date)
            and isinstance(self.issued_on, dt.date)
            and self.access_refused_on > self.issued_on
        ):
            found.append("access is recorded as refused after the application date")
        return found

    @property
    def ground_label(self) -> str:
        return WarrantGround(self.ground).label


FACTS_BY_KIND: dict[str, type[DocumentFacts]] = {
    cls.kind: cls
    for cls in (
        NoticeOfViolationFacts,
        EmergencySuspensionFacts,
        ProposedTerminationFacts,
        TerminationDecisionFacts,
        AccessRequestFacts,
        AppealDecisionFacts,
        CorrectiveInvoiceFacts,
        InspectionReportFacts,
        WarrantCoverSheetFacts,
    )
}


def validate_facts(kind: str, facts: DocumentFacts) -> DocumentFacts:
    """Refuse (FactsInvalid) facts of the wrong type or that make an unlawful or
    incomplete document; return them unchanged otherwise."""
    cls = FACTS_BY_KIND.get(kind)
    if cls is None:
        raise FactsInvalid(kind, [f"unknown document kind {kind!r}"])
    if not isinstance(facts, cls):
        raise FactsInvalid(
            kind, [f"expected {cls.__name__}, got {type(facts).__name__}"]
        )
    problems = facts.problems()
    if problems:
        raise FactsInvalid(kind, problems)
    return facts


# --- JSON (the frozen copy on the IssuedDocument row) ------------------------------


def facts_to_json(facts: DocumentFacts) -> dict:
    """The facts as JSON-safe data: dates ISO, amounts as strings."""

    def convert(value):
        if dataclasses.is_dataclass(value):
            return {
                f.name: convert(getattr(value, f.name))
                for f in dataclasses.fields(value)
            }
        if isinstance(value, tuple | list):
            return [convert(v) for v in value]
        if isinstance(value, dt.date | dt.datetime):
            return value.isoformat()
        if isinstance(value, Decimal):
            return str(value)
        if isinstance(value, models.Choices):
            return value.value
        return value

    return convert(facts)


def facts_from_json(kind: str, data: dict) -> DocumentFacts:
    """Rebuild the contract of `kind` from facts_to_json's output (e.g. to start
    a correction from the issued facts)."""
    return _from_json(FACTS_BY_KIND[kind], data)


def _from_json(tp, value):
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        return None if value is None else _from_json(args[0], value)
    if origin is tuple:
        inner = typing.get_args(tp)[0]
        return tuple(_from_json(inner, v) for v in value)
    if dataclasses.is_dataclass(tp):
        hints = typing.get_type_hints(tp)
        return tp(
            **{
                f.name: _from_json(hints[f.name], value[f.name])
                for f in dataclasses.fields(tp)
                if f.name in value
            }
        )
    if tp is dt.datetime:
        return dt.datetime.fromisoformat(value)
    if tp is dt.date:
        return dt.date.fromisoformat(value)
    if tp is Decimal:
        try:
            return Decimal(value)
        except InvalidOperation:
            raise ValueError(f"not an amount: {value!r}") from None
    return value
