"""The reporting year of the SPDES MS4 general permit: March 10 to March 9.

"2026" is the year that begins on March 10, 2026 and ends at the end of March 9,
2027, in the village's time zone (settings.TIME_ZONE): its boundaries are local
midnights, so a record of March 9 at 23:59 belongs to the year before the one
beginning on March 10 at 00:00."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from django.utils import timezone

START_MONTH, START_DAY = 3, 10
FIRST_YEAR = 2000


class UnknownYear(ValueError):
    """Not a reporting year this office can report on (the message says why)."""


@dataclass(frozen=True, order=True)
class ReportingYear:
    """The reporting year starting on March 10 of `start_year`."""

    start_year: int

    @classmethod
    def containing(cls, moment: dt.datetime | dt.date | None = None) -> ReportingYear:
        """The reporting year a moment (or a local date) falls in; now by default."""
        if moment is None:
            moment = timezone.now()
        day = (
            timezone.localtime(moment).date()
            if isinstance(moment, dt.datetime)
            else moment
        )
        year = (
            day.year
            if (day.month, day.day) >= (START_MONTH, START_DAY)
            else day.year - 1
        )
        return cls(year)

    @classmethod
    def current(cls) -> ReportingYear:
        return cls.containing(timezone.now())

    @classmethod
    def parse(cls, text) -> ReportingYear:
        """The year typed in a URL or form ("2026"); UnknownYear with a message
        for anything else, or for a year that has not begun."""
        value = str(text or "").strip()
        if not re.fullmatch(r"[0-9]{4}", value):
            raise UnknownYear(
                f"“{value[:20]}” is not a reporting year: give the year it starts "
                "in, four digits (e.g. 2026 for March 10, 2026 – March 9, 2027)."
            )
        year = cls(int(value))
        current = cls.current()
        if year.start_year < FIRST_YEAR or year > current:
            raise UnknownYear(
                f"There is no report for {value}: reporting years from "
                f"{FIRST_YEAR} to {current.start_year} (the current one)."
            )
        return year

    # --- boundaries (local midnights) ------------------------------------------
    @property
    def first_day(self) -> dt.date:
        return dt.date(self.start_year, START_MONTH, START_DAY)

    @property
    def last_day(self) -> dt.date:
        return dt.date(self.start_year + 1, START_MONTH, START_DAY - 1)

    @property
    def start(self) -> dt.datetime:
        """The first moment of the year: March 10, 00:00 local."""
        return _local_midnight(self.first_day)

    @property
    def end(self) -> dt.datetime:
        """The first moment after the year: the next March 10, 00:00 local."""
        return _local_midnight(self.last_day + dt.timedelta(days=1))

    def contains(self, moment) -> bool:
        if isinstance(moment, dt.datetime):
            return self.start <= moment < self.end
        return self.first_day <= moment <= self.last_day

    @property
    def is_current(self) -> bool:
        return self == ReportingYear.current()

    def previous(self) -> ReportingYear:
        return ReportingYear(self.start_year - 1)

    def months(self) -> list[dt.date]:
        """The first day of each of the 13 calendar months the year touches
        (March 10–31 … March 1–9)."""
        out, day = [], self.first_day.replace(day=1)
        while day <= self.last_day:
            out.append(day)
            day = (day + dt.timedelta(days=32)).replace(day=1)
        return out

    @property
    def label(self) -> str:
        return f"{self.first_day:%B} {self.first_day.day}, {self.start_year} – {self.last_day:%B} {self.last_day.day}, {self.start_year + 1}"

    def __str__(self) -> str:
        return str(self.start_year)


def _local_midnight(day: dt.date) -> dt.datetime:
    return timezone.make_aware(dt.datetime.combine(day, dt.time.min))
