"""The documents of enforcement, owned here: the facts (contracts) of each
letter with the legal checks the ordinance imposes on it, the builders that make
them from a record (a notice, an appeal, a corrective measure, a suspension, a
termination), and sample facts for the template preview; all registered with
the one registry of cases.documents (cases.documents.registry), keyed by kind.

Builders read what is stored: the recipient frozen at issue, the requirements
and their particulars, the stored deadlines (R-APL-1, R-NOV-1, R-NOV-2,
R-COR-1) — never date arithmetic. A draft notice has no stored deadline yet: its preview asks the
deadline engine (compute_due) what the R-APL-1 date would be if issued today.

Imported (so registered) by EnforcementConfig.ready(). Documents are issued
through cases.documents.services.issue_for; the notice of violation is issued
by enforcement.services.notices.notice_issue in the same transaction as the
notice (notice_document_issue)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal
from typing import ClassVar

from django.conf import settings
from django.db import models
from django.utils import timezone

from cases.citations import citation
from cases.deadlines.services import compute_due, office_calendar, open_deadline_for
from cases.deadlines.words import legal_basis, people_explanation
from cases.documents.contracts import (
    Contact,
    DocumentFacts,
    DocumentKind,
    FactsInvalid,
    Recipient,
    Signatory,
    after_issue,
    blank,
    clerk_office,
    how_to_pay,
    village_contact,
)
from cases.documents.registry import register
from cases.documents.samples import SAMPLE_PREMISES, sample_common, sample_moment
from cases.documents.selectors import latest_document
from cases.documents.services import document_issue
from cases.models import IssuedDocument

from . import charges
from .penalties import Tier, ViolationStart, continued_violation_start, tier_numbered

SMO_TITLE = "Stormwater Management Officer"
# The Board's papers (notice of hearing, decision, agenda) are signed once by the
# clerk for the Board: the title does not name the clerk again (issue 26).
CLERK_TITLE = "For the Board of Trustees"


# --- notice of violation (R-NOV-1, R-NOV-2, R-PEN-1..3, R-APL-1) -----------------

# § 132-13 A(1)–(6): each has its own row in the citation table (migration
# cases/0005), so the words printed for a requirement are data staff can read.
NOV_REQUIREMENT_NUMBERS = (1, 2, 3, 4, 5, 6)
ELIMINATION_REQUIREMENT = 1  # elimination of illicit connections or discharges
CEASE_DESIST_REQUIREMENT = 2  # takes effect on the date of the notice
ABATEMENT_REQUIREMENT = 3  # abatement/remediation and restoration → R-NOV-2
FINE_REQUIREMENT = 5  # payment of a fine → fine and tier
# The requirements that may carry their own compliance date (R-NOV-1), as
# enforcement.models.REQUIREMENTS_WITH_DAYS: (1), (4), (6).
DATED_REQUIREMENTS = (1, 4, 6)
# § 132-15 A: the Village's access is "to take any and all measures reasonably
# necessary to abate the violation and/or restore the property": eliminating
# the illicit connection or discharge (1) and abating/restoring (3). Never the
# order to cease and desist, monitoring, the fine or BMPs, which only the
# violator can do.
ABATE_OR_RESTORE_REQUIREMENTS = (ELIMINATION_REQUIREMENT, ABATEMENT_REQUIREMENT)


def requirement_rule_id(number: int) -> str:
    return f"R-NOV-1({number})"


@dataclass(frozen=True, kw_only=True)
class Requirement:
    """One requirement of § 132-13 A(1)–(6) chosen for the notice, with what the
    person must do under it. The printed words of (n) come from the citation
    table (row R-NOV-1(n))."""

    number: int
    particulars: str
    # The requirement's own compliance date (R-NOV-1), stored at issue, with
    # how the deadline engine computed it: (1), (4), (6) only.
    comply_by: dt.date | None = None
    comply_by_explanation: str = ""


@dataclass(frozen=True, kw_only=True)
class Fine:
    """The fine proposed (§ 132-13 A(5)) and the offense tier of § 132-13 B."""

    amount: Decimal
    tier: int  # 1 first offense (R-PEN-1), 2 second (R-PEN-2), 3 third+ (R-PEN-3)
    # To whom, by when and how it is paid (issue 27): the fine's charge on the
    # ledger is due on the notice's last day to appeal (R-APL-1; the law sets no
    # period for paying), where and how from settings.VILLAGE.
    payable_to: str = ""
    due_on: dt.date | None = None
    how_to_pay: str = ""

    @property
    def offense_tier(self) -> Tier | None:
        """The tier of enforcement.penalties (None for a number that is none)."""
        return tier_numbered(self.tier)

    @property
    def rule_id(self) -> str:
        return self.offense_tier.rule_id


@dataclass(frozen=True, kw_only=True)
class NoticeOfViolationFacts(DocumentFacts):
    """Notice of violation, § 132-13 A (R-NOV-1). `document_number` is the notice
    number. `last_day_to_appeal` and its explanation are the stored R-APL-1
    deadline of the notice (cases.deadlines.services.open_deadline_for)."""

    kind: ClassVar[str] = DocumentKind.NOTICE_OF_VIOLATION
    template: ClassVar[str] = "documents/notice_of_violation.html"
    rule_id: ClassVar[str] = "R-NOV-1"
    invites_appeal: ClassVar[bool] = True  # the one appeal of § 132-14 (R-APL-1)

    premises_address: str
    # The prohibitions violated (e.g. R-PRO-1), from prohibitions_violated(case).
    violation_rule_ids: tuple[str, ...] = ()
    violation_date: dt.date | None = None  # the date the violation was committed
    finding: str
    requirements: tuple[Requirement, ...]
    remediation_deadline: dt.date | None = None
    remediation_deadline_explanation: str = ""
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

    @property
    def continued_violation_from(self) -> ViolationStart | None:
        """Where the weeks of continued violation count from (R-PEN-4), from
        the dates this notice prints (enforcement.penalties, the one rule)."""
        from .models import RequirementKind

        kinds = RequirementKind.values
        return continued_violation_start(
            issued_on=self.issued_on if isinstance(self.issued_on, dt.date) else None,
            compliance_dates=[self.remediation_deadline]
            + [r.comply_by for r in self.requirements],
            requirement_kinds=[
                kinds[r.number - 1]
                for r in self.requirements
                if r.number in NOV_REQUIREMENT_NUMBERS
            ],
        )

    def dates_before_last_day_to_appeal(self) -> list[tuple[int, dt.date]]:
        """The compliance dates this notice prints that come before its last day
        to appeal (R-NOV-2 for (3), R-NOV-1 for (1), (4), (6)), as (requirement
        number, date), earliest first: until the appeal is over, the respondent
        cannot be held to them (§ 132-14, § 132-15 A)."""
        if not isinstance(self.last_day_to_appeal, dt.date):
            return []
        dates = [(r.number, r.comply_by) for r in self.requirements if r.comply_by]
        if self.remediation_deadline is not None:
            dates.append((ABATEMENT_REQUIREMENT, self.remediation_deadline))
        return sorted(
            ((n, d) for n, d in dates if d < self.last_day_to_appeal),
            key=lambda pair: (pair[1], pair[0]),
        )

    def relied_on(self) -> tuple[str, ...]:
        rules = ["R-NOV-1", *self.violation_rule_ids]
        rules += [requirement_rule_id(r.number) for r in self.requirements]
        if self.requires_abatement:
            rules.append("R-NOV-2")
        rules.append("R-PEN-1")  # the penalties paragraph of § 132-13 B
        if self.fine is not None and self.fine.offense_tier is not None:
            rules.append(self.fine.rule_id)
        if self.continued_violation_from is not None:
            rules.append("R-PEN-4")
        rules.append("R-APL-1")
        return tuple(dict.fromkeys(rules))

    def problems(self) -> list[str]:
        found = super().problems()
        if blank(self.premises_address):
            found.append("the premises address is missing")
        if not self.violation_rule_ids:
            found.append("the provision of the Village Code violated is not named")
        if blank(self.finding):
            found.append("the finding of the Stormwater Management Officer is missing")
        if not isinstance(self.violation_date, dt.date):
            found.append("the date of the violation is missing")
        elif (
            isinstance(self.issued_on, dt.date) and self.violation_date > self.issued_on
        ):
            found.append("the violation is dated after the notice")
        numbers = [r.number for r in self.requirements]
        if not numbers:
            found.append(
                f"no requirement of {citation('R-NOV-1').section}(1)–(6) is chosen"
            )
        for number in numbers:
            if number not in NOV_REQUIREMENT_NUMBERS:
                found.append(f"requirement ({number}) is not one of (1)–(6)")
        if len(set(numbers)) != len(numbers):
            found.append("a requirement is chosen twice")
        for r in self.requirements:
            if blank(r.particulars):
                found.append(f"requirement ({r.number}) has no particulars")
            if r.comply_by is None:
                continue
            if r.number not in DATED_REQUIREMENTS:
                found.append(
                    f"requirement ({r.number}) takes no compliance date of its own"
                )
            if blank(r.comply_by_explanation):
                found.append(
                    f"the explanation of the compliance date of requirement "
                    f"({r.number}) is missing"
                )
            found += after_issue(
                self, r.comply_by, f"the compliance date of requirement ({r.number})"
            )
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
        found += after_issue(
            self, self.remediation_deadline, "the remediation deadline"
        )
        if self.remediation_deadline is not None and blank(
            self.remediation_deadline_explanation
        ):
            found.append("the explanation of the remediation deadline is missing")
        if self.requires_fine and self.fine is None:
            found.append(
                "payment of a fine (requirement (5)) is required but no fine is proposed"
            )
        if self.fine is not None and not self.requires_fine:
            found.append("a fine is proposed but requirement (5) is not chosen")
        if self.fine is not None:
            tier = self.fine.offense_tier
            if tier is None:
                found.append(f"offense tier {self.fine.tier} is not 1, 2 or 3")
            elif not tier.allows(self.fine.amount):
                found.append(
                    f"a fine of ${self.fine.amount} is outside the range of offense "
                    f"tier {tier.number} ({tier.rule_id}: ${tier.minimum}–${tier.maximum})"
                )
        # R-APL-1: the right to appeal, the exact last day, where and how to file.
        if self.last_day_to_appeal is None:
            found.append("the last day to appeal (R-APL-1) is missing")
        elif isinstance(self.issued_on, dt.date) and not (
            self.last_day_to_appeal > self.issued_on
        ):
            found.append("the last day to appeal is not after the date of issue")
        if blank(self.appeal_deadline_explanation):
            found.append("the explanation of the last day to appeal is missing")
        if blank(self.appeal_filing_office):
            found.append("where to file an appeal is missing")
        return found

    def extra_context(self, cite: dict) -> dict:
        return {
            "requirements": [
                {
                    "number": r.number,
                    "particulars": r.particulars,
                    "citation": cite.get(requirement_rule_id(r.number)),
                    "comply_by": r.comply_by,
                    "comply_by_explanation": r.comply_by_explanation,
                }
                for r in sorted(self.requirements, key=lambda r: r.number)
            ],
            # The quiet line under each date: the law in words (issue 26).
            "basis": {
                "appeal": legal_basis("R-APL-1"),
                "remediation": legal_basis("R-NOV-2"),
                "compliance": legal_basis("R-NOV-1"),
            },
            "continued_from": self.continued_violation_from,
            "fine_citation": cite.get(self.fine.rule_id) if self.fine else None,
            "fine_tier": self.fine.offense_tier if self.fine else None,
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
        if blank(self.premises_address):
            found.append("the premises address is missing")
        if blank(self.reasons):
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
        if blank(self.premises_address):
            found.append("the premises address is missing")
        if blank(self.reasons):
            found.append(
                "the reasons for the proposed termination are missing (R-SUS-2)"
            )
        if blank(self.petition_to):
            found.append("where to petition for reconsideration is missing")
        found += after_issue(
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
        if blank(self.determination):
            found.append("the written determination is missing (R-SUS-2)")
        if blank(self.proposed_notice_number):
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
    violation and/or restore the property, § 132-15 A (R-COR-1): addressed to
    the owner (`recipient`), with a copy to the notice's recipient when another
    person (`copy_to`, the cc line)."""

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


