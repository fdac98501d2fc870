"""Suspension and termination of MS4 access (§ 132-16, R-SUS-1, R-SUS-2): the
emergency suspension, the proposed termination and the termination decision."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import ClassVar

from django.db import models
from django.utils import timezone

from documents.contracts import (
    DocumentFacts,
    FactsInvalid,
    after_issue,
    blank,
    clerk_office,
    village_contact,
)
from documents.registry import register
from documents.samples import SAMPLE_PREMISES, sample_common, sample_moment

from ..document_kinds import EnforcementDocument
from .common import (
    common_facts,
    premises_address_of,
    recipient_of,
    smo_signatory,
    today,
)

# --- suspension and termination of MS4 access (R-SUS-1, R-SUS-2) ----------------


@dataclass(frozen=True, kw_only=True)
class EmergencySuspensionFacts(DocumentFacts):
    """Written notice of the reasons for an emergency suspension, § 132-9 A
    (R-SUS-1), sent within a reasonable time after the suspension."""

    kind: ClassVar[str] = EnforcementDocument.EMERGENCY_SUSPENSION
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
            # The written notice follows the suspension (R-SUS-1), by the
            # village's date of the suspension: at 9 PM in Poquott it is already
            # tomorrow in UTC.
            moment = self.suspended_at
            if timezone.is_aware(moment):
                moment = timezone.localtime(moment)
            if isinstance(self.issued_on, dt.date) and moment.date() > self.issued_on:
                found.append("the suspension is dated after the notice")
        else:
            found.append("the date and time of the suspension are missing")
        return found


@dataclass(frozen=True, kw_only=True)
class ProposedTerminationFacts(DocumentFacts):
    """Written notice of the proposed termination of MS4 access and the reasons,
    § 132-9 B (R-SUS-2), with the right to petition for reconsideration."""

    kind: ClassVar[str] = EnforcementDocument.PROPOSED_TERMINATION
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

    kind: ClassVar[str] = EnforcementDocument.TERMINATION_DECISION
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


# --- suspension and termination of MS4 access (R-SUS-1, R-SUS-2) ----------------


@register(
    EnforcementDocument.EMERGENCY_SUSPENSION,
    facts=EmergencySuspensionFacts,
    source="enforcement.accesssuspension",
    sample=sample_emergency_suspension,
)
def suspension_contract(suspension) -> EmergencySuspensionFacts:
    """The written notice of the reasons for the emergency suspension (R-SUS-1),
    dated the day it was recorded as sent, else today."""
    return EmergencySuspensionFacts(
        **common_facts(
            suspension.case,
            f"SUS-{suspension.pk}",
            suspension.notice_sent_on or today(),
            recipient_of(suspension.party.name, suspension.party.mailing_address),
            smo_signatory(suspension.created_by),
        ),
        premises_address=premises_address_of(suspension.case, suspension.premises),
        suspended_at=suspension.suspended_at,
        reasons=suspension.reasons,
    )


@register(
    EnforcementDocument.PROPOSED_TERMINATION,
    facts=ProposedTerminationFacts,
    source="enforcement.accesstermination",
    sample=sample_proposed_termination,
)
def proposed_termination_contract(termination) -> ProposedTerminationFacts:
    """The written notice of the proposed termination and its reasons (R-SUS-2),
    dated the notice date the SMO recorded."""
    return ProposedTerminationFacts(
        **common_facts(
            termination.case,
            f"TRM-{termination.pk}",
            termination.notice_on,
            recipient_of(termination.party.name, termination.party.mailing_address),
            smo_signatory(termination.created_by),
        ),
        premises_address=premises_address_of(termination.case, termination.premises),
        reasons=termination.reasons,
        petition_to=f"{village_contact().name}, {clerk_office()}",
    )


@register(
    EnforcementDocument.TERMINATION_DECISION,
    facts=TerminationDecisionFacts,
    source="enforcement.accesstermination",
    sample=sample_termination_decision,
)
def termination_decision_contract(termination) -> TerminationDecisionFacts:
    """The SMO's written grant or denial on the petition (R-SUS-2): only once
    access was granted again or denied."""
    from ..models import TerminationStatus

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
        raise FactsInvalid(EnforcementDocument.TERMINATION_DECISION, problems)
    hearing = termination.hearing_at
    return TerminationDecisionFacts(
        **common_facts(
            termination.case,
            f"TRD-{termination.pk}",
            termination.decided_on or today(),
            recipient_of(termination.party.name, termination.party.mailing_address),
            smo_signatory(termination.created_by),
        ),
        premises_address=premises_address_of(termination.case, termination.premises),
        proposed_notice_number=f"TRM-{termination.pk}",
        proposed_notice_issued_on=termination.notice_on,
        petition_received_on=termination.petition_on,
        hearing_held_on=timezone.localtime(hearing).date() if hearing else None,
        outcome=outcome,
        determination=termination.determination,
    )
