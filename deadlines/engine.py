"""Every legal date of Chapter 132, computed in one place.

``compute(rule_id, event_date)`` turns an event (a notice of violation issued,
an appeal filed, a spill reported) into the due date its rule sets, with an
explanation a clerk can read out to a resident or a court. Rule ids are those
of ``shared/ordinance/RULES.md``; § numbers of Chapter 132 are not written here
(they live in the citation table), only the General Construction Law sections
that say how the counting works:

- GCL § 20: a period of days excludes the day it is counted from.
- GCL § 24: which days are New York public holidays (see ``business_days.py``).
- GCL § 25-a: a period that ends on a Saturday, Sunday or public holiday ends
  on the next business day instead. The village also rolls a day its office is
  closed, because nothing can be filed at a closed office.
- GCL § 30: a period of months ends on the same day of the month, or on the
  last day of a shorter month.
- GCL § 58: a year is twelve months.

Pure Python: no Django import.
"""

from __future__ import annotations

import calendar as _stdlib_calendar
import datetime as dt
from collections.abc import Iterator
from dataclasses import dataclass
from enum import StrEnum

from kernel.dates import MONTH_NAMES, long_date

from .business_days import BusinessCalendar, require_date

__all__ = [
    "RULES",
    "Actor",
    "Computation",
    "Method",
    "RuleSpec",
    "UnknownRule",
    "compute",
    "continued_violation_weeks",
    "days_left_words",
    "due_window",
    "is_due_soon",
    "is_past_due",
    "rule_choices",
    "waited_words",
]

_ONE_DAY = dt.timedelta(days=1)


class UnknownRule(ValueError):
    """The rule id is not in :data:`RULES`."""


class Actor(StrEnum):
    """Who must act by the due date."""

    DISCHARGER = "discharger"
    BOARD = "board"
    CLERK = "clerk"
    SMO = "smo"
    FACILITY = "facility"


class Method(StrEnum):
    """How a period is counted; the value is stored with each deadline."""

    CALENDAR_DAYS = "calendar_days+25a"  # GCL § 20, then the § 25-a roll-over
    BUSINESS_DAYS = "business_days"  # the last day is a business day already
    MONTHS = "months+25a"  # GCL § 30, then the § 25-a roll-over
    YEARS = "years"  # GCL § 58 / § 30; a keep-until date, never rolled


_UNITS = {
    Method.CALENDAR_DAYS: "calendar day",
    Method.BUSINESS_DAYS: "business day",
    Method.MONTHS: "month",
    Method.YEARS: "year",
}


@dataclass(frozen=True)
class RuleSpec:
    """One deadline rule of Chapter 132.

    ``amount`` is the period the ordinance fixes, or the default of a period
    the village or the notice sets; None means the caller must give it.
    ``parameter`` names the keyword of :func:`compute` that sets the period;
    None means the ordinance fixes it and it cannot be changed.
    """

    rule_id: str
    label: str
    counts_from: str
    actor: Actor
    method: Method
    amount: int | None
    parameter: str | None = None
    note: str = ""

    @property
    def unit(self) -> str:
        return _UNITS[self.method]


