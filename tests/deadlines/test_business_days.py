"""The business calendar pinned against General Construction Law § 24.

Every expected date below is written out by hand from the statute and a printed
calendar, never computed by the code under test.
"""

from datetime import date, datetime

import pytest

from deadlines.business_days import BusinessCalendar, public_holidays

NYD = "New Year's Day"
MLK = "Martin Luther King Jr. Day"
LINCOLN = "Lincoln's Birthday"
WASHINGTON = "Washington's Birthday"
MEMORIAL = "Memorial Day"
FLAG = "Flag Day"
JUNETEENTH = "Juneteenth"
JULY_4 = "Independence Day"
LABOR = "Labor Day"
COLUMBUS = "Columbus Day"
ELECTION = "Election Day"
VETERANS = "Veterans' Day"
THANKSGIVING = "Thanksgiving Day"
CHRISTMAS = "Christmas Day"

# § 24, year by year. Sunday holidays other than Flag Day add the Monday after;
# Saturday holidays add nothing (2026-07-04, 2027-06-19, 2027-12-25,
# 2028-01-01, 2028-02-12, 2028-11-11).
EXPECTED_HOLIDAYS = {
    2025: {
        date(2025, 1, 1): NYD,
        date(2025, 1, 20): MLK,
        date(2025, 2, 12): LINCOLN,
        date(2025, 2, 17): WASHINGTON,
        date(2025, 5, 26): MEMORIAL,
        date(2025, 6, 8): FLAG,
        date(2025, 6, 19): JUNETEENTH,
        date(2025, 7, 4): JULY_4,
        date(2025, 9, 1): LABOR,
        date(2025, 10, 13): COLUMBUS,
        date(2025, 11, 4): ELECTION,
        date(2025, 11, 11): VETERANS,
        date(2025, 11, 27): THANKSGIVING,
        date(2025, 12, 25): CHRISTMAS,
    },
    2026: {
        date(2026, 1, 1): NYD,
        date(2026, 1, 19): MLK,
        date(2026, 2, 12): LINCOLN,
        date(2026, 2, 16): WASHINGTON,
        date(2026, 5, 25): MEMORIAL,
        date(2026, 6, 14): FLAG,
        date(2026, 6, 19): JUNETEENTH,
        date(2026, 7, 4): JULY_4,  # a Saturday: no Friday observance
        date(2026, 9, 7): LABOR,
        date(2026, 10, 12): COLUMBUS,
        date(2026, 11, 3): ELECTION,
        date(2026, 11, 11): VETERANS,
        date(2026, 11, 26): THANKSGIVING,
        date(2026, 12, 25): CHRISTMAS,
    },
    2027: {
        date(2027, 1, 1): NYD,
        date(2027, 1, 18): MLK,
        date(2027, 2, 12): LINCOLN,
        date(2027, 2, 15): WASHINGTON,
        date(2027, 5, 31): MEMORIAL,
        date(2027, 6, 13): FLAG,
        date(2027, 6, 19): JUNETEENTH,  # a Saturday
        date(2027, 7, 4): JULY_4,  # a Sunday ...
        date(2027, 7, 5): "Independence Day (observed, GCL § 24)",  # ... so Monday
        date(2027, 9, 6): LABOR,
        date(2027, 10, 11): COLUMBUS,
        date(2027, 11, 2): ELECTION,
        date(2027, 11, 11): VETERANS,
        date(2027, 11, 25): THANKSGIVING,
        date(2027, 12, 25): CHRISTMAS,  # a Saturday: Friday 12-24 is a workday
    },
    2028: {
        date(2028, 1, 1): NYD,  # a Saturday: Friday 2027-12-31 is a workday
        date(2028, 1, 17): MLK,
        date(2028, 2, 12): LINCOLN,  # a Saturday
        date(2028, 2, 21): WASHINGTON,
        date(2028, 5, 29): MEMORIAL,
        date(2028, 6, 11): FLAG,
        date(2028, 6, 19): JUNETEENTH,
        date(2028, 7, 4): JULY_4,
        date(2028, 9, 4): LABOR,
        date(2028, 10, 9): COLUMBUS,
        date(2028, 11, 7): ELECTION,
        date(2028, 11, 11): VETERANS,  # a Saturday
        date(2028, 11, 23): THANKSGIVING,
        date(2028, 12, 25): CHRISTMAS,
    },
    2029: {
        date(2029, 1, 1): NYD,
        date(2029, 1, 15): MLK,
        date(2029, 2, 12): LINCOLN,
        date(2029, 2, 19): WASHINGTON,
        date(2029, 5, 28): MEMORIAL,
        date(2029, 6, 10): FLAG,
        date(2029, 6, 19): JUNETEENTH,
        date(2029, 7, 4): JULY_4,
        date(2029, 9, 3): LABOR,
        date(2029, 10, 8): COLUMBUS,
        date(2029, 11, 6): ELECTION,
        date(2029, 11, 11): VETERANS,  # a Sunday ...
        date(2029, 11, 12): "Veterans' Day (observed, GCL § 24)",  # ... so Monday
        date(2029, 11, 22): THANKSGIVING,
        date(2029, 12, 25): CHRISTMAS,
    },
    2030: {
        date(2030, 1, 1): NYD,
        date(2030, 1, 21): MLK,
        date(2030, 2, 12): LINCOLN,
        date(2030, 2, 18): WASHINGTON,
        date(2030, 5, 27): MEMORIAL,
        date(2030, 6, 9): FLAG,
        date(2030, 6, 19): JUNETEENTH,
        date(2030, 7, 4): JULY_4,
        date(2030, 9, 2): LABOR,
        date(2030, 10, 14): COLUMBUS,
        date(2030, 11, 5): ELECTION,
        date(2030, 11, 11): VETERANS,
        date(2030, 11, 28): THANKSGIVING,
        date(2030, 12, 25): CHRISTMAS,
    },
}


