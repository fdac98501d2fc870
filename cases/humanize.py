"""Dates and times as staff read them: "Thu, Dec 3, 2026" and "2:04 PM" (issue 16);
in a sentence, "Monday, March 16, 2026" (human_long_date).

Letters and PDFs keep their own date style; these are for staff pages and
their messages."""

from __future__ import annotations

import datetime as dt

from django.utils import timezone
from django.utils.dateformat import format as date_format

DATE = "D, M j, Y"
LONG_DATE = "l, F j, Y"  # in a sentence to a person: "Monday, March 16, 2026"
TIME = "g:i A"


def _formatted_date(value, fmt: str) -> str:
    if not value:
        return ""
    if not isinstance(value, dt.date):  # already words (a chronology row's text)
        return str(value)
    if isinstance(value, dt.datetime):
        value = timezone.localtime(value) if timezone.is_aware(value) else value
    return date_format(value, fmt)


def human_date(value) -> str:
    return _formatted_date(value, DATE)


def human_long_date(value) -> str:
    """A date as a sentence says it: "Monday, March 16, 2026" (issue 25)."""
    return _formatted_date(value, LONG_DATE)


def human_time(value) -> str:
    if not value:
        return ""
    if not isinstance(value, (dt.datetime, dt.time)):
        return str(value)
    if isinstance(value, dt.datetime) and timezone.is_aware(value):
        value = timezone.localtime(value)
    return date_format(value, TIME)


def human_datetime(value) -> str:
    if not value:
        return ""
    if not isinstance(value, dt.datetime):
        return human_date(value)
    return f"{human_date(value)}, {human_time(value)}"


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
