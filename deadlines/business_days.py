"""The New York business calendar the village counts deadlines on.

Public holidays are those of General Construction Law § 24, written out by hand
from the statute. The ``holidays`` package is deliberately *not* used: for New
York it adds Susan B. Anthony Day (a commemoration, not a § 24 holiday), moves
Saturday holidays to the Friday before (§ 24 never does), and leaves out Flag
Day. ``tests/deadlines/test_business_days.py`` pins every difference for 2025-2030.

A business day (RULES.md, "Counting days") is Monday to Friday, not a § 24
public holiday, and not a day the village office is closed. The office closures
are data that staff edit elsewhere; they are handed to :class:`BusinessCalendar`.

This module is pure Python: no Django import, so it loads without settings.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from functools import lru_cache
from types import MappingProxyType

from kernel.dates import WEEKDAY_NAMES

__all__ = [
    "BusinessCalendar",
    "public_holidays",
    "require_date",
]

_MONDAY, _THURSDAY, _SATURDAY, _SUNDAY = 0, 3, 5, 6


# § 24 names "the second Sunday in June, known as Flag day" and excepts it from
# the Sunday rule by name: it stays in the table (issue 19 asked to remove it;
# the statute governs). A Sunday, never observed on a Monday: no date depends on
# it. tests/deadlines/test_gcl_24_table.py pins the table to the statute's list.
FLAG_DAY = "Flag Day"


def _nth_weekday(year: int, month: int, weekday: int, n: int) -> dt.date:
    """The n-th (1-based) given weekday of a month."""
    first = dt.date(year, month, 1)
    offset = (weekday - first.weekday()) % 7
    return first + dt.timedelta(days=offset + 7 * (n - 1))


def _last_weekday(year: int, month: int, weekday: int) -> dt.date:
    """The last given weekday of a month."""
    next_month = dt.date(year + month // 12, month % 12 + 1, 1)
    last = next_month - dt.timedelta(days=1)
    return last - dt.timedelta(days=(last.weekday() - weekday) % 7)


def _general_election_day(year: int) -> dt.date:
    """The Tuesday after the first Monday in November (Election Law § 8-100)."""
    return _nth_weekday(year, 11, _MONDAY, 1) + dt.timedelta(days=1)


def _statutory_days(year: int) -> list[tuple[dt.date, str]]:
    """The days § 24 names, in the statute's order, before Sunday observances."""
    return [
        (dt.date(year, 1, 1), "New Year's Day"),
        (_nth_weekday(year, 1, _MONDAY, 3), "Martin Luther King Jr. Day"),
        (dt.date(year, 2, 12), "Lincoln's Birthday"),
        (_nth_weekday(year, 2, _MONDAY, 3), "Washington's Birthday"),
        (_last_weekday(year, 5, _MONDAY), "Memorial Day"),
        (_nth_weekday(year, 6, _SUNDAY, 2), FLAG_DAY),
        (dt.date(year, 6, 19), "Juneteenth"),
        (dt.date(year, 7, 4), "Independence Day"),
        (_nth_weekday(year, 9, _MONDAY, 1), "Labor Day"),
        (_nth_weekday(year, 10, _MONDAY, 2), "Columbus Day"),
        (_general_election_day(year), "Election Day"),
        (dt.date(year, 11, 11), "Veterans' Day"),
        (_nth_weekday(year, 11, _THURSDAY, 4), "Thanksgiving Day"),
        (dt.date(year, 12, 25), "Christmas Day"),
    ]


@lru_cache(maxsize=64)
def _public_holidays(year: int) -> Mapping[dt.date, str]:
    days: dict[dt.date, list[str]] = {}

    def add(day: dt.date, name: str) -> None:
        days.setdefault(day, []).append(name)

    for day, name in _statutory_days(year):
        add(day, name)
        # "If any of such days except Flag day is Sunday, the next day thereafter"
        # is a public holiday too. There is no rule for Saturday: the Friday
        # before stays an ordinary day.
        if day.weekday() == _SUNDAY and name != FLAG_DAY:
            add(day + dt.timedelta(days=1), f"{name} (observed, GCL § 24)")
    return MappingProxyType(
        {day: "; ".join(names) for day, names in sorted(days.items())}
    )


def public_holidays(year: int) -> dict[dt.date, str]:
    """New York public holidays of ``year`` under General Construction Law § 24.

    Returns a new dict ``{date: name}`` sorted by date. A Sunday holiday other
    than Flag Day also makes the following Monday a holiday, named
    "<holiday> (observed, GCL § 24)". A Saturday holiday is not moved. Two
    holidays on one day (possible only in theory) are joined with "; ".

    Not included: days the President or the Governor appoints "as a day of
    general thanksgiving, general fasting and prayer, or other general religious
    observances" (§ 24). They cannot be computed; staff enter them as office
    closures.
    """
    if isinstance(year, bool) or not isinstance(year, int):
        raise TypeError(f"year must be an int, not {type(year).__name__}")
    return dict(_public_holidays(year))