@pytest.mark.parametrize("year", sorted(EXPECTED_HOLIDAYS))
def test_public_holidays_match_gcl_24_exactly(year):
    assert public_holidays(year) == EXPECTED_HOLIDAYS[year]


@pytest.mark.parametrize("year", sorted(EXPECTED_HOLIDAYS))
def test_public_holidays_are_returned_in_date_order(year):
    days = list(public_holidays(year))
    assert days == sorted(days)


@pytest.mark.parametrize(
    ("year", "election_day"),
    [
        (2025, date(2025, 11, 4)),
        (2026, date(2026, 11, 3)),
        (2027, date(2027, 11, 2)),
        (2028, date(2028, 11, 7)),
        (2029, date(2029, 11, 6)),
        (2030, date(2030, 11, 5)),
        # November 1 is a Tuesday: the first Monday is the 7th, so the 8th.
        (2022, date(2022, 11, 8)),
    ],
)
def test_general_election_day_is_the_tuesday_after_the_first_monday(year, election_day):
    assert public_holidays(year)[election_day] == ELECTION
    assert BusinessCalendar().is_business_day(election_day) is False


def test_sunday_new_years_day_makes_monday_a_holiday():
    holidays_2023 = public_holidays(2023)
    assert holidays_2023[date(2023, 1, 1)] == NYD
    assert holidays_2023[date(2023, 1, 2)] == "New Year's Day (observed, GCL § 24)"


def test_sunday_lincolns_birthday_makes_monday_a_holiday():
    assert public_holidays(2023)[date(2023, 2, 13)] == (
        "Lincoln's Birthday (observed, GCL § 24)"
    )


def test_sunday_christmas_and_juneteenth_make_monday_a_holiday():
    holidays_2022 = public_holidays(2022)
    assert holidays_2022[date(2022, 12, 26)] == "Christmas Day (observed, GCL § 24)"
    assert holidays_2022[date(2022, 6, 20)] == "Juneteenth (observed, GCL § 24)"


def test_flag_day_is_always_a_sunday_and_never_observed_on_monday():
    assert public_holidays(2026)[date(2026, 6, 14)] == FLAG
    assert date(2026, 6, 15) not in public_holidays(2026)
    assert BusinessCalendar().is_business_day(date(2026, 6, 15)) is True


@pytest.mark.parametrize(
    "friday",
    [
        date(2026, 7, 3),  # before Saturday Independence Day
        date(2027, 6, 18),  # before Saturday Juneteenth
        date(2027, 12, 24),  # before Saturday Christmas
        date(2027, 12, 31),  # before Saturday New Year's Day 2028
        date(2028, 2, 11),  # before Saturday Lincoln's Birthday
        date(2028, 11, 10),  # before Saturday Veterans' Day
    ],
)
def test_saturday_holiday_does_not_move_to_friday(friday):
    assert BusinessCalendar().is_business_day(friday) is True
    assert BusinessCalendar().holiday_name(friday) is None


