"""The Board's decision on an appeal (§ 132-14, R-APL-3), signed by the clerk
for the Board."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import ClassVar

from django.conf import settings
from django.db import models
from django.utils import timezone

from documents.contracts import (
    Contact,
    DocumentFacts,
    FactsInvalid,
    Signatory,
    blank,
)
from documents.registry import register
from documents.samples import sample_common
from kernel.roles import Role

from ..document_kinds import EnforcementDocument
from .common import (
    CLERK_TITLE,
    clerk_signatory,
    common_facts,
    recipient_of,
    stored_deadline,
    today,
)
from .notice import notice_number

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

    kind: ClassVar[str] = EnforcementDocument.APPEAL_DECISION
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


# --- the Board's decision on appeal (R-APL-3) ------------------------------------


@register(
    EnforcementDocument.APPEAL_DECISION,
    facts=AppealDecisionFacts,
    source="enforcement.appeal",
    sample=sample_appeal_decision,
    case_of=lambda appeal: appeal.notice.case,
    # The Board's decision is filed by its clerk (R-APL-3), or the SMO.
    issuers=(Role.CLERK, Role.SMO),
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
        raise FactsInvalid(EnforcementDocument.APPEAL_DECISION, problems)
    # § 132-15 A: the correction clock follows a decision upholding the SMO
    # only; its day is the deadline engine's (R-COR-1), stored on the notice.
    correction = stored_deadline(notice, "R-COR-1") if appeal.upholds() else None
    superseding = appeal.superseding_notice()
    if superseding is not None and not superseding.is_frozen:
        superseding = None  # a draft: its requirements do not stand yet
    return AppealDecisionFacts(
        **common_facts(
            notice.case,
            f"APL-{appeal.pk}",
            max(today(), appeal.decided_on),
            recipient_of(appeal.appellant.name, appeal.appellant.mailing_address),
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
