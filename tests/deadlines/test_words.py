"""deadlines.words (issue 26): a stored deadline explained to the person
it binds — no rule id, no ISO date, no "GCL" shorthand — and its legal basis
in words. Pure: the calendar is given."""

import datetime as dt
import re

import pytest

from deadlines.business_days import BusinessCalendar
from deadlines.engine import compute
from deadlines.words import legal_basis, people_explanation

RULE_ID = re.compile(r"R-[A-Z]{3}-\d")
ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def words(rule_id, event, cal=None, **params):
    due = compute(rule_id, event, calendar=cal, **params).due
    text = people_explanation(rule_id, event, due, calendar=cal, params=params)
    assert not RULE_ID.search(text) and not ISO_DATE.search(text)
    assert "GCL" not in text and "§" not in text
    return text


def test_a_weekend_roll_over_in_one_sentence():
    # R-NOV-1: Thursday 2026-12-03 + 10 days = Sunday 12-13 → Monday 12-14.
    assert words("R-NOV-1", dt.date(2026, 12, 3), days=10) == (
        "Counted 10 days from the notice date, Thursday, December 3, 2026; the "
        "last day fell on a weekend, so it moves to Monday, December 14, 2026."
    )


def test_a_last_day_that_needs_no_move():
    assert words("R-APL-1", dt.date(2026, 3, 2)) == (
        "Counted 15 days from the notice date, Monday, March 2, 2026; the last "
        "day is Tuesday, March 17, 2026."
    )


def test_a_holiday_is_named_and_an_office_closure_says_why():
    # R-APL-1: Thursday 2026-12-10 + 15 = Friday 12-25, Christmas Day.
    assert "fell on Christmas Day, a public holiday, and then a weekend" in words(
        "R-APL-1", dt.date(2026, 12, 10)
    )
    closed = BusinessCalendar({dt.date(2026, 3, 17): "storm"})
    assert (
        "fell on a day the village office was closed (storm), so it moves to "
        "Wednesday, March 18, 2026"
    ) in words("R-APL-1", dt.date(2026, 3, 2), closed)


def test_an_observed_holiday_drops_the_statute_shorthand():
    # 2027-12-25 is a Saturday; 2022-12-25 a Sunday → Monday 12-26 observed.
    text = words("R-APL-1", dt.date(2022, 12, 11))
    assert "Christmas Day (observed), a public holiday" in text


def test_business_days_and_a_date_the_notice_gave_that_stands():
    text = words("R-COR-1", dt.date(2026, 11, 20))
    assert text.startswith("Counted 5 business days from the day of the Board's")
    later = dt.date(2026, 12, 11)
    text = people_explanation("R-COR-1", dt.date(2026, 11, 20), later)
    assert text.endswith(
        "The notice itself gave until Friday, December 11, 2026, which is later, "
        "so that date stands."
    )


@pytest.mark.django_db
def test_the_legal_basis_in_words():
    text = legal_basis("R-APL-1")
    assert text.startswith("Village Code section 132-14")
    assert text.endswith("General Construction Law sections 20 and 25-a.")
    assert "§" not in text and not RULE_ID.search(text)