# --- appeal decision (R-APL-3) -----------------------------------------------------


class AppealOutcome(models.TextChoices):
    UPHELD = "upheld", "Upheld"
    MODIFIED = "modified", "Modified"
    REVERSED = "reversed", "Reversed"


# What the decision letter says the Board did, in a sentence (issue 25).
OUTCOME_WORDS = {
    AppealOutcome.UPHELD: "The Board of Trustees upheld the Stormwater Management "
    "Officer's determination.",
    AppealOutcome.MODIFIED: "The Board of Trustees modified the Stormwater "
    "Management Officer's determination.",
    AppealOutcome.REVERSED: "The Board of Trustees reversed the Stormwater "
    "Management Officer's determination.",
}


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
    # The facts as recorded when the letter is issued: the filing with the
    # municipal clerk and the certified mailing (R-APL-3) only once recorded.
    filed_with_clerk_on: dt.date | None = None
    mailed_on: dt.date | None = None
    # Upheld: the due date of the notice's stored R-COR-1 deadline, as the
    # deadline engine stored it (§ 132-15 A), when there is one. Its
    # explanation is the engine's (rule ids, "GCL §" shorthand): the office's, not
    # the letter's.
    correction_due_on: dt.date | None = None
    # Modified (§ 132-14): what the Board modified, and the notice superseding
    # the one appealed once the SMO has issued it (its requirements stand).
    modification: str = ""
    superseding_notice_number: str = ""
    superseding_notice_issued_on: dt.date | None = None

    @property
    def upholds(self) -> bool:
        return self.outcome == AppealOutcome.UPHELD

    @property
    def modifies(self) -> bool:
        return self.outcome == AppealOutcome.MODIFIED

    def relied_on(self) -> tuple[str, ...]:
        rules = ["R-APL-1", "R-APL-2", "R-APL-3"]
        if self.upholds:  # R-COR-1 runs from a decision upholding the SMO only
            # ... and the weeks of continued violation count from its date.
            rules += ["R-COR-1", "R-PEN-4"]
        return tuple(rules)

    def problems(self) -> list[str]:
        found = super().problems()
        if self.outcome not in AppealOutcome.values:
            found.append("the outcome is not upheld, modified or reversed")
        if blank(self.decision):
            found.append("the text of the decision is missing")
        if blank(self.notice_number):
            found.append("the notice of violation appealed is not identified")
        if self.upholds:
            if (
                isinstance(self.correction_due_on, dt.date)
                and isinstance(self.decided_on, dt.date)
                and not (self.correction_due_on > self.decided_on)
            ):
                found.append("the last day to correct is not after the decision")
        elif self.correction_due_on is not None:
            found.append(
                "a last day to correct (R-COR-1) is given only for a decision "
                "upholding the SMO"
            )
        if self.modifies and blank(self.modification):
            found.append("what the Board modified is missing")
        if self.superseding_notice_number and not self.modifies:
            found.append("a superseding notice is named for a decision not modified")
        for day, what in (
            (self.filed_with_clerk_on, "the filing with the municipal clerk"),
            (self.mailed_on, "the certified mailing"),
        ):
            if (
                isinstance(day, dt.date)
                and isinstance(self.decided_on, dt.date)
                and day < self.decided_on
            ):
                found.append(f"{what} is dated before the decision")
            if (
                isinstance(day, dt.date)
                and isinstance(self.issued_on, dt.date)
                and day > self.issued_on
            ):
                found.append(f"{what} is dated after this document")
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
    def outcome_words(self) -> str:
        return OUTCOME_WORDS[AppealOutcome(self.outcome)]