_RULE_LIST = (
    RuleSpec(
        "R-SPL-3",
        "Notice of a nonhazardous spill to the village",
        "the day the release became known",
        Actor.DISCHARGER,
        Method.BUSINESS_DAYS,
        1,
        note="The notice may be given in person, by telephone or by fax.",
    ),
    RuleSpec(
        "R-SPL-4",
        "Written confirmation of a spill notice",
        "the telephone or in-person notice",
        Actor.DISCHARGER,
        Method.BUSINESS_DAYS,
        3,
        note="The written confirmation must be mailed to the village by this date.",
    ),
    RuleSpec(
        "R-SPL-5",
        "Retention of the on-site spill record",
        "the date of the discharge record",
        Actor.FACILITY,
        Method.YEARS,
        3,
        note="The ordinance says at least three years; the record may be kept longer.",
    ),
    RuleSpec(
        "R-SUS-1",
        "Written notice of reasons for an emergency suspension",
        "the emergency suspension of MS4 access",
        Actor.SMO,
        Method.BUSINESS_DAYS,
        2,
        parameter="business_days",
        note=(
            "The ordinance asks for the notice within a reasonable time; "
            "the number of business days is the village's setting."
        ),
    ),
    RuleSpec(
        "R-APL-1",
        "Appeal to the Board of Trustees",
        "the issuance of the notice of violation",
        Actor.DISCHARGER,
        Method.CALENDAR_DAYS,
        15,
    ),
    RuleSpec(
        "R-APL-2",
        "Board of Trustees hearing on the appeal",
        "the filing of the appeal",
        Actor.BOARD,
        Method.CALENDAR_DAYS,
        30,
    ),
    RuleSpec(
        "R-APL-3",
        "Board decision filed with the municipal clerk and mailed by certified mail",
        "the Board's decision on the appeal",
        Actor.BOARD,
        Method.CALENDAR_DAYS,
        5,
        note=(
            "Both acts are due by this date: filing the decision in the office of "
            "the municipal clerk, and mailing a copy to the discharger by certified "
            "mail."
        ),
    ),
    RuleSpec(
        "R-COR-1",
        "Correction of the violation after the appeal decision",
        "the decision upholding the Stormwater Management Officer",
        Actor.DISCHARGER,
        Method.BUSINESS_DAYS,
        5,
        note=(
            "If the violation is not corrected by then, the Stormwater Management "
            "Officer asks the owner for access to abate it."
        ),
    ),
    RuleSpec(
        "R-DEF-2",
        "Stormwater program modification after a new TMDL",
        "EPA's approval of the TMDL",
        Actor.SMO,
        Method.MONTHS,
        6,
    ),
    RuleSpec(
        "R-ACC-2",
        "Recalibration of monitoring equipment",
        "the last calibration",
        Actor.FACILITY,
        Method.MONTHS,
        12,
        parameter="months",
        note=(
            "The ordinance requires calibrated equipment but sets no interval; "
            "the number of months is the village's setting."
        ),
    ),
    RuleSpec(
        "R-NOV-1",
        "Compliance date of a requirement of a notice of violation",
        "the issuance of the notice of violation",
        Actor.DISCHARGER,
        Method.CALENDAR_DAYS,
        None,
        parameter="days",
        note=(
            "The notice of violation sets the number of days to comply with this "
            "requirement."
        ),
    ),
    RuleSpec(
        "R-NOV-2",
        "Remediation deadline in a notice of violation",
        "the issuance of the notice of violation",
        Actor.DISCHARGER,
        Method.CALENDAR_DAYS,
        None,
        parameter="days",
        note=(
            "The notice of violation sets the number of days. If the work is not "
            "done by then, it will be done by a governmental agency or a "
            "contractor at the violator's expense."
        ),
    ),
    RuleSpec(
        "R-BMP-1",
        "Implementation of required best management practices",
        "the requirement to implement best management practices",
        Actor.DISCHARGER,
        Method.CALENDAR_DAYS,
        30,
        parameter="days",
        note="The number of days is set by the Stormwater Management Officer.",
    ),
)

RULES: dict[str, RuleSpec] = {spec.rule_id: spec for spec in _RULE_LIST}


def rule_choices() -> list[tuple[str, str]]:
    """(rule_id, label) pairs in table order, for form choices."""
    return [(spec.rule_id, spec.label) for spec in RULES.values()]


# --- "overdue" and "due this week": the one definition ---------------------------

DUE_SOON_DAYS = 7  # "due this week": today and the six days after it