def require_date(value: object, what: str) -> dt.date:
    """``value`` if it is a plain date; TypeError otherwise.

    datetime is a subclass of date, but a legal day is a plain date (in
    America/New_York), so a datetime is refused rather than silently truncated.
    """
    if not isinstance(value, dt.date) or isinstance(value, dt.datetime):
        raise TypeError(f"{what} must be a datetime.date, not {type(value).__name__}")
    return value


class BusinessCalendar:
    """Business days for the village office: Mon-Fri, not a § 24 holiday, open.

    ``closures`` maps each day the village office is closed to the reason
    ("storm", "staff training"); the mapping is copied, so later edits to the
    caller's dict do not change this calendar.
    """

    def __init__(self, closures: Mapping[dt.date, str] | None = None) -> None:
        copied: dict[dt.date, str] = {}
        for day, reason in (closures or {}).items():
            require_date(day, "a closure day")
            reason = str(reason).strip()
            copied[day] = reason or "no reason recorded"
        self._closures = MappingProxyType(copied)

    @property
    def closures(self) -> Mapping[dt.date, str]:
        """The office closures this calendar knows (read-only)."""
        return self._closures

    def __repr__(self) -> str:
        return f"BusinessCalendar(closures={dict(self._closures)!r})"

    def holiday_name(self, d: dt.date) -> str | None:
        """The § 24 public holiday on ``d``, or None."""
        require_date(d, "d")
        return _public_holidays(d.year).get(d)

    def closure_reason(self, d: dt.date) -> str | None:
        """Why the village office is closed on ``d``, or None if it is open."""
        require_date(d, "d")
        return self._closures.get(d)

    def why_not_business_day(self, d: dt.date) -> str | None:
        """None for a business day, else the reason in plain words.

        A holiday is named before an office closure, and both before the day
        of the week, so a Saturday Christmas reads "Christmas Day":
        ``"Christmas Day"``, ``"village office closed: storm"``, ``"a Sunday"``.
        """
        holiday = self.holiday_name(d)
        if holiday is not None:
            return holiday
        closure = self.closure_reason(d)
        if closure is not None:
            return f"village office closed: {closure}"
        if d.weekday() >= _SATURDAY:
            return f"a {WEEKDAY_NAMES[d.weekday()]}"
        return None

    def is_business_day(self, d: dt.date) -> bool:
        """Monday to Friday, not a public holiday, and the office is open."""
        return self.why_not_business_day(d) is None

    def next_business_day(self, d: dt.date) -> dt.date:
        """The first business day strictly after ``d``."""
        require_date(d, "d")
        day = d + dt.timedelta(days=1)
        while not self.is_business_day(day):
            day += dt.timedelta(days=1)
        return day

    def add_business_days(self, d: dt.date, n: int) -> dt.date:
        """The n-th business day after ``d``; ``d`` itself never counts.

        ``n == 0`` returns ``d`` unchanged. Raises ValueError for negative n.
        """
        require_date(d, "d")
        if isinstance(n, bool) or not isinstance(n, int):
            raise TypeError(f"n must be an int, not {type(n).__name__}")
        if n < 0:
            raise ValueError(f"cannot count a negative number of business days ({n})")
        day = d
        for _ in range(n):
            day = self.next_business_day(day)
        return day

    def business_days_until(self, today: dt.date, due: dt.date) -> int:
        """How many business days are left: those in (``today``, ``due``].

        0 on the due day itself (and after it); 1 when the due day is the next
        business day. From Thursday 2026-12-03 to Tuesday 2026-12-08: Friday,
        Monday and Tuesday, so 3.
        """
        require_date(today, "today")
        require_date(due, "due")
        count, day = 0, today
        while day < due:
            day += dt.timedelta(days=1)
            if self.is_business_day(day):
                count += 1
        return count

    def roll_forward(self, d: dt.date) -> dt.date:
        """The GCL § 25-a roll-over: ``d`` if a business day, else the next one.

        § 25-a: when a period "ends on a Saturday, Sunday or a public holiday,
        such act may be done on the next succeeding business day". The village
        applies the same roll to a day its office is closed, because nothing
        can be filed at a closed office.
        """
        require_date(d, "d")
        return d if self.is_business_day(d) else self.next_business_day(d)
