"""The names of days and months and the long form of a date, in plain Python (no
Django: the business calendar, deadlines.business_days, loads without
settings and writes dates with these too)."""

from __future__ import annotations

import datetime as dt

# Written out rather than taken from strftime("%A"), which follows the locale.
WEEKDAY_NAMES = (
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
)
MONTH_NAMES = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)


def long_date(day: dt.date) -> str:
    """A date as a sentence says it to a person: "Friday, December 25, 2026".

    The one pure writer of that form: the deadline engine's explanation, the
    deadline words for people and ``kernel.humanize.human_long_date`` all use it."""
    return (
        f"{WEEKDAY_NAMES[day.weekday()]}, {MONTH_NAMES[day.month - 1]} "
        f"{day.day}, {day.year}"
    )