def due_window(on: dt.date) -> tuple[dt.date, dt.date]:
    """(start, end) on day ``on``: a due date before ``start`` has passed (an
    open deadline due then is overdue); one from ``start`` up to, not including,
    ``end`` is due this week. Every page, list, e-mail, guard and query asks
    this function (through the two below, Deadline.is_overdue / is_due_soon and
    the selectors overdue() / due_this_week())."""
    require_date(on, "on")
    return on, on + dt.timedelta(days=DUE_SOON_DAYS)


def is_past_due(due: dt.date, on: dt.date) -> bool:
    """The due date ``due`` has passed on day ``on`` (whatever was done)."""
    start, _ = due_window(on)
    return due < start


def is_due_soon(due: dt.date, on: dt.date) -> bool:
    """``due`` falls in the week from ``on`` (``on`` itself included)."""
    start, end = due_window(on)
    return start <= due < end


def _day_count(n: int) -> str:
    return f"{n} day{'' if n == 1 else 's'}"


def days_left_words(due: dt.date, on: dt.date) -> str:
    """How a work queue says how soon ``due`` is, on day ``on``, in calendar
    days: "due today", "3 days left", "overdue by 2 days" (past due by
    :func:`is_past_due`, the one definition)."""
    require_date(due, "due")
    start, _ = due_window(on)
    if is_past_due(due, on):
        return f"overdue by {_day_count((start - due).days)}"
    left = (due - start).days
    return "due today" if left == 0 else f"{_day_count(left)} left"


def waited_words(since: dt.date, on: dt.date) -> str:
    """How long something has waited on day ``on`` since ``since``: "since
    today", "waiting 1 day", "waiting 12 days"."""
    require_date(since, "since")
    require_date(on, "on")
    waited = (on - since).days
    return "since today" if waited <= 0 else f"waiting {_day_count(waited)}"


@dataclass(frozen=True)
class Computation:
    """A computed due date and how it was reached; store all of it."""

    rule_id: str
    event_date: dt.date
    due: dt.date
    explanation: str
    method: str

    @property
    def spec(self) -> RuleSpec:
        return RULES[self.rule_id]


def compute(
    rule_id: str,
    event_date: dt.date,
    *,
    calendar: BusinessCalendar | None = None,
    not_before: dt.date | str | None = None,
    **params: int,
) -> Computation:
    """The due date rule ``rule_id`` sets for an event on ``event_date``.

    ``not_before`` is a date the period may not end before: a later date the
    respondent was already given in writing stands (R-COR-1 after a decision
    upholding a notice that gave more time, § 132-15 A). A ``str`` is an ISO
    date (as stored in a deadline's params).

    ``params`` sets the period of the rules that allow it (see
    ``RULES[rule_id].parameter``): ``days`` for R-NOV-1 and R-NOV-2 (required) and
    R-BMP-1,
    ``business_days`` for R-SUS-1, ``months`` for R-ACC-2. ``calendar`` carries
    the office closures; without it only weekends and § 24 holidays count.

    Raises UnknownRule for a rule id not in RULES, ValueError for a missing,
    unexpected or out-of-range parameter, TypeError if ``event_date`` is not a
    plain date.
    """
    try:
        spec = RULES[rule_id]
    except (KeyError, TypeError):
        known = ", ".join(RULES)
        raise UnknownRule(
            f"no deadline rule {rule_id!r}; known rules: {known}"
        ) from None
    require_date(event_date, "event_date")
    amount = _period(spec, params)
    cal = calendar if calendar is not None else BusinessCalendar()

    if spec.method is Method.BUSINESS_DAYS:
        due = cal.add_business_days(event_date, amount)
        counted = _business_days_sentence(cal, event_date, amount, due)
    elif spec.method is Method.YEARS:
        due = _add_months(event_date, 12 * amount)
        counted = _keep_until_sentence(spec, event_date, amount, due)
    else:
        if spec.method is Method.CALENDAR_DAYS:
            last_day = event_date + dt.timedelta(days=amount)
        else:
            last_day = _add_months(event_date, amount)
        due = cal.roll_forward(last_day)
        counted = _rolled_sentence(cal, spec, event_date, amount, last_day, due)

    kept = ""
    if not_before is not None:
        if isinstance(not_before, str):
            not_before = dt.date.fromisoformat(not_before)
        require_date(not_before, "not_before")
        if not_before > due:
            kept = (
                f"The notice itself gave until {_day(not_before)}, which is later; "
                "that date stands, since this period does not shorten the time "
                "the notice gave."
            )
            due = not_before
    explanation = " ".join(
        part for part in (counted, kept, _rule_sentence(spec), spec.note) if part
    )
    return Computation(
        rule_id=spec.rule_id,
        event_date=event_date,
        due=due,
        explanation=explanation,
        method=spec.method.value,
    )