def test_saturday_holiday_does_not_move_to_monday_either():
    assert BusinessCalendar().is_business_day(date(2027, 12, 27)) is True
    assert BusinessCalendar().is_business_day(date(2028, 1, 3)) is True


def test_public_holidays_returns_a_fresh_dict_each_time():
    first = public_holidays(2026)
    first.clear()
    assert public_holidays(2026)[date(2026, 12, 25)] == CHRISTMAS


def test_public_holidays_rejects_a_non_integer_year():
    with pytest.raises(TypeError):
        public_holidays("2026")


# --- the holidays package: why it is not used directly -----------------------

# Every date, 2025-2030, where holidays.country_holidays("US", subdiv="NY")
# and GCL § 24 disagree.
PACKAGE_ONLY = {
    # Susan B. Anthony Day (Feb 15) is a New York commemoration, not a § 24
    # public holiday. (In 2027 it falls on Washington's Birthday, so no date
    # difference that year.)
    date(2025, 2, 15),
    date(2026, 2, 15),
    date(2028, 2, 15),
    date(2029, 2, 15),
    date(2030, 2, 15),
    # Saturday holidays "observed" on the Friday before; § 24 has no such rule.
    date(2026, 7, 3),
    date(2027, 6, 18),
    date(2027, 12, 24),
    date(2027, 12, 31),
    date(2028, 2, 11),
    date(2028, 11, 10),
}
STATUTE_ONLY = {
    # Flag Day (second Sunday in June) is in § 24 but not in the package.
    date(2025, 6, 8),
    date(2026, 6, 14),
    date(2027, 6, 13),
    date(2028, 6, 11),
    date(2029, 6, 10),
    date(2030, 6, 9),
}
# The package differences that fall on a weekday would wrongly stretch a deadline.
PACKAGE_ONLY_WEEKDAYS = {
    date(2026, 7, 3),
    date(2027, 6, 18),
    date(2027, 12, 24),
    date(2027, 12, 31),
    date(2028, 2, 11),
    date(2028, 2, 15),
    date(2028, 11, 10),
    date(2029, 2, 15),
    date(2030, 2, 15),
}


def _package_dates():
    holidays = pytest.importorskip("holidays")
    found = {}
    for year in range(2025, 2031):
        found.update(holidays.country_holidays("US", subdiv="NY", years=year))
    return found


def test_holidays_package_differs_from_gcl_24_exactly_here():
    package = _package_dates()
    statute = {}
    for year in range(2025, 2031):
        statute.update(public_holidays(year))

    assert set(package) - set(statute) == PACKAGE_ONLY
    assert set(statute) - set(package) == STATUTE_ONLY
    assert "Susan B. Anthony Day" in package[date(2027, 2, 15)]
    assert statute[date(2027, 2, 15)] == WASHINGTON


def test_holidays_package_would_close_these_business_days():
    calendar = BusinessCalendar()
    package_weekdays = {day for day in PACKAGE_ONLY if day.weekday() < 5}
    assert package_weekdays == PACKAGE_ONLY_WEEKDAYS
    assert all(calendar.is_business_day(day) for day in PACKAGE_ONLY_WEEKDAYS)


# --- BusinessCalendar ----------------------------------------------------------

STORM = {date(2026, 3, 17): "storm"}


def test_holiday_name_and_closure_reason():
    calendar = BusinessCalendar(STORM)
    assert calendar.holiday_name(date(2026, 11, 26)) == THANKSGIVING
    assert calendar.holiday_name(date(2026, 11, 27)) is None
    assert calendar.closure_reason(date(2026, 3, 17)) == "storm"
    assert calendar.closure_reason(date(2026, 3, 18)) is None


@pytest.mark.parametrize(
    ("day", "reason"),
    [
        (date(2026, 3, 14), "a Saturday"),
        (date(2026, 3, 15), "a Sunday"),
        (date(2026, 12, 25), "Christmas Day"),
        (date(2027, 12, 25), "Christmas Day"),  # a Saturday: the holiday is named
        (date(2026, 3, 17), "village office closed: storm"),
        (date(2026, 3, 16), None),
        (date(2026, 2, 12), "Lincoln's Birthday"),
    ],
)
def test_why_not_business_day(day, reason):
    assert BusinessCalendar(STORM).why_not_business_day(day) == reason


