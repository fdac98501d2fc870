"""The penalty tier of an offense (§ 132-13 B, R-PEN-1..4), with its working.

"A fine not exceeding $350 ... for conviction of a first offense; for conviction
of a second offense both of which were committed within a period of five years,
... not less than $350 nor more than $700; ... for a third or subsequent offense
all of which were committed within a period of five years, ... not less than
$700 nor more than $1,000", and in each case imprisonment not exceeding six
months, or both. The fine and any imprisonment are the court's; the system shows
the range a proposed fine must fall in.

Counting: the tier of an offense committed on day D is 1 + the person's prior
convictions (a guilty plea is one) of offenses committed on or after the same
calendar date five years before D and before D (GCL § 58 and § 30: a year is
twelve months; 29 February → 28 February). The ordinance raises the tier "for
conviction of a second offense both of which were committed within a period of
five years": the window is between the dates the offenses were committed, and
only a conviction counts. A charge still pending in court is listed as
"pending, not counted" and does not raise the tier (issue 25); acquittals and
dismissals are no offense and are not listed.

The tiers (TIERS) are defined here only: the notice's fine check and its
printed offense (enforcement.documents) read them.
"""

from __future__ import annotations

import calendar
import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from cases.citations import citation
from cases.deadlines.engine import continued_violation_weeks

LOOKBACK_YEARS = 5
IMPRISONMENT = "imprisonment not exceeding six months, or both (the court's)"


@dataclass(frozen=True)
class Tier:
    number: int
    rule_id: str
    minimum: Decimal
    maximum: Decimal
    name: str
    printed: str  # as the notice of violation prints the offense

    def allows(self, amount: Decimal) -> bool:
        """Whether a proposed fine of `amount` is in this tier's range (and more
        than $0)."""
        return amount > 0 and self.minimum <= amount <= self.maximum

    @property
    def range_words(self) -> str:
        if self.minimum == 0:
            return f"a fine not exceeding ${self.maximum:,.0f}"
        return f"a fine of ${self.minimum:,.0f} to ${self.maximum:,.0f}"


# § 132-13 B: the fine range of each offense tier, inclusive, in dollars.
TIERS = (
    Tier(1, "R-PEN-1", Decimal("0"), Decimal("350"), "first offense", "First offense"),
    Tier(
        2,
        "R-PEN-2",
        Decimal("350"),
        Decimal("700"),
        "second offense",
        "Second offense within five years",
    ),
    Tier(
        3,
        "R-PEN-3",
        Decimal("700"),
        Decimal("1000"),
        "third or later offense",
        "Third or subsequent offense within five years",
    ),
)


def tier_numbered(number: int) -> Tier | None:
    """The tier of that number (1, 2 or 3), or None."""
    return next((t for t in TIERS if t.number == number), None)


@dataclass(frozen=True)
class PriorOffense:
    """Another offense of the person: a conviction, unless `pending` (charged,
    no court outcome yet)."""

    committed_on: dt.date
    description: str = ""
    pending: bool = False


def _listed(offense: PriorOffense) -> str:
    return f"{offense.committed_on:%Y-%m-%d}" + (
        f" ({offense.description})" if offense.description else ""
    )


@dataclass(frozen=True)
class TierComputation:
    committed_on: dt.date
    window_start: dt.date
    counted: tuple[PriorOffense, ...]  # convictions within the five years
    not_counted: tuple[PriorOffense, ...]  # offenses before the five years
    tier: Tier
    # Charges within the five years still pending in court: not counted (R-PEN-2).
    pending: tuple[PriorOffense, ...] = ()

    @property
    def explanation(self) -> str:
        lines = [
            f"Offense committed {self.committed_on:%A %Y-%m-%d}. Five years back "
            f"from it is {self.window_start:%Y-%m-%d}; convictions of offenses "
            f"committed from {self.window_start:%Y-%m-%d} up to the day before "
            f"count ({citation('R-PEN-1').section}, GCL § 58)."
        ]
        if self.counted:
            lines.append(
                f"Prior convictions within five years: {len(self.counted)} — "
                + "; ".join(_listed(o) for o in self.counted)
                + "."
            )
        else:
            lines.append("Prior convictions within five years: none.")
        if self.pending:
            lines.append(
                "Charges still in court: "
                + "; ".join(f"{_listed(o)}, pending, not counted" for o in self.pending)
                + " (only a conviction counts)."
            )
        if self.not_counted:
            lines.append(
                "Earlier offenses outside the five years, not counted: "
                + "; ".join(f"{o.committed_on:%Y-%m-%d}" for o in self.not_counted)
                + "."
            )
        n = len(self.counted) + 1
        lines.append(
            f"1 + {len(self.counted)} = {n}: a {self.tier.name} ({self.tier.rule_id}), "
            f"punishable by {self.tier.range_words} or {IMPRISONMENT}."
        )
        return " ".join(lines)


def five_years_before(day: dt.date) -> dt.date:
    year = day.year - LOOKBACK_YEARS
    last = calendar.monthrange(year, day.month)[1]
    return dt.date(year, day.month, min(day.day, last))