# --- sample facts (the template preview, the demo and tests) --------------------
# The dates are examples typed by hand: a real document gets its dates from the
# stored deadlines.


def sample_notice_of_violation(**changes) -> NoticeOfViolationFacts:
    facts = {
        **sample_common(number="NOV-2026-0001"),
        "premises_address": SAMPLE_PREMISES,
        "violation_rule_ids": ("R-PRO-1",),
        "violation_date": dt.date(2026, 2, 24),
        "finding": "On February 24, 2026 the SMO observed grey wash water flowing "
        "from a pipe at the rear of the premises into the catch basin on Sample Lane.",
        "requirements": (
            Requirement(
                number=2, particulars="Stop discharging wash water to the street."
            ),
            Requirement(
                number=3,
                particulars="Clean the catch basin and the gutter of sediment and suds.",
            ),
            Requirement(number=5, particulars="Pay the fine to the Village Clerk."),
        ),
        "remediation_deadline": dt.date(2026, 3, 16),
        "remediation_deadline_explanation": "Counted 14 days from the notice "
        "date, Monday, March 2, 2026; the last day is Monday, March 16, 2026.",
        "fine": Fine(
            amount=Decimal("250.00"),
            tier=1,
            payable_to="Incorporated Village of Poquott",
            due_on=dt.date(2026, 3, 17),
            how_to_pay=how_to_pay("NOV-1"),
        ),
        "last_day_to_appeal": dt.date(2026, 3, 17),
        "appeal_deadline_explanation": "Counted 15 days from the notice date, "
        "Monday, March 2, 2026; the last day is Tuesday, March 17, 2026.",
        "appeal_filing_office": clerk_office(),
    }
    facts.update(changes)
    return NoticeOfViolationFacts(**facts)


