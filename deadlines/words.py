"""A stored deadline explained to the people it binds (issue 26).

The engine's explanation (``Computation.explanation``, stored on each
Deadline) is the office's: rule ids, "GCL § 20", each step. A letter or the
respondent's page says the same thing in words instead:

    Counted 10 days from the notice date, Friday, December 4, 2026; the last
    day fell on a weekend, so it moves to Monday, December 14, 2026.

and, in a quieter line where a letter needs it, the legal basis in words:

    Village Code section 132-13 A; General Construction Law sections 20 and 25-a.

Both are written here only. The dates read as ``human_long_date``; the Village
Code section comes from the citation table (kernel.citations)."""

from __future__ import annotations

import contextlib
import datetime as dt
import re

from kernel.dates import long_date as _long

from .business_days import BusinessCalendar
from .engine import RULES, Method, _add_months

__all__ = ["legal_basis", "people_explanation"]

_ONE_DAY = dt.timedelta(days=1)

# What a period is counted from, as the person reads it.
_FROM = {
    "R-APL-1": "the notice date",
    "R-NOV-1": "the notice date",
    "R-NOV-2": "the notice date",
    "R-APL-2": "the day the appeal was filed",
    "R-APL-3": "the day of the Board's decision",
    "R-COR-1": "the day of the Board's decision",
    "R-SPL-3": "the day the release became known",
    "R-SPL-4": "the day of the telephone or in-person notice",
    "R-SPL-5": "the date of the discharge record",
    "R-SUS-1": "the day of the emergency suspension",
    "R-BMP-1": "the day best management practices were required",
    "R-ACC-2": "the last calibration",
    "R-DEF-2": "EPA's approval of the TMDL",
}

# The General Construction Law sections that say how each method counts.
_GCL = {
    Method.CALENDAR_DAYS: "sections 20 and 25-a",
    Method.BUSINESS_DAYS: "sections 20 and 24",
    Method.MONTHS: "sections 30 and 25-a",
    Method.YEARS: "sections 30 and 58",
}


def _holiday(name: str) -> str:
    """ "Christmas Day (observed, GCL § 24)" → "Christmas Day (observed)"."""
    return re.sub(r",\s*GCL\s*§+\s*[\w-]+", "", name)


def _why(cal: BusinessCalendar, day: dt.date) -> str:
    holiday = cal.holiday_name(day)
    if holiday is not None:
        return f"{_holiday(holiday)}, a public holiday"
    closure = cal.closure_reason(day)
    if closure is not None:
        return f"a day the village office was closed ({closure})"
    return "a weekend"


def _moved(cal: BusinessCalendar, last_day: dt.date, due: dt.date) -> str:
    """Why the last day moved to ``due``: each distinct reason, in order."""
    reasons: list[str] = []
    day = last_day
    while day < due:
        why = _why(cal, day)
        if why not in reasons:
            reasons.append(why)
        day += _ONE_DAY
    return ", and then ".join(reasons)


def _units(amount: int, unit: str) -> str:
    return f"{amount} {unit}{'' if amount == 1 else 's'}"


def people_explanation(
    rule_id: str,
    event_date: dt.date,
    due: dt.date,
    *,
    calendar: BusinessCalendar | None = None,
    params: dict | None = None,
) -> str:
    """How ``due`` was counted from ``event_date`` under ``rule_id``, in words
    a resident reads: no rule id, no ISO date, no statute shorthand."""
    spec = RULES.get(rule_id.split("(")[0])
    if spec is None:
        return f"The date is {_long(due)}."
    cal = calendar if calendar is not None else BusinessCalendar()
    params = params or {}
    amount = params.get(spec.parameter) if spec.parameter else None
    if amount is None:
        amount = spec.amount
    origin = f"{_FROM.get(spec.rule_id, spec.counts_from)}, {_long(event_date)}"
    if amount is None:
        return f"Counted from {origin}; the last day is {_long(due)}."

    if spec.method is Method.YEARS:
        return f"Kept for {_units(amount, 'year')} from {origin}: until {_long(due)}."
    if spec.method is Method.BUSINESS_DAYS:
        computed = cal.add_business_days(event_date, amount)
        counted = (
            f"Counted {_units(amount, 'business day')} from {origin}, leaving out "
            "weekends, public holidays and days the village office is closed; "
            f"the last day is {_long(computed)}"
        )
    else:
        if spec.method is Method.CALENDAR_DAYS:
            last_day = event_date + dt.timedelta(days=amount)
            period = _units(amount, "day")
        else:
            last_day = _add_months(event_date, amount)
            period = _units(amount, "month")
        computed = cal.roll_forward(last_day)
        counted = f"Counted {period} from {origin}"
        if computed == last_day:
            counted += f"; the last day is {_long(last_day)}"
        else:
            counted += (
                f"; the last day fell on {_moved(cal, last_day, computed)}, "
                f"so it moves to {_long(computed)}"
            )
    if due > computed:
        counted += (
            f". The notice itself gave until {_long(due)}, which is later, so "
            "that date stands"
        )
    elif due != computed:
        counted += f". The date set is {_long(due)}"
    return counted + "."


def _in_words(section: str) -> str:
    """ "§ 132-13 A" → "section 132-13 A"; "§§ 132-14, 132-15" → "sections …"."""
    section = re.sub(r"§§\s*", "sections ", section)
    return re.sub(r"§\s*", "section ", section).strip()


def legal_basis(rule_id: str) -> str:
    """The quiet line a letter prints under a date: the Village Code section
    (from the citation table) and the General Construction Law sections that
    say how the period is counted, in words."""
    from kernel.citations import UnknownCitation, citation

    spec = RULES.get(rule_id.split("(")[0])
    parts = []
    with contextlib.suppress(UnknownCitation):
        parts.append(f"Village Code {_in_words(citation(rule_id).section)}")
    if spec is not None:
        parts.append(f"General Construction Law {_GCL[spec.method]}")
    return "; ".join(parts) + "." if parts else ""