def tier_for(committed_on: dt.date, history: list[PriorOffense]) -> TierComputation:
    """The tier of an offense committed on `committed_on`, given the person's
    other offenses (already without acquittals and dismissals): 1 + the
    convictions of offenses committed in the five years before it (R-PEN-2,
    R-PEN-3); charges pending in court in those years are listed, not counted."""
    start = five_years_before(committed_on)
    earlier = sorted(
        (o for o in history if o.committed_on < committed_on),
        key=lambda o: o.committed_on,
    )
    within = [o for o in earlier if o.committed_on >= start]
    counted = tuple(o for o in within if not o.pending)
    pending = tuple(o for o in within if o.pending)
    not_counted = tuple(o for o in earlier if o.committed_on < start)
    tier = TIERS[min(len(counted), len(TIERS) - 1)]
    return TierComputation(committed_on, start, counted, not_counted, tier, pending)


def tier_for_party(
    party, committed_on: dt.date, *, exclude_case=None
) -> TierComputation:
    """tier_for() on the party's recorded offense history (OffenseRecord).
    `exclude_case` leaves out offenses recorded for the very case being charged."""
    from .models import OffenseRecord

    records = OffenseRecord.objects.filter(
        party=party, outcome__in=OffenseRecord.TIER_LISTED
    )
    if exclude_case is not None:
        records = records.exclude(case=exclude_case)
    history = [PriorOffense(r.committed_on, r.description, r.pending) for r in records]
    return tier_for(committed_on, history)


def fine_error(computation: TierComputation, amount: Decimal | None) -> str:
    """Why `amount` is not a fine its tier allows, or '' if it is."""
    tier = computation.tier
    if amount is None:
        return f"Propose a fine: this is a {tier.name}, {tier.range_words}."
    if amount <= 0:
        return "A fine must be more than $0."
    if not tier.allows(amount):
        return (
            f"${amount:,.2f} is outside the range of a {tier.name} "
            f"({tier.rule_id}): {tier.range_words}."
        )
    return ""


@dataclass(frozen=True)
class ViolationStart:
    """Where the weeks of continued violation of a notice count from (R-PEN-4):
    the date the notice requires compliance by, or, when it sets none, the date
    the notice states (its date of issue)."""

    day: dt.date
    basis: str  # why that day, as a sentence part a person reads

    @property
    def words(self) -> str:
        return f"{self.day:%A %Y-%m-%d}, {self.basis}"


def continued_violation_start(
    *, issued_on: dt.date | None, compliance_dates, requirement_kinds
) -> ViolationStart | None:
    """The day the weeks of continued violation of a notice count from
    (§ 132-13 B, R-PEN-4): "each week's continued violation" after the notice
    required compliance.

    - `compliance_dates` are the dates the notice itself requires compliance
      by (its remediation deadline R-NOV-2 and each requirement's own date
      R-NOV-1): the weeks count from the last of them, when compliance with the
      whole notice was due (a later date of one requirement is not overtaken
      by an earlier one of another).
    - A notice that sets no date (cease and desist alone, for instance) orders
      compliance from its own date: the weeks count from the date of issue it
      prints.
    - Never from the last day to appeal, a date the notice prints only as the
      limit of the appeal, nor from the correction clock after an appeal
      (R-COR-1, the date corrective measures may begin, § 132-15 A).
    - A notice that only requires a fine orders nothing to stop or correct:
      no continued violation (None); so does a notice not issued."""
    kinds = set(requirement_kinds)
    if issued_on is None or not kinds or kinds <= {"fine"}:
        return None
    dates = [d for d in compliance_dates if d is not None]
    if dates:
        return ViolationStart(
            max(dates), "the last date the notice requires compliance by"
        )
    return ViolationStart(
        issued_on, "the date of the notice, which sets no later date for compliance"
    )


@dataclass(frozen=True)
class ContinuedViolation:
    """R-PEN-4: each week's continued violation after the notice required
    compliance (`deadline`, see continued_violation_start), up to `as_of`: the
    day before the recorded compliance, else the day counted to (today)."""

    deadline: dt.date
    as_of: dt.date
    weeks: tuple[dt.date, ...]
    basis: str = "the compliance deadline"
    complied_on: dt.date | None = None

    @property
    def count(self) -> int:
        return len(self.weeks)

    @property
    def _until(self) -> str:
        complied = self.complied_on
        if complied is not None and self.as_of == complied - dt.timedelta(days=1):
            return (
                f"{self.as_of:%Y-%m-%d}, the day before the compliance recorded on "
                f"{complied:%Y-%m-%d}"
            )
        return f"{self.as_of:%Y-%m-%d}"

    @property
    def explanation(self) -> str:
        since = f"{self.deadline:%A %Y-%m-%d} ({self.basis})"
        if not self.weeks:
            return (
                f"No whole week of continued violation between {since} and "
                f"{self._until}."
            )
        return (
            f"{self.count} whole week(s) of continued violation after {since} up "
            f"to {self._until}, each a separate additional violation (R-PEN-4), "
            "accrued on " + ", ".join(f"{d:%Y-%m-%d}" for d in self.weeks) + "."
        )


def continued_violation(
    deadline: dt.date,
    as_of: dt.date,
    *,
    basis: str = "the compliance deadline",
    complied_on: dt.date | None = None,
) -> ContinuedViolation:
    """The weeks of continued violation after `deadline` (the day the notice
    required compliance), counted to `as_of`; once compliance is recorded
    (`complied_on`) the count stops: the day of compliance is not a day of
    violation, so the last day counted is the day before it."""
    last_day = as_of
    if complied_on is not None:
        last_day = min(as_of, complied_on - dt.timedelta(days=1))
    return ContinuedViolation(
        deadline,
        last_day,
        tuple(continued_violation_weeks(deadline, last_day)),
        basis,
        complied_on,
    )
