"""The notice of violation (§ 132-13, R-NOV-1, R-NOV-2, R-PEN-1..3, R-APL-1): its
facts with the checks the ordinance imposes, its sample, its builder, and its
issue in the transaction that issues the notice (notice_document_issue)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal
from typing import ClassVar

from django.conf import settings

from deadlines.services import compute_due, office_calendar, open_deadline_for
from deadlines.words import legal_basis, people_explanation
from documents.contracts import (
    DocumentFacts,
    after_issue,
    blank,
    clerk_office,
    how_to_pay,
)
from documents.models import IssuedDocument
from documents.registry import register
from documents.samples import SAMPLE_PREMISES, sample_common
from documents.selectors import latest_document
from documents.services import document_issue
from kernel.citations import citation

from .. import charges
from ..document_kinds import EnforcementDocument
from ..penalties import Tier, ViolationStart, continued_violation_start, tier_numbered
from .common import (
    common_facts,
    premises_address_of,
    recipient_of,
    smo_signatory,
    stored_deadline,
    today,
)

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
    deadline of the notice (deadlines.services.open_deadline_for)."""

    kind: ClassVar[str] = EnforcementDocument.NOTICE_OF_VIOLATION
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
        from ..models import RequirementKind

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


# --- notice of violation (R-NOV-1, R-NOV-2, R-PEN-1..3, R-APL-1) ----------------


def notice_number(notice) -> str:
    return f"NOV-{notice.pk}"


@register(
    EnforcementDocument.NOTICE_OF_VIOLATION,
    facts=NoticeOfViolationFacts,
    source="enforcement.noticeofviolation",
    sample=sample_notice_of_violation,
)
def notice_contract(notice) -> NoticeOfViolationFacts:
    """The notice as printed. Issued: the frozen recipient and the stored
    R-APL-1 / R-NOV-2 / R-NOV-1 deadlines (with their explanations). Draft
    (preview): the party's current details and the engine's dates for an issue
    today; the fine tier as it would be computed."""
    from ..models import NoticeStatus, RequirementKind
    from ..penalties import tier_for_party

    requirements = sorted(notice.requirements.all(), key=lambda r: r.number)
    kinds = {r.kind for r in requirements}
    issued = notice.status != NoticeStatus.DRAFT
    case = notice.case
    if issued:
        issued_on = notice.issued_on
        recipient = recipient_of(notice.recipient_name, notice.recipient_address)
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
        remediation = stored_deadline(notice, "R-NOV-2")
        remediation_deadline = remediation.due_date if remediation else None
        remediation_explanation = (
            remediation.explained_to_people(calendar) if remediation else ""
        )
        dates = {}
        for r in requirements:
            if r.compliance_days:
                stored = stored_deadline(notice, "R-NOV-1", r.kind)
                if stored is not None:
                    dates[r.kind] = (
                        stored.due_date,
                        stored.explained_to_people(calendar),
                    )
        tier = notice.fine_tier
        signatory = smo_signatory(notice.issued_by)
    else:
        issued_on = today()
        recipient = recipient_of(
            notice.recipient.name, notice.recipient.mailing_address
        )
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
        signatory = smo_signatory(notice.created_by)
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
        **common_facts(case, notice_number(notice), issued_on, recipient, signatory),
        premises_address=premises_address_of(case),
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
            notice.supersedes, EnforcementDocument.NOTICE_OF_VIOLATION
        )
    return document_issue(
        kind=EnforcementDocument.NOTICE_OF_VIOLATION,
        facts=notice_contract(notice),
        case=notice.case,
        source=notice,
        actor=actor,
        supersedes=supersedes if supersedes and supersedes.is_issued else None,
    )
