"""Dates and times as people read them: the one set of helpers (issues 16, 26).

- in a sentence: "Monday, March 16, 2026" (human_long_date);
- in a table, a short list, a subject line: "Mar 16, 2026" (human_short_date);
- on staff pages' date columns: "Mon, Mar 16, 2026" (human_date);
- with a time: "Mon, Mar 16, 2026, 2:04 PM" (human_datetime), "2:04 PM" (human_time).

Every chronology summary, validation error, flash message and e-mail a person
reads writes its dates with these. ISO stays for machines only: CSV, iCal's
DTSTART, JSON, ``<time datetime=…>`` (machine_value). The long form's one
writer is the pure ``kernel.dates.long_date`` (the deadline
engine cannot import Django); letters and PDFs keep their own date style."""

from __future__ import annotations

import datetime as dt

from django.utils import timezone
from django.utils.dateformat import format as date_format

from .dates import long_date

DATE = "D, M j, Y"
SHORT_DATE = "M j, Y"  # in a table or a subject line: "Mar 16, 2026"
TIME = "g:i A"


def _local(value):
    """A datetime in the village's time; a date as it is."""
    if isinstance(value, dt.datetime) and timezone.is_aware(value):
        return timezone.localtime(value)
    return value


def _formatted_date(value, fmt: str) -> str:
    if not value:
        return ""
    if not isinstance(value, dt.date):  # already words (a chronology row's text)
        return str(value)
    return date_format(_local(value), fmt)


# The pages are in English only (LANGUAGE_CODE en-us, no other locale): DATE and
# TIME written directly, the same words as Django's date_format of those formats
# (tests/cases/test_human_dates_pages.py compares them), at a tenth of its cost;
# a case page writes a hundred of them (bench/NOTES.md).
_WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_MONTHS = (
    "Jan", "Feb", "Mar", "Apr", "May", "Jun",
    "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
)  # fmt: skip


def _date_words(day: dt.date) -> str:
    """DATE ("D, M j, Y") of a date or a local datetime."""
    return f"{_WEEKDAYS[day.weekday()]}, {_MONTHS[day.month - 1]} {day.day}, {day.year}"


def _time_words(at: dt.datetime | dt.time) -> str:
    """TIME ("g:i A") of a local datetime or a time."""
    return f"{at.hour % 12 or 12}:{at.minute:02d} {'AM' if at.hour < 12 else 'PM'}"


def human_date(value) -> str:
    if not value:
        return ""
    if not isinstance(value, dt.date):  # already words (a chronology row's text)
        return str(value)
    return _date_words(_local(value))


def human_long_date(value) -> str:
    """A date as a sentence says it: "Monday, March 16, 2026" (issue 25)."""
    if not value:
        return ""
    if not isinstance(value, dt.date):  # already words
        return str(value)
    return long_date(_local(value))


def human_short_date(value) -> str:
    """A date where space is tight: "Mar 16, 2026" (tables, lists, subjects)."""
    return _formatted_date(value, SHORT_DATE)


def human_time(value) -> str:
    if not value:
        return ""
    if not isinstance(value, (dt.datetime, dt.time)):
        return str(value)
    return _time_words(_local(value))


def human_datetime(value) -> str:
    if not value:
        return ""
    if not isinstance(value, dt.datetime):
        return human_date(value)
    local = _local(value)
    return f"{_date_words(local)}, {_time_words(local)}"


def machine_value(value) -> str:
    """The ISO form a `<time datetime=…>` carries for machines: a date as
    2026-12-03, a datetime in the village's time (2026-12-03T14:04:00-05:00)."""
    if isinstance(value, dt.datetime):
        if timezone.is_aware(value):
            value = timezone.localtime(value)
        return value.isoformat(timespec="seconds")
    if isinstance(value, dt.time):
        return value.isoformat(timespec="minutes")
    if isinstance(value, dt.date):
        return value.isoformat()
    return ""


def money(value) -> str:
    """An amount of money as people read it: "$1,234.50" ("" for none). The one
    home of how money is written on pages, letters and exports (issue 27)."""
    if value is None or value == "":
        return ""
    from decimal import Decimal

    amount = Decimal(value).quantize(Decimal("0.01"))
    sign = "-" if amount < 0 else ""
    return f"{sign}${abs(amount):,.2f}"
