"""Dates and times as staff read them: "Thu, Dec 3, 2026" and "2:04 PM" (issue 16);
a date a sentence states in full, "Monday, March 16, 2026" (long_date).

Letters and PDFs keep their own date style; these are for staff pages and
their messages."""

from __future__ import annotations

import datetime as dt

from django.utils import timezone
from django.utils.dateformat import format as date_format

DATE = "D, M j, Y"
LONG_DATE = "l, F j, Y"
TIME = "g:i A"


def human_date(value) -> str:
    if not value:
        return ""
    if not isinstance(value, dt.date):  # already words (a chronology row's text)
        return str(value)
    if isinstance(value, dt.datetime):
        value = timezone.localtime(value) if timezone.is_aware(value) else value
    return date_format(value, DATE)


def long_date(value) -> str:
    """A date in full, as a sentence says it: "Monday, March 16, 2026"."""
    if not value:
        return ""
    if not isinstance(value, dt.date):
        return str(value)
    if isinstance(value, dt.datetime):
        value = timezone.localtime(value) if timezone.is_aware(value) else value
    return date_format(value, LONG_DATE)


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