def test_weekdays_that_are_neither_holiday_nor_closure_are_business_days():
    calendar = BusinessCalendar(STORM)
    assert calendar.is_business_day(date(2026, 3, 16)) is True  # Monday
    assert calendar.is_business_day(date(2026, 3, 17)) is False  # closed
    assert calendar.is_business_day(date(2026, 3, 20)) is True  # Friday
    assert calendar.is_business_day(date(2026, 3, 21)) is False  # Saturday


def test_next_business_day_skips_a_holiday_weekend():
    # Friday before Martin Luther King Jr. Day (Monday 2026-01-19).
    assert BusinessCalendar().next_business_day(date(2026, 1, 16)) == date(2026, 1, 20)


def test_next_business_day_is_strictly_after_a_business_day():
    assert BusinessCalendar().next_business_day(date(2026, 3, 16)) == date(2026, 3, 17)


def test_next_business_day_crosses_the_year_end():
    # Thursday 2026-12-31 -> Friday 2027-01-01 is New Year's Day -> Monday.
    assert BusinessCalendar().next_business_day(date(2026, 12, 31)) == date(2027, 1, 4)


def test_add_business_days_skips_an_office_closure_in_the_middle():
    calendar = BusinessCalendar(STORM)
    # Monday 03-16; Tuesday 03-17 closed; Wed 18, Thu 19, Fri 20.
    assert calendar.add_business_days(date(2026, 3, 16), 3) == date(2026, 3, 20)
    assert BusinessCalendar().add_business_days(date(2026, 3, 16), 3) == date(
        2026, 3, 19
    )


def test_add_business_days_never_counts_the_event_day():
    # Saturday event: Monday is the first business day after it.
    assert BusinessCalendar().add_business_days(date(2026, 3, 14), 1) == date(
        2026, 3, 16
    )


def test_add_zero_business_days_is_the_same_day():
    assert BusinessCalendar().add_business_days(date(2026, 3, 14), 0) == date(
        2026, 3, 14
    )


def test_add_negative_business_days_is_refused():
    with pytest.raises(ValueError, match="negative"):
        BusinessCalendar().add_business_days(date(2026, 3, 16), -1)


def test_roll_forward_keeps_a_business_day():
    assert BusinessCalendar().roll_forward(date(2026, 3, 16)) == date(2026, 3, 16)


def test_roll_forward_moves_a_saturday_to_monday():
    assert BusinessCalendar().roll_forward(date(2026, 3, 14)) == date(2026, 3, 16)


def test_roll_forward_moves_a_weekday_holiday_to_the_next_day():
    # Lincoln's Birthday, Thursday 2026-02-12.
    assert BusinessCalendar().roll_forward(date(2026, 2, 12)) == date(2026, 2, 13)


def test_roll_forward_passes_a_sunday_holiday_and_its_monday_observance():
    # Sunday 2027-07-04, Monday 2027-07-05 observed -> Tuesday.
    assert BusinessCalendar().roll_forward(date(2027, 7, 4)) == date(2027, 7, 6)


def test_roll_forward_from_saturday_new_years_day_lands_on_monday():
    assert BusinessCalendar().roll_forward(date(2028, 1, 1)) == date(2028, 1, 3)


def test_roll_forward_moves_an_office_closure():
    assert BusinessCalendar(STORM).roll_forward(date(2026, 3, 17)) == date(2026, 3, 18)


def test_calendar_copies_its_closures():
    closures = {date(2026, 3, 17): "storm"}
    calendar = BusinessCalendar(closures)
    closures[date(2026, 3, 18)] = "added later"
    del closures[date(2026, 3, 17)]
    assert calendar.is_business_day(date(2026, 3, 18)) is True
    assert calendar.is_business_day(date(2026, 3, 17)) is False
    with pytest.raises(TypeError):
        calendar.closures[date(2026, 3, 19)] = "not allowed"


def test_calendar_rejects_a_datetime():
    with pytest.raises(TypeError):
        BusinessCalendar().is_business_day(datetime(2026, 3, 16, 9, 0))  # noqa: DTZ001
    with pytest.raises(TypeError):
        BusinessCalendar({datetime(2026, 3, 16, 9, 0): "storm"})  # noqa: DTZ001


def test_closures_belong_to_one_calendar_only():
    open_calendar = BusinessCalendar()
    BusinessCalendar(STORM)
    assert open_calendar.is_business_day(date(2026, 3, 17)) is True
