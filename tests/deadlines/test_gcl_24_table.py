"""The calendar's holiday table is General Construction Law § 24, nothing more and
nothing less (issue 19).

The issue asked to remove Flag Day as "not a § 24 public holiday". The statute's
text says otherwise: § 24 (as amended by ch. 249 of the Laws of 2020) lists "the
second Sunday in June, known as Flag day", and its Sunday rule excepts it by
name ("if any of such days except Flag day is Sunday, the next day
thereafter"). So Flag Day stays in the table; it is a Sunday, never a business
day anyway, and never observed on the Monday after — no computed date depends
on it either way. The list below is the statute's, in its order, written out
by hand from the text."""

from datetime import date

from deadlines.business_days import (
    _statutory_days,
    public_holidays,
)

# § 24: "The term public holiday includes the following days in each year: ..."
# (the statute's words → the name the calendar gives the day)
GCL_24_LIST = [
    ("the first day of January", "New Year's Day"),
    ("the third Monday of January", "Martin Luther King Jr. Day"),
    ("the twelfth day of February", "Lincoln's Birthday"),
    ("the third Monday in February", "Washington's Birthday"),
    ("the last Monday in May", "Memorial Day"),
    ("the second Sunday in June", "Flag Day"),
    ("the nineteenth day of June", "Juneteenth"),
    ("the fourth day of July", "Independence Day"),
    ("the first Monday in September", "Labor Day"),
    ("the second Monday in October", "Columbus Day"),
    ("the eleventh day of November", "Veterans' Day"),
    ("the fourth Thursday in November", "Thanksgiving Day"),
    ("the twenty-fifth day of December", "Christmas Day"),
]
# "...; each general election day, ..." (after the enumerated list)
GCL_24_ELECTION = "Election Day"

# 2027, by hand from a printed calendar, one date per phrase of the statute.
BY_HAND_2027 = {
    "New Year's Day": date(2027, 1, 1),
    "Martin Luther King Jr. Day": date(2027, 1, 18),
    "Lincoln's Birthday": date(2027, 2, 12),
    "Washington's Birthday": date(2027, 2, 15),
    "Memorial Day": date(2027, 5, 31),
    "Flag Day": date(2027, 6, 13),
    "Juneteenth": date(2027, 6, 19),
    "Independence Day": date(2027, 7, 4),
    "Labor Day": date(2027, 9, 6),
    "Columbus Day": date(2027, 10, 11),
    "Election Day": date(2027, 11, 2),
    "Veterans' Day": date(2027, 11, 11),
    "Thanksgiving Day": date(2027, 11, 25),
    "Christmas Day": date(2027, 12, 25),
}


def test_the_holiday_table_is_the_list_of_gcl_24_in_its_order():
    names = [name for _, name in _statutory_days(2027)]
    enumerated = [n for n in names if n != GCL_24_ELECTION]
    assert enumerated == [name for _, name in GCL_24_LIST]
    assert names.count(GCL_24_ELECTION) == 1
    assert len(names) == len(GCL_24_LIST) + 1  # nothing the statute does not name


def test_each_day_of_the_table_falls_where_the_statute_puts_it():
    assert {name: day for day, name in _statutory_days(2027)} == BY_HAND_2027


def test_flag_day_is_in_gcl_24_and_changes_no_business_day():
    """Flag Day is named in § 24 (the issue said otherwise; the text governs):
    a Sunday, with no Monday observance — so no deadline moves because of it."""
    holidays = public_holidays(2027)
    assert holidays[date(2027, 6, 13)] == "Flag Day"
    assert date(2027, 6, 13).weekday() == 6
    assert date(2027, 6, 14) not in holidays
    # The only § 24 days the year holds are the table's plus "observed" Mondays.
    observed = {d: n for d, n in holidays.items() if "(observed, GCL § 24)" in n}
    assert set(holidays) - set(observed) == set(BY_HAND_2027.values())
    assert all("Flag Day" not in n for n in observed.values())