def sample_emergency_suspension() -> EmergencySuspensionFacts:
    return EmergencySuspensionFacts(
        **sample_common(number="SUS-2026-0001"),
        premises_address=SAMPLE_PREMISES,
        suspended_at=sample_moment(),
        reasons="Heating oil was discharging from a basement drain to the MS4.",
        actions_required="Keep the drain plugged until the SMO approves reconnection.",
    )


def sample_proposed_termination() -> ProposedTerminationFacts:
    return ProposedTerminationFacts(
        **sample_common(number="TRM-2026-0001"),
        premises_address=SAMPLE_PREMISES,
        reasons="A laundry drain remains connected to the storm sewer.",
        proposed_effective_on=dt.date(2026, 3, 20),
        petition_to=f"{village_contact().name}, {clerk_office()}",
    )


def sample_termination_decision() -> TerminationDecisionFacts:
    return TerminationDecisionFacts(
        **sample_common(number="TRD-2026-0001"),
        premises_address=SAMPLE_PREMISES,
        proposed_notice_number="TRM-2026-0001",
        proposed_notice_issued_on=dt.date(2026, 2, 2),
        petition_received_on=dt.date(2026, 2, 9),
        hearing_held_on=dt.date(2026, 2, 20),
        outcome=PetitionOutcome.ACCESS_DENIED,
        determination="The illicit discharge has not ceased: dye testing on "
        "February 19 showed the laundry drain still reaching the catch basin.",
    )


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