def continued_violation_weeks(
    compliance_deadline: dt.date, as_of: dt.date
) -> list[dt.date]:
    """R-PEN-4: the day each additional violation accrued, up to ``as_of``.

    "Each week's continued violation shall constitute a separate additional
    violation": one accrues at every whole week after the compliance deadline,
    i.e. on deadline + 7, + 14, ... days, as long as that day is on or before
    ``as_of``. These are days a violation happened, not days to act, so they
    are never moved off weekends or holidays.
    """
    require_date(compliance_deadline, "compliance_deadline")
    require_date(as_of, "as_of")
    whole_weeks = max((as_of - compliance_deadline).days // 7, 0)
    return [
        compliance_deadline + dt.timedelta(weeks=k) for k in range(1, whole_weeks + 1)
    ]


# --- the period ------------------------------------------------------------


def _period(spec: RuleSpec, params: dict[str, object]) -> int:
    if spec.parameter is None:
        if params:
            raise ValueError(
                f"{spec.rule_id} takes no parameters: the ordinance fixes the period "
                f"at {_period_words(spec.amount, spec.unit)} (got {_names(params)})"
            )
        assert spec.amount is not None
        return spec.amount

    unexpected = {k: v for k, v in params.items() if k != spec.parameter}
    if unexpected:
        raise ValueError(
            f"{spec.rule_id} takes only {spec.parameter}= (got {_names(unexpected)})"
        )
    value = params.get(spec.parameter, spec.amount)
    if value is None:
        raise ValueError(
            f"{spec.rule_id} ({spec.label}) needs {spec.parameter}=<number of "
            f"{spec.unit}s>"
        )
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(
            f"{spec.rule_id}: {spec.parameter} must be a whole number, got {value!r}"
        )
    if value < 1:
        raise ValueError(
            f"{spec.rule_id}: {spec.parameter} must be at least 1, got {value}"
        )
    return value


def _names(params: dict[str, object]) -> str:
    return ", ".join(f"{k}={v!r}" for k, v in sorted(params.items()))


def _add_months(day: dt.date, months: int) -> dt.date:
    """GCL § 30: same day of the month, or the last day of a shorter month."""
    index = day.year * 12 + (day.month - 1) + months
    year, month = divmod(index, 12)
    month += 1
    last = _stdlib_calendar.monthrange(year, month)[1]
    return dt.date(year, month, min(day.day, last))


# --- the wording: every explanation is written by the helpers below ----------


def _day(day: dt.date) -> str:
    """'Friday, December 25, 2026' (business_days.long_date, the one writer)."""
    return long_date(day)


def _period_words(amount: int | None, unit: str) -> str:
    return f"{amount} {unit}" + ("" if amount == 1 else "s")


def _days(start: dt.date, end: dt.date) -> Iterator[dt.date]:
    """Every day in [start, end)."""
    day = start
    while day < end:
        yield day
        day += _ONE_DAY


def _skipped_days(cal: BusinessCalendar, start: dt.date, end: dt.date) -> list[dt.date]:
    """Weekdays in [start, end) that are not business days (holidays, closures).

    Weekends are left out: skipping them goes without saying.
    """
    return [
        day
        for day in _days(start, end)
        if day.weekday() < 5 and not cal.is_business_day(day)
    ]


def _skipping(cal: BusinessCalendar, days: list[dt.date]) -> str:
    """'skipping Thursday, November 26, 2026, Thanksgiving Day; Friday, ...'."""
    return "skipping " + "; ".join(
        f"{_day(day)}, {cal.why_not_business_day(day)}" for day in days
    )


def _business_days_sentence(
    cal: BusinessCalendar, event: dt.date, amount: int, due: dt.date
) -> str:
    if amount == 1:
        opening = f"The next business day after {_day(event)}"
    else:
        opening = f"{_period_words(amount, 'business day')} after {_day(event)}"
    skipped = _skipped_days(cal, event + _ONE_DAY, due)
    if skipped:
        opening += f" ({_skipping(cal, skipped)})"
    return f"{opening} is {_day(due)}."


def _rolled_sentence(
    cal: BusinessCalendar,
    spec: RuleSpec,
    event: dt.date,
    amount: int,
    last_day: dt.date,
    due: dt.date,
) -> str:
    """A calendar-day or month period, then the § 25-a roll-over if any."""
    short_month = ""
    if spec.method is Method.MONTHS:
        short_month = _short_month_note(event, last_day)
    return (
        f"{_period_words(amount, spec.unit)} after {_day(event)} is "
        f"{_day(last_day)}{short_month}{_roll_clause(cal, last_day, due)}."
    )


def _keep_until_sentence(
    spec: RuleSpec, event: dt.date, amount: int, due: dt.date
) -> str:
    return (
        f"{_period_words(amount, spec.unit)} after {_day(event)} is "
        f"{_day(due)}{_short_month_note(event, due)}. This is a keep-until date: "
        "it is not moved for a weekend, holiday or office closure."
    )


def _roll_clause(cal: BusinessCalendar, last_day: dt.date, due: dt.date) -> str:
    """What GCL § 25-a did to a last day; empty if it was a business day."""
    if last_day == due:
        return ""
    # "Saturday, March 14, 2026, a Saturday" says nothing new: name only a holiday
    # or a closure.
    plain_weekend = (
        cal.holiday_name(last_day) is None and cal.closure_reason(last_day) is None
    )
    named = "" if plain_weekend else f", {cal.why_not_business_day(last_day)}"
    closed = any(
        cal.closure_reason(day) is not None and cal.holiday_name(day) is None
        for day in _days(last_day, due)
    )
    basis = "GCL § 25-a"
    if closed:
        basis += (
            "; a day the village office is closed counts like a holiday, because "
            "nothing can be filed at a closed office"
        )
    clause = f"{named}; moved to the next business day, {_day(due)} ({basis})"
    skipped = _skipped_days(cal, last_day + _ONE_DAY, due)
    if skipped:
        clause += f", {_skipping(cal, skipped)}"
    return clause


def _short_month_note(start: dt.date, end: dt.date) -> str:
    if end.day == start.day:
        return ""
    month = MONTH_NAMES[end.month - 1]
    return (
        f" (there is no {month} {start.day} in {end.year}, so the period ends on "
        f"the last day of {month}, GCL § 30)"
    )


def _rule_sentence(spec: RuleSpec) -> str:
    opening = f"Rule {spec.rule_id} ({spec.label}) counts from {spec.counts_from}"
    if spec.method is Method.CALENDAR_DAYS:
        return f"{opening}; that day itself is not counted (GCL § 20)."
    if spec.method is Method.BUSINESS_DAYS:
        return (
            f"{opening}; that day itself is not counted, and business days are "
            "Monday to Friday except New York public holidays (GCL § 24) and days "
            "the village office is closed."
        )
    if spec.method is Method.MONTHS:
        return f"{opening} in calendar months (GCL § 30)."
    return f"{opening} in years of twelve months (GCL § 58 and § 30)."
