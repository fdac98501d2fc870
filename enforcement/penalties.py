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

from deadlines.engine import continued_violation_weeks
from kernel.citations import citation
from kernel.humanize import human_long_date, human_short_date

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
    return human_short_date(offense.committed_on) + (
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
            f"Offense committed {human_long_date(self.committed_on)}. Five years "
            f"back from it is {human_long_date(self.window_start)}; convictions of "
            f"offenses committed from {human_short_date(self.window_start)} up to "
            "the day before "
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
                + "; ".join(human_short_date(o.committed_on) for o in self.not_counted)
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


# Where the weeks of continued violation count from, as a sentence part.
NOTICE_DATE = "the last date the notice requires compliance by"
ISSUE_DATE = "the date of the notice, which sets no later date for compliance"
DECISION_DATE = "the correction date in the Board's decision"


@dataclass(frozen=True)
class ViolationStart:
    """Where the weeks of continued violation of a notice count from (R-PEN-4):
    a date the respondent was given in writing (continued_violation_start)."""

    day: dt.date
    basis: str  # why that day, as a sentence part a person reads

    @property
    def words(self) -> str:
        return f"{human_long_date(self.day)}, {self.basis}"


def continued_violation_start(
    *,
    issued_on: dt.date | None,
    compliance_dates,
    requirement_kinds,
    correction_date: dt.date | None = None,
) -> ViolationStart | None:
    """The day the weeks of continued violation of a notice count from
    (§ 132-13 B, R-PEN-4): "each week's continued violation" after the
    respondent was told in writing to comply by that day.

    - `compliance_dates` are the dates the notice itself requires compliance
      by that still stand (its remediation deadline R-NOV-2 and each
      requirement's own date R-NOV-1; not one the Board's decision replaced):
      the weeks count from the last of them, when compliance with the whole
      notice was due (a later date of one requirement is not overtaken by an
      earlier one of another).
    - After a decision of the Board upholding the notice, `correction_date` is
      the date to correct its letter gives (R-COR-1, § 132-15 A: five business
      days after the decision): the weeks count from it, unless a date of the
      notice that still stands is later.
    - A notice that sets no date (cease and desist alone, for instance) orders
      compliance from its own date: the weeks count from the date of issue it
      prints.
    - Never from the last day to appeal, a date the notice prints only as the
      limit of the appeal.
    - A notice that only requires a fine orders nothing to stop or correct:
      no continued violation (None); so does a notice not issued."""
    kinds = set(requirement_kinds)
    if issued_on is None or not kinds or kinds <= {"fine"}:
        return None
    dates = [d for d in compliance_dates if d is not None]
    latest = max(dates) if dates else None
    if correction_date is not None and (latest is None or correction_date >= latest):
        return ViolationStart(correction_date, DECISION_DATE)
    if latest is not None:
        return ViolationStart(latest, NOTICE_DATE)
    return ViolationStart(issued_on, ISSUE_DATE)


@dataclass(frozen=True)
class AppealPending:
    """An appeal of the notice before the Board of Trustees: pending from the
    day it was filed up to the day before its decision or its withdrawal
    (`ended_on`); `ended_on` None while it is pending still."""

    filed_on: dt.date
    ended_on: dt.date | None = None

    def covers(self, day: dt.date) -> bool:
        return self.filed_on <= day and (self.ended_on is None or day < self.ended_on)

    @property
    def days(self) -> int:
        """How many days it was pending (0 for one still pending)."""
        if self.ended_on is None:
            return 0
        return max((self.ended_on - self.filed_on).days, 0)


def _span_words(days: int) -> tuple[str, str]:
    """("3 weeks and 2 days", "are"), ("week", "is"), ...: a period as the
    subject of "the … the appeal was pending … not counted"."""
    weeks, rest = divmod(days, 7)
    if days == 7:
        return "week", "is"
    if days == 1:
        return "day", "is"
    parts = []
    if weeks:
        parts.append(f"{weeks} week{'s' if weeks > 1 else ''}")
    if rest:
        parts.append(f"{rest} day{'s' if rest > 1 else ''}")
    return " and ".join(parts), "are"


def weeks_of_continued_violation(
    start: dt.date, last_day: dt.date, appeals=()
) -> tuple[dt.date, ...]:
    """The day each additional violation accrued after `start`, up to
    `last_day`: the weekly count of the deadline engine (whole weeks after the
    deadline, deadlines.engine.continued_violation_weeks) on the days of
    violation that count, leaving out every day an appeal of the notice was
    pending (`appeals`, AppealPending): a week accrues on its seventh day that
    counts."""
    counted = []
    day = start + dt.timedelta(days=1)
    while day <= last_day:
        if not any(a.covers(day) for a in appeals):
            counted.append(day)
        day += dt.timedelta(days=1)
    accrued = continued_violation_weeks(start, start + dt.timedelta(days=len(counted)))
    return tuple(counted[(d - start).days - 1] for d in accrued)


@dataclass(frozen=True)
class ContinuedViolation:
    """R-PEN-4: each week's continued violation after the date the respondent
    was given to comply by (`deadline`, see continued_violation_start), up to
    `as_of`: the day before the recorded compliance, else the day counted to
    (today); never a day an appeal of the notice was pending (`appeals`)."""

    deadline: dt.date
    as_of: dt.date
    weeks: tuple[dt.date, ...]
    basis: str = NOTICE_DATE
    complied_on: dt.date | None = None
    appeals: tuple[AppealPending, ...] = ()

    @property
    def count(self) -> int:
        return len(self.weeks)

    @property
    def pending_appeal(self) -> AppealPending | None:
        """The appeal pending now, if any: no week counts while it is."""
        return next((a for a in self.appeals if a.ended_on is None), None)

    @property
    def _until(self) -> str:
        complied = self.complied_on
        if complied is not None and self.as_of == complied - dt.timedelta(days=1):
            return (
                f"{human_long_date(self.as_of)}, the day before the compliance recorded "
                f"on {human_long_date(complied)}"
            )
        return human_long_date(self.as_of)

    @property
    def count_words(self) -> str:
        """How many weeks, up to when, and the day each accrued."""
        if not self.weeks:
            return f"No whole week of continued violation up to {self._until}."
        return (
            f"{self.count} whole week{'s' if self.count > 1 else ''} of continued "
            f"violation up to {self._until}, each a separate additional violation; "
            "accrued on " + "; ".join(human_long_date(d) for d in self.weeks) + "."
        )

    @property
    def counted_from(self) -> str:
        """From which date the weeks count and the appeal's time left out:
        "Counted from Wednesday, January 27, 2027, the correction date in the
        Board's decision; the 3 weeks the appeal was pending are not
        counted." """
        parts = [f"Counted from {human_long_date(self.deadline)}, {self.basis}"]
        ended = [a for a in self.appeals if a.ended_on is not None and a.days]
        if ended:
            span, verb = _span_words(sum(a.days for a in ended))
            who = "the appeal was" if len(ended) == 1 else "appeals of the notice were"
            if self.pending_appeal is not None:
                who = (
                    "an earlier appeal was"
                    if len(ended) == 1
                    else "earlier appeals were"
                )
            parts.append(f"the {span} {who} pending {verb} not counted")
        pending = self.pending_appeal
        if pending is not None:
            parts.append(
                f"an appeal filed {human_long_date(pending.filed_on)} is pending: no week "
                "is counted while it is"
            )
        return "; ".join(parts) + "."

    @property
    def explanation(self) -> str:
        return f"{self.count_words} {self.counted_from}"


def continued_violation(
    deadline: dt.date,
    as_of: dt.date,
    *,
    basis: str = NOTICE_DATE,
    complied_on: dt.date | None = None,
    appeals=(),
) -> ContinuedViolation:
    """The weeks of continued violation after `deadline` (the day the
    respondent was given to comply by), counted to `as_of`; once compliance is
    recorded (`complied_on`) the count stops: the day of compliance is not a
    day of violation, so the last day counted is the day before it. A day an
    appeal of the notice was pending (`appeals`) is not counted."""
    last_day = as_of
    if complied_on is not None:
        last_day = min(as_of, complied_on - dt.timedelta(days=1))
    appeals = tuple(sorted(appeals, key=lambda a: a.filed_on))
    return ContinuedViolation(
        deadline,
        last_day,
        weeks_of_continued_violation(deadline, last_day, appeals),
        basis,
        complied_on,
        appeals,
    )
