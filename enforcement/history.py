"""The history of previous violations of a person: criterion (2) of § 132-17 A
(R-ALT-1), "the violator has no history of previous violations of this article".

A previous violation is any determination under Chapter 132, before the
violation now considered, that this person violated the article — not only a
court's offense record:
- a case with a confirmed violation of which the person is the responsible party
  (unless the Board reversed the SMO on it and no notice on it stands);
- a notice of violation issued to the person and still standing: not withdrawn,
  not superseded (its correction counts instead), not reversed on appeal. A
  notice not appealed stands as the SMO's determination (§ 132-14 gives 15 days);
  one upheld or modified on appeal stands as decided; one whose appeal is
  pending is counted and said so, as the decision is still to come;
- a court order against the person: an order to abate or restore obtained in
  corrective measures (§ 132-15 B) on a notice to the person, or an injunction
  granted on the person's case (§ 132-16);
- an offense in the person's offense history (acquittals and dismissals are no
  offense).

The law speaks of the violator's history, not the premises': a violation of the
same person at other premises counts, and another person's violation at the
same premises does not (each item names its premises). Everything on the case
now considered is left out. A read across relations: no writes."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from cases.models import Case, CaseStatus
from kernel.humanize import human_long_date, human_short_date

# A case closed as one of these after its confirmation was found no violation.
_NOT_A_VIOLATION = (CaseStatus.UNFOUNDED, CaseStatus.EXEMPT, CaseStatus.DUPLICATE)


@dataclass(frozen=True)
class PreviousViolation:
    """One item of a person's history, as the criteria list prints it."""

    on: dt.date
    what: str  # "violation confirmed", "notice of violation NOV-4", …
    case_number: str
    premises: str = ""
    note: str = ""

    def __str__(self) -> str:
        parts = [f"case {self.case_number}" if self.case_number else ""]
        parts += [f"at {self.premises}" if self.premises else "", self.note]
        said = ", ".join(p for p in parts if p)
        return f"{human_short_date(self.on)}: {self.what}" + (
            f" ({said})" if said else ""
        )


@dataclass(frozen=True)
class ViolationHistory:
    party_name: str
    before: dt.date
    items: tuple[PreviousViolation, ...]

    @property
    def clean(self) -> bool:
        return not self.items

    @property
    def explanation(self) -> str:
        if self.clean:
            return (
                f"No previous violation by {self.party_name} before "
                f"{human_long_date(self.before)}: no other case with a confirmed violation, "
                "no notice of violation standing (issued and not withdrawn, "
                "superseded or reversed), no court order (abatement order or "
                "injunction) and no offense in the history."
            )
        return f"Previous violations by {self.party_name}: " + "; ".join(
            str(item) for item in self.items
        )


def _premises(case) -> str:
    return str(case.premises) if case.premises_id else case.location_description


def _appeal_note(notice) -> str:
    from .models import AppealStatus, Decision

    appeals = [a for a in notice.appeals.all() if a.status != AppealStatus.WITHDRAWN]
    if not appeals:
        return "not appealed"
    latest = max(appeals, key=lambda a: (a.filed_on, a.pk))
    if latest.decision == Decision.UPHELD:
        return f"upheld on appeal {human_short_date(latest.decided_on)}"
    if latest.decision == Decision.MODIFIED:
        return f"modified on appeal {human_short_date(latest.decided_on)}"
    return "appeal pending: counted until the Board decides"


def violation_history(*, party, case, before: dt.date) -> ViolationHistory:
    """The previous violations of `party` before `before` (the date of the
    violation now considered), leaving out everything on `case`."""
    from .models import (
        CorrectiveAction,
        Decision,
        InjunctionReferral,
        InjunctionStatus,
        NoticeOfViolation,
        NoticeStatus,
        OffenseRecord,
    )

    other = {"case_id": case.pk}
    items: list[PreviousViolation] = []

    notices = list(
        NoticeOfViolation.objects.filter(
            recipient=party,
            issued_on__lt=before,
            status__in=(
                NoticeStatus.ISSUED,
                NoticeStatus.COMPLIED,
                NoticeStatus.NOT_COMPLIED,
                NoticeStatus.ESCALATED,
            ),
        )
        .exclude(**other)
        .exclude(appeals__decision=Decision.REVERSED)
        .select_related("case__premises")
        .prefetch_related("appeals")
        .order_by("issued_on", "pk")
    )
    standing_cases = {n.case_id for n in notices}
    reversed_cases = set(
        NoticeOfViolation.objects.filter(
            case__responsible_party=party, appeals__decision=Decision.REVERSED
        ).values_list("case_id", flat=True)
    )

    for c in (
        Case.objects.filter(
            responsible_party=party,
            violation_confirmed_on__isnull=False,
            violation_confirmed_on__lt=before,
        )
        .exclude(pk=case.pk)
        .exclude(status__in=_NOT_A_VIOLATION)
        .select_related("premises")
        .order_by("violation_confirmed_on", "pk")
    ):
        if c.pk in reversed_cases and c.pk not in standing_cases:
            continue
        items.append(
            PreviousViolation(
                c.violation_confirmed_on, "violation confirmed", c.number, _premises(c)
            )
        )
    for n in notices:
        items.append(
            PreviousViolation(
                n.issued_on,
                f"notice of violation NOV-{n.pk} issued",
                n.case.number,
                _premises(n.case),
                _appeal_note(n),
            )
        )
    for a in (
        CorrectiveAction.objects.filter(
            notice__recipient=party, order_on__isnull=False, order_on__lt=before
        )
        .exclude(**other)
        .select_related("case__premises")
    ):
        items.append(
            PreviousViolation(
                a.order_on,
                f"court order to abate or restore ({a.order_court})",
                a.case.number,
                _premises(a.case),
            )
        )
    for r in (
        InjunctionReferral.objects.filter(
            case__responsible_party=party,
            status=InjunctionStatus.GRANTED,
            decided_on__lt=before,
        )
        .exclude(**other)
        .select_related("case__premises")
    ):
        items.append(
            PreviousViolation(
                r.decided_on,
                f"{r.get_kind_display().lower()} granted ({r.court})",
                r.case.number,
                _premises(r.case),
            )
        )
    for o in (
        OffenseRecord.objects.filter(party=party, committed_on__lt=before)
        .exclude(outcome__in=OffenseRecord.NOT_COUNTED)
        .exclude(**other)
        .select_related("case__premises")
    ):
        items.append(
            PreviousViolation(
                o.committed_on,
                f"offense: {o.description}",
                o.case.number if o.case_id else "",
                _premises(o.case) if o.case_id else "",
                o.get_outcome_display().lower(),
            )
        )
    items.sort(key=lambda i: i.on)
    return ViolationHistory(party.name, before, tuple(items))