def sample_appeal_decision() -> AppealDecisionFacts:
    return AppealDecisionFacts(
        **sample_common(
            number="APL-2026-0001",
            signatory=Signatory(name="Casey Clerk", title=CLERK_TITLE),
            contact=Contact(name="Village Clerk", phone="(631) 476-4043"),
        ),
        notice_number="NOV-2026-0001",
        notice_issued_on=dt.date(2026, 1, 5),
        appeal_filed_on=dt.date(2026, 1, 15),
        hearing_held_on=dt.date(2026, 2, 10),
        decided_on=dt.date(2026, 2, 26),
        outcome=AppealOutcome.UPHELD,
        decision="The Board finds that the discharge was wash water, not exempt.",
        certified_mail_article="9407 1000 0000 0000 0000 00",
        filed_with_clerk_on=dt.date(2026, 2, 27),
        mailed_on=dt.date(2026, 2, 27),
        correction_due_on=dt.date(2026, 3, 5),
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


# --- shared ------------------------------------------------------------------


def _lines(address: str) -> tuple[str, ...]:
    return tuple(line.strip() for line in (address or "").splitlines() if line.strip())


def _recipient(name: str, address: str) -> Recipient:
    return Recipient(name=name or "", address_lines=_lines(address))


def _person(user) -> str:
    if user is None:
        return ""
    return user.get_full_name() or user.get_username()


def _smo(user) -> Signatory:
    return Signatory(name=_person(user) or village_contact().name, title=SMO_TITLE)


def _premises(case, premises=None) -> str:
    return str(premises or case.premises or case.location_description or "")


def _today():
    return timezone.localdate()


def clerk_signatory() -> Signatory:
    """The signature block of the Board's papers: the Village Clerk, for the Board."""
    return Signatory(name="Village Clerk", title=CLERK_TITLE)


def _common(case, number, issued_on, recipient, signatory, contact=None) -> dict:
    return {
        "case_number": case.number,
        "document_number": number,
        "issued_on": issued_on,
        "recipient": recipient,
        "contact": contact or village_contact(),
        "signatory": signatory,
    }


# --- notice of violation (R-NOV-1, R-NOV-2, R-PEN-1..3, R-APL-1) ----------------


def notice_number(notice) -> str:
    return f"NOV-{notice.pk}"


@register(
    DocumentKind.NOTICE_OF_VIOLATION,
    facts=NoticeOfViolationFacts,
    source="enforcement.noticeofviolation",
    sample=sample_notice_of_violation,
)
def notice_contract(notice) -> NoticeOfViolationFacts:
    """The notice as printed. Issued: the frozen recipient and the stored
    R-APL-1 / R-NOV-2 / R-NOV-1 deadlines (with their explanations). Draft
    (preview): the party's current details and the engine's dates for an issue
    today; the fine tier as it would be computed."""
    from .models import NoticeStatus, RequirementKind
    from .penalties import tier_for_party

    requirements = sorted(notice.requirements.all(), key=lambda r: r.number)
    kinds = {r.kind for r in requirements}
    issued = notice.status != NoticeStatus.DRAFT
    case = notice.case
    if issued:
        issued_on = notice.issued_on
        recipient = _recipient(notice.recipient_name, notice.recipient_address)
        # The stored deadlines, explained in the person's words (issue 26):
        # the stored explanation is the office's (rule ids, "GCL §" shorthand).
        calendar = office_calendar()
        appeal = open_deadline_for(notice, "R-APL-1")
        if appeal is None:  # complied/withdrawn later: the stored date, not open
            appeal = notice.deadlines().filter(rule_id="R-APL-1").order_by("-id")
            appeal = appeal.first()
        last_day, explanation = None, ""
        if appeal is not None:
            last_day = appeal.due_date
            explanation = appeal.explained_to_people(calendar)
        remediation = _stored(notice, "R-NOV-2")
        remediation_deadline = remediation.due_date if remediation else None
        remediation_explanation = (
            remediation.explained_to_people(calendar) if remediation else ""
        )
        dates = {}
        for r in requirements:
            if r.compliance_days:
                stored = _stored(notice, "R-NOV-1", r.kind)
                if stored is not None:
                    dates[r.kind] = (
                        stored.due_date,
                        stored.explained_to_people(calendar),
                    )
        tier = notice.fine_tier
        signatory = _smo(notice.issued_by)
    else:
        issued_on = _today()
        recipient = _recipient(notice.recipient.name, notice.recipient.mailing_address)
        calendar = office_calendar()

        def dated(rule_id, **params):
            computed = compute_due(rule_id, issued_on, calendar=calendar, **params)
            words = people_explanation(
                rule_id, issued_on, computed.due, calendar=calendar, params=params
            )
            return computed.due, words

        last_day, explanation = dated("R-APL-1")
        remediation_deadline, remediation_explanation = None, ""
        if notice.remediation_days:
            remediation_deadline, remediation_explanation = dated(
                "R-NOV-2", days=notice.remediation_days
            )
        dates = {}
        for r in requirements:
            if r.compliance_days:
                dates[r.kind] = dated("R-NOV-1", days=r.compliance_days)
        tier = None
        if RequirementKind.FINE in kinds:
            tier = tier_for_party(
                notice.recipient, notice.violation_date, exclude_case=case
            ).tier.number
        signatory = _smo(notice.created_by)
    fine = None
    if RequirementKind.FINE in kinds and notice.proposed_fine is not None:
        charge = charges.notice_charge(notice)
        fine = Fine(
            amount=notice.proposed_fine,
            tier=tier or 0,
            payable_to=settings.VILLAGE["payable_to"],
            due_on=charge.due_on if charge is not None else last_day,
            how_to_pay=how_to_pay(notice_number(notice)),
        )
    return NoticeOfViolationFacts(
        **_common(case, notice_number(notice), issued_on, recipient, signatory),
        premises_address=_premises(case),
        violation_rule_ids=prohibitions_violated(case),
        violation_date=notice.violation_date,
        finding=notice.findings,
        requirements=tuple(
            Requirement(
                number=r.number,
                particulars=r.particulars,
                comply_by=dates.get(r.kind, (None, ""))[0],
                comply_by_explanation=dates.get(r.kind, (None, ""))[1],
            )
            for r in requirements
        ),
        remediation_deadline=remediation_deadline,
        remediation_deadline_explanation=remediation_explanation,
        fine=fine,
        last_day_to_appeal=last_day,
        appeal_deadline_explanation=explanation,
        appeal_filing_office=clerk_office(),
    )


def _stored(notice, rule_id, purpose=""):
    """The notice's stored deadline of `rule_id` (and `purpose`): the open one,
    else the latest (met or waived later, the notice still printed it)."""
    found = open_deadline_for(notice, rule_id, purpose)
    if found is None:
        found = (
            notice.deadlines()
            .filter(rule_id=rule_id, purpose=purpose)
            .order_by("-id")
            .first()
        )
    return found


def prohibitions_violated(case) -> tuple[str, ...]:
    """The provisions of the Village Code the case's violation is of, from what
    the case records: its kind (cases.models.CaseKind, each with the rule it
    arises under — an illicit discharge R-PRO-1, an illicit connection R-CON-1,
    a contaminating activity R-ACT-1, a spill R-SPL-1, a delayed or refused
    access R-ACC-3, a permit non-compliance R-IND-1, an unauthorized
    reinstatement R-SUS-2). The notice prints each as a section relied on."""
    if not case.kind:
        return ()
    return (case.rule_id,)


def notice_document_issue(*, notice, actor) -> IssuedDocument:
    """Issue the notice's document (kind NOV) from the issued notice; a
    correction supersedes the document of the notice it corrects. Called inside
    notice_issue's transaction. Raises FactsInvalid, DocumentError,
    PermissionDenied (any of which rolls the notice back)."""
    supersedes = None
    if notice.supersedes_id:
        supersedes = latest_document(
            notice.supersedes, DocumentKind.NOTICE_OF_VIOLATION
        )
    return document_issue(
        kind=DocumentKind.NOTICE_OF_VIOLATION,
        facts=notice_contract(notice),
        case=notice.case,
        source=notice,
        actor=actor,
        supersedes=supersedes if supersedes and supersedes.is_issued else None,
    )


# --- the Board's decision on appeal (R-APL-3) ------------------------------------


@register(
    DocumentKind.APPEAL_DECISION,
    facts=AppealDecisionFacts,
    source="enforcement.appeal",
    sample=sample_appeal_decision,
    case_of=lambda appeal: appeal.notice.case,
)
def appeal_decision_contract(appeal) -> AppealDecisionFacts:
    """The decision letter once the Board has decided (status decided/closed),
    stating the facts as recorded: the filing with the municipal clerk and the
    certified mailing only once recorded (R-APL-3); upheld, the last day to
    correct as the notice's R-COR-1 deadline stores it (read, never computed
    here); modified, what the Board modified and, once issued, the notice whose
    requirements stand."""
    notice = appeal.notice
    hearing = (
        timezone.localtime(appeal.hearing_at).date() if appeal.hearing_at else None
    )
    problems = []
    if not appeal.decision or appeal.decided_on is None:
        problems.append("the Board has not decided this appeal yet")
    if hearing is None:
        problems.append("the hearing date is missing")
    if notice.issued_on is None:
        problems.append("the notice appealed has not been issued")
    if problems:
        raise FactsInvalid(DocumentKind.APPEAL_DECISION, problems)
    # § 132-15 A: the correction clock follows a decision upholding the SMO
    # only; its day is the deadline engine's (R-COR-1), stored on the notice.
    correction = _stored(notice, "R-COR-1") if appeal.upholds() else None
    superseding = appeal.superseding_notice()
    if superseding is not None and not superseding.is_frozen:
        superseding = None  # a draft: its requirements do not stand yet
    return AppealDecisionFacts(
        **_common(
            notice.case,
            f"APL-{appeal.pk}",
            max(_today(), appeal.decided_on),
            _recipient(appeal.appellant.name, appeal.appellant.mailing_address),
            clerk_signatory(),
            Contact(name="Village Clerk", phone=settings.VILLAGE["phone"]),
        ),
        notice_number=notice_number(notice),
        notice_issued_on=notice.issued_on,
        appeal_filed_on=appeal.filed_on,
        hearing_held_on=hearing,
        decided_on=appeal.decided_on,
        outcome=appeal.decision,
        decision=appeal.resolution,
        certified_mail_article=appeal.mail_article_number,
        filed_with_clerk_on=appeal.filed_with_clerk_on,
        mailed_on=appeal.mailed_on,
        correction_due_on=correction.due_date if correction else None,
        modification=appeal.modification if appeal.modifies() else "",
        superseding_notice_number=notice_number(superseding) if superseding else "",
        superseding_notice_issued_on=superseding.issued_on if superseding else None,
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
    DocumentKind.ACCESS_REQUEST,
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
    from .models import Decision

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
        raise FactsInvalid(DocumentKind.ACCESS_REQUEST, problems)
    copy = action.copy_to
    return AccessRequestFacts(
        **_common(
            action.case,
            f"ACC-{action.pk}",
            action.request_letter_on,
            _recipient(action.owner.name, action.owner.mailing_address),
            _smo(action.created_by),
        ),
        copy_to=(
            _recipient(
                notice.recipient_name or copy.name,
                notice.recipient_address or copy.mailing_address,
            )
            if copy is not None
            else None
        ),
        premises_address=_premises(action.case),
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
    from .models import CorrectiveAction

    prefix = "INV-CM" if isinstance(remedy, CorrectiveAction) else "INV-NA"
    return f"{prefix}-{remedy.pk}"


def _invoice_facts(remedy, *, authority, recipient, cost_rule_id):
    return CorrectiveInvoiceFacts(
        **_common(
            remedy.case,
            remedy.invoice_number or invoice_number(remedy),
            remedy.invoiced_on or _today(),
            recipient,
            _smo(remedy.created_by),
        ),
        premises_address=_premises(remedy.case),
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
    DocumentKind.CORRECTIVE_INVOICE,
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
        recipient=_recipient(notice.recipient_name, notice.recipient_address),
        cost_rule_id="R-COR-2",
    )


@register(
    DocumentKind.CORRECTIVE_INVOICE,
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
        raise FactsInvalid(DocumentKind.CORRECTIVE_INVOICE, problems)
    return _invoice_facts(
        abatement,
        authority=(
            f"Condition declared a nuisance on {abatement.declared_on:%B %-d, %Y} "
            f"and summarily abated: {abatement.condition_description}"
        ),
        recipient=_recipient(party.name, party.mailing_address),
        cost_rule_id="R-NUI-1",
    )


# --- suspension and termination of MS4 access (R-SUS-1, R-SUS-2) ----------------


@register(
    DocumentKind.EMERGENCY_SUSPENSION,
    facts=EmergencySuspensionFacts,
    source="enforcement.accesssuspension",
    sample=sample_emergency_suspension,
)
def suspension_contract(suspension) -> EmergencySuspensionFacts:
    """The written notice of the reasons for the emergency suspension (R-SUS-1),
    dated the day it was recorded as sent, else today."""
    return EmergencySuspensionFacts(
        **_common(
            suspension.case,
            f"SUS-{suspension.pk}",
            suspension.notice_sent_on or _today(),
            _recipient(suspension.party.name, suspension.party.mailing_address),
            _smo(suspension.created_by),
        ),
        premises_address=_premises(suspension.case, suspension.premises),
        suspended_at=suspension.suspended_at,
        reasons=suspension.reasons,
    )


@register(
    DocumentKind.PROPOSED_TERMINATION,
    facts=ProposedTerminationFacts,
    source="enforcement.accesstermination",
    sample=sample_proposed_termination,
)
def proposed_termination_contract(termination) -> ProposedTerminationFacts:
    """The written notice of the proposed termination and its reasons (R-SUS-2),
    dated the notice date the SMO recorded."""
    return ProposedTerminationFacts(
        **_common(
            termination.case,
            f"TRM-{termination.pk}",
            termination.notice_on,
            _recipient(termination.party.name, termination.party.mailing_address),
            _smo(termination.created_by),
        ),
        premises_address=_premises(termination.case, termination.premises),
        reasons=termination.reasons,
        petition_to=f"{village_contact().name}, {clerk_office()}",
    )


@register(
    DocumentKind.TERMINATION_DECISION,
    facts=TerminationDecisionFacts,
    source="enforcement.accesstermination",
    sample=sample_termination_decision,
)
def termination_decision_contract(termination) -> TerminationDecisionFacts:
    """The SMO's written grant or denial on the petition (R-SUS-2): only once
    access was granted again or denied."""
    from .models import TerminationStatus

    outcome = {
        TerminationStatus.REINSTATED: PetitionOutcome.ACCESS_GRANTED,
        TerminationStatus.DENIED: PetitionOutcome.ACCESS_DENIED,
    }.get(termination.status)
    problems = []
    if outcome is None:
        problems.append("the petition has not been decided (grant or deny) yet")
    if termination.petition_on is None:
        problems.append("no petition for reconsideration is recorded")
    if problems:
        raise FactsInvalid(DocumentKind.TERMINATION_DECISION, problems)
    hearing = termination.hearing_at
    return TerminationDecisionFacts(
        **_common(
            termination.case,
            f"TRD-{termination.pk}",
            termination.decided_on or _today(),
            _recipient(termination.party.name, termination.party.mailing_address),
            _smo(termination.created_by),
        ),
        premises_address=_premises(termination.case, termination.premises),
        proposed_notice_number=f"TRM-{termination.pk}",
        proposed_notice_issued_on=termination.notice_on,
        petition_received_on=termination.petition_on,
        hearing_held_on=timezone.localtime(hearing).date() if hearing else None,
        outcome=outcome,
        determination=termination.determination,
    )
