"""Every deadline rule on the dates that trip people up.

Expected dates are counted by hand on a printed calendar (the comments show the
count), never with the code under test.
"""

import dataclasses
from datetime import date, datetime

import pytest

from deadlines import (
    RULES,
    BusinessCalendar,
    Computation,
    UnknownRule,
    compute,
    continued_violation_weeks,
    rule_choices,
)

REQUIRED_RULES = {
    "R-SPL-3",
    "R-SPL-4",
    "R-SPL-5",
    "R-SUS-1",
    "R-APL-1",
    "R-APL-2",
    "R-APL-3",
    "R-COR-1",
    "R-DEF-2",
    "R-ACC-2",
    "R-NOV-1",
    "R-NOV-2",
    "R-BMP-1",
}
PARAMS_FOR = {"R-NOV-1": {"days": 30}, "R-NOV-2": {"days": 30}}


# --- the table -----------------------------------------------------------------


def test_rules_table_holds_every_deadline_rule():
    assert set(RULES) == REQUIRED_RULES
    for rule_id, spec in RULES.items():
        assert spec.rule_id == rule_id
        assert spec.label
        assert spec.counts_from
        assert spec.actor in {"discharger", "board", "clerk", "smo", "facility"}


def test_rule_choices_pair_ids_with_labels_in_table_order():
    choices = rule_choices()
    assert [rule_id for rule_id, _ in choices] == list(RULES)
    assert ("R-APL-1", "Appeal to the Board of Trustees") in choices


@pytest.mark.parametrize(
    ("rule_id", "method"),
    [
        ("R-SPL-3", "business_days"),
        ("R-SPL-4", "business_days"),
        ("R-SPL-5", "years"),
        ("R-SUS-1", "business_days"),
        ("R-APL-1", "calendar_days+25a"),
        ("R-APL-2", "calendar_days+25a"),
        ("R-APL-3", "calendar_days+25a"),
        ("R-COR-1", "business_days"),
        ("R-DEF-2", "months+25a"),
        ("R-ACC-2", "months+25a"),
        ("R-NOV-1", "calendar_days+25a"),
        ("R-NOV-2", "calendar_days+25a"),
        ("R-BMP-1", "calendar_days+25a"),
    ],
)
def test_each_rule_records_how_it_counts_and_names_itself(rule_id, method):
    result = compute(rule_id, date(2026, 3, 2), **PARAMS_FOR.get(rule_id, {}))
    assert result.rule_id == rule_id
    assert result.event_date == date(2026, 3, 2)
    assert result.method == method
    assert f"Rule {rule_id} ({RULES[rule_id].label})" in result.explanation


def test_computation_is_frozen():
    result = compute("R-APL-1", date(2026, 12, 10))
    assert isinstance(result, Computation)
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.due = date(2027, 1, 1)


# --- R-APL-1: appeal within 15 days of issuance --------------------------------


def test_appeal_due_on_christmas_rolls_to_monday():
    # Dec 10 + 15 = Fri Dec 25 (Christmas); Sat 26, Sun 27; Mon Dec 28.
    result = compute("R-APL-1", date(2026, 12, 10))
    assert result.due == date(2026, 12, 28)
    assert result.explanation == (
        "15 calendar days after Thursday, December 10, 2026 is Friday, December 25, 2026, "
        "Christmas Day; moved to the next business day, Monday, December 28, 2026 "
        "(GCL § 25-a). Rule R-APL-1 (Appeal to the Board of Trustees) counts "
        "from the issuance of the notice of violation; that day itself is not "
        "counted (GCL § 20)."
    )


def test_appeal_due_on_a_business_day_is_not_moved():
    # Mon Mar 2 + 15 = Tue Mar 17.
    result = compute("R-APL-1", date(2026, 3, 2))
    assert result.due == date(2026, 3, 17)
    assert result.explanation.startswith(
        "15 calendar days after Monday, March 2, 2026 is Tuesday, March 17, 2026. "
    )
    assert "moved" not in result.explanation


def test_appeal_due_on_saturday_christmas_rolls_to_monday_not_friday():
    # Dec 10 2027 + 15 = Sat Dec 25; no Friday or Monday observance; Mon Dec 27.
    result = compute("R-APL-1", date(2027, 12, 10))
    assert result.due == date(2027, 12, 27)
    assert (
        "is Saturday, December 25, 2027, Christmas Day; moved to the next business day, "
        "Monday, December 27, 2027 (GCL § 25-a)." in result.explanation
    )


def test_appeal_due_on_saturday_new_years_day_rolls_into_january():
    # Fri Dec 17 2027 + 15 = Sat Jan 1 2028; Sun Jan 2; Mon Jan 3.
    assert compute("R-APL-1", date(2027, 12, 17)).due == date(2028, 1, 3)


def test_appeal_counted_from_new_years_eve_runs_into_january():
    # Thu Dec 31 2026 + 15 = Fri Jan 15 2027, a business day.
    assert compute("R-APL-1", date(2026, 12, 31)).due == date(2027, 1, 15)


def test_appeal_due_on_lincolns_birthday_rolls_to_friday():
    # Wed Jan 28 2026 + 15 = Thu Feb 12 (Lincoln's Birthday); Fri Feb 13.
    result = compute("R-APL-1", date(2026, 1, 28))
    assert result.due == date(2026, 2, 13)
    assert (
        "Thursday, February 12, 2026, Lincoln's Birthday; moved" in result.explanation
    )


def test_appeal_due_on_election_day_rolls_to_wednesday():
    # Mon Oct 19 2026 + 15 = Tue Nov 3 (Election Day); Wed Nov 4.
    result = compute("R-APL-1", date(2026, 10, 19))
    assert result.due == date(2026, 11, 4)
    assert "Tuesday, November 3, 2026, Election Day; moved" in result.explanation


def test_appeal_due_on_a_plain_saturday_does_not_repeat_the_weekday():
    # Fri Feb 27 2026 + 15: Feb 28 is day 1, Sat Mar 14 is day 15; Mon Mar 16.
    result = compute("R-APL-1", date(2026, 2, 27))
    assert result.due == date(2026, 3, 16)
    assert result.explanation.startswith(
        "15 calendar days after Friday, February 27, 2026 is Saturday, March 14, 2026; "
        "moved to the next business day, Monday, March 16, 2026 (GCL § 25-a)."
    )


def test_appeal_due_on_an_office_closure_rolls_and_says_why():
    # Mon Mar 2 + 15 = Tue Mar 17, office closed; Wed Mar 18.
    calendar = BusinessCalendar({date(2026, 3, 17): "storm"})
    result = compute("R-APL-1", date(2026, 3, 2), calendar=calendar)
    assert result.due == date(2026, 3, 18)
    assert result.explanation.startswith(
        "15 calendar days after Monday, March 2, 2026 is Tuesday, March 17, 2026, village "
        "office closed: storm; moved to the next business day, Wednesday, "
        "March 18, 2026 (GCL § 25-a; a day the village office is closed counts like "
        "a holiday, because nothing can be filed at a closed office)."
    )


def test_appeal_due_on_christmas_with_the_office_closed_on_monday_too():
    # Fri Dec 25 (Christmas), weekend, Mon Dec 28 closed; Tue Dec 29.
    calendar = BusinessCalendar({date(2026, 12, 28): "heating failure"})
    result = compute("R-APL-1", date(2026, 12, 10), calendar=calendar)
    assert result.due == date(2026, 12, 29)
    assert (
        "skipping Monday, December 28, 2026, village office closed: heating failure."
        in result.explanation
    )
    assert "nothing can be filed at a closed office" in result.explanation


def test_appeal_counted_from_a_weekend_issuance_still_counts_calendar_days():
    # Sat Mar 7 + 15 = Sun Mar 22; Mon Mar 23.
    assert compute("R-APL-1", date(2026, 3, 7)).due == date(2026, 3, 23)


# --- R-APL-2: hearing within 30 days after the filing --------------------------


def test_hearing_due_on_sunday_independence_day_skips_the_monday_observance():
    # Fri Jun 4 2027 + 30 = Sun Jul 4; Mon Jul 5 observed; Tue Jul 6.
    result = compute("R-APL-2", date(2027, 6, 4))
    assert result.due == date(2027, 7, 6)
    assert result.explanation.startswith(
        "30 calendar days after Friday, June 4, 2027 is Sunday, July 4, 2027, "
        "Independence Day; moved to the next business day, Tuesday, July 6, 2027 "
        "(GCL § 25-a), skipping Monday, July 5, 2027, Independence Day (observed, "
        "GCL § 24)."
    )


def test_hearing_due_on_leap_day():
    # Sun Jan 30 2028 + 30: Jan 31 is day 1, Feb 29 is day 30 (a Tuesday).
    assert compute("R-APL-2", date(2028, 1, 30)).due == date(2028, 2, 29)


def test_hearing_counted_across_a_leap_day():
    # Tue Feb 15 2028 + 30: Feb 16..29 are days 1-14, Mar 16 is day 30 (Thu).
    assert compute("R-APL-2", date(2028, 2, 15)).due == date(2028, 3, 16)


# --- R-APL-3: decision filed and mailed within 5 days --------------------------


def test_decision_filing_due_on_veterans_day_rolls_to_thursday():
    # Fri Nov 6 2026 + 5 = Wed Nov 11 (Veterans' Day); Thu Nov 12.
    assert compute("R-APL-3", date(2026, 11, 6)).due == date(2026, 11, 12)


def test_decision_filing_due_on_new_years_day_rolls_into_january():
    # Thu Dec 27 2029 + 5 = Tue Jan 1 2030; Wed Jan 2.
    result = compute("R-APL-3", date(2029, 12, 27))
    assert result.due == date(2030, 1, 2)
    assert "certified mail" in result.explanation


# --- R-SPL-3: spill notice no later than the next business day -----------------


def test_spill_known_on_friday_before_a_monday_holiday_is_due_tuesday():
    # Fri Jan 16 2026; Mon Jan 19 is Martin Luther King Jr. Day; Tue Jan 20.
    result = compute("R-SPL-3", date(2026, 1, 16))
    assert result.due == date(2026, 1, 20)
    assert result.explanation.startswith(
        "The next business day after Friday, January 16, 2026 (skipping Monday, "
        "January 19, 2026, Martin Luther King Jr. Day) is Tuesday, January 20, 2026."
    )


def test_spill_known_on_saturday_is_due_monday():
    assert compute("R-SPL-3", date(2026, 11, 21)).due == date(2026, 11, 23)


def test_spill_known_on_new_years_eve_is_due_after_the_holiday_weekend():
    # Thu Dec 31 2026; Fri Jan 1 holiday; Mon Jan 4 2027.
    assert compute("R-SPL-3", date(2026, 12, 31)).due == date(2027, 1, 4)


def test_spill_known_on_the_eve_of_veterans_day():
    # Tue Nov 10 2026; Wed Nov 11 Veterans' Day; Thu Nov 12.
    assert compute("R-SPL-3", date(2026, 11, 10)).due == date(2026, 11, 12)


# --- R-SPL-4: written confirmation within 3 business days ----------------------


def test_written_confirmation_before_thanksgiving_is_not_affected_by_it():
    # Fri Nov 20 2026: Mon 23, Tue 24, Wed 25.
    result = compute("R-SPL-4", date(2026, 11, 20))
    assert result.due == date(2026, 11, 25)
    assert result.explanation.startswith(
        "3 business days after Friday, November 20, 2026 is Wednesday, November 25, 2026. "
    )


def test_written_confirmation_skips_thanksgiving_and_an_office_closure():
    # Wed Nov 25 2026: Thu 26 Thanksgiving, Fri 27 closed; Mon 30, Tue Dec 1,
    # Wed Dec 2.
    calendar = BusinessCalendar({date(2026, 11, 27): "day after Thanksgiving"})
    result = compute("R-SPL-4", date(2026, 11, 25), calendar=calendar)
    assert result.due == date(2026, 12, 2)
    assert result.explanation.startswith(
        "3 business days after Wednesday, November 25, 2026 (skipping Thursday, "
        "November 26, 2026, Thanksgiving Day; Friday, November 27, 2026, village office closed: "
        "day after Thanksgiving) is Wednesday, December 2, 2026. Rule R-SPL-4"
    )
    assert "(GCL § 24)" in result.explanation


def test_written_confirmation_without_the_closure_is_a_day_earlier():
    # Wed Nov 25 2026: Thu 26 Thanksgiving; Fri 27, Mon 30, Tue Dec 1.
    assert compute("R-SPL-4", date(2026, 11, 25)).due == date(2026, 12, 1)


def test_written_confirmation_skips_lincolns_birthday():
    # Mon Feb 9 2026: Tue 10, Wed 11, (Thu 12 Lincoln's Birthday), Fri 13.
    assert compute("R-SPL-4", date(2026, 2, 9)).due == date(2026, 2, 13)


def test_written_confirmation_skips_election_day():
    # Fri Oct 30 2026: Mon Nov 2, (Tue Nov 3 Election Day), Wed 4, Thu 5.
    assert compute("R-SPL-4", date(2026, 10, 30)).due == date(2026, 11, 5)


def test_written_confirmation_can_fall_on_friday_before_saturday_independence_day():
    # Tue Jun 30 2026: Wed Jul 1, Thu Jul 2, Fri Jul 3. § 24 does not observe
    # Saturday Jul 4 on Friday (the holidays package would, giving Mon Jul 6).
    assert compute("R-SPL-4", date(2026, 6, 30)).due == date(2026, 7, 3)


def test_written_confirmation_with_a_closure_in_the_middle():
    # Mon Mar 16 2026: (Tue 17 closed), Wed 18, Thu 19, Fri 20.
    calendar = BusinessCalendar({date(2026, 3, 17): "storm"})
    result = compute("R-SPL-4", date(2026, 3, 16), calendar=calendar)
    assert result.due == date(2026, 3, 20)
    assert "(skipping Tuesday, March 17, 2026, village office closed: storm)" in (
        result.explanation
    )


# --- R-SPL-5: on-site record kept at least 3 years -----------------------------


def test_spill_record_from_leap_day_is_kept_until_february_28():
    result = compute("R-SPL-5", date(2028, 2, 29))
    assert result.due == date(2031, 2, 28)
    assert result.explanation.startswith(
        "3 years after Tuesday, February 29, 2028 is Friday, February 28, 2031 (there is no "
        "February 29 in 2031, so the period ends on the last day of February, "
        "GCL § 30). This is a keep-until date: it is not moved for a weekend, "
        "holiday or office closure."
    )


def test_spill_record_keep_until_date_is_not_moved_off_christmas():
    # Sat Dec 25 2027 + 3 years = Wed Dec 25 2030, Christmas: stays.
    assert compute("R-SPL-5", date(2027, 12, 25)).due == date(2030, 12, 25)


def test_spill_record_keep_until_date_is_not_moved_off_a_closure_or_weekend():
    # Sat Mar 14 2026 + 3 years = Mon Mar 14 2029; a closure that day is ignored.
    calendar = BusinessCalendar({date(2029, 3, 14): "storm"})
    assert compute("R-SPL-5", date(2026, 3, 14), calendar=calendar).due == date(
        2029, 3, 14
    )
    # Sat Mar 16 2024 + 3 years = Sun Mar 16 2027: stays on the Sunday.
    assert compute("R-SPL-5", date(2024, 3, 16)).due == date(2027, 3, 16)


def test_spill_record_period_is_fixed_by_the_ordinance():
    with pytest.raises(ValueError, match="fixes the period"):
        compute("R-SPL-5", date(2026, 3, 2), years=5)


# --- R-SUS-1: written reasons for an emergency suspension ----------------------


def test_suspension_notice_defaults_to_two_business_days():
    # Fri Jan 16 2026: (Mon 19 MLK Day), Tue 20, Wed 21.
    result = compute("R-SUS-1", date(2026, 1, 16))
    assert result.due == date(2026, 1, 21)
    assert result.explanation.startswith(
        "2 business days after Friday, January 16, 2026 (skipping Monday, January 19, 2026, "
        "Martin Luther King Jr. Day) is Wednesday, January 21, 2026."
    )
    assert "reasonable time" in result.explanation


def test_suspension_notice_period_is_a_parameter():
    # Fri Jan 16 2026: (Mon 19 MLK Day), Tue 20.
    assert compute("R-SUS-1", date(2026, 1, 16), business_days=1).due == date(
        2026, 1, 20
    )
    # Fri Jan 16 2026: Tue 20, Wed 21, Thu 22, Fri 23, Mon 26.
    assert compute("R-SUS-1", date(2026, 1, 16), business_days=5).due == date(
        2026, 1, 26
    )


def test_suspension_notice_of_zero_business_days_is_refused():
    with pytest.raises(ValueError, match="at least 1"):
        compute("R-SUS-1", date(2026, 1, 16), business_days=0)


# --- R-COR-1: correction within 5 business days of the decision ----------------


def test_correction_after_a_christmas_eve_decision_runs_past_new_years_day():
    # Thu Dec 24 2026: (Fri 25 Christmas), Mon 28, Tue 29, Wed 30, Thu 31,
    # (Fri Jan 1 New Year's Day), Mon Jan 4 2027.
    result = compute("R-COR-1", date(2026, 12, 24))
    assert result.due == date(2027, 1, 4)
    assert result.explanation.startswith(
        "5 business days after Thursday, December 24, 2026 (skipping Friday, December 25, 2026, "
        "Christmas Day; Friday, January 1, 2027, New Year's Day) is Monday, January 4, 2027."
    )


def test_correction_does_not_skip_friday_before_a_saturday_christmas():
    # Mon Dec 20 2027: Tue 21, Wed 22, Thu 23, Fri 24, Mon 27.
    assert compute("R-COR-1", date(2027, 12, 20)).due == date(2027, 12, 27)


# --- R-DEF-2: program change within 6 months of a TMDL's approval --------------


def test_program_change_from_august_31_ends_on_february_28_then_rolls():
    # Aug 31 2026 + 6 months = (no Feb 31) Sun Feb 28 2027; Mon Mar 1.
    result = compute("R-DEF-2", date(2026, 8, 31))
    assert result.due == date(2027, 3, 1)
    assert result.explanation.startswith(
        "6 months after Monday, August 31, 2026 is Sunday, February 28, 2027 (there is no "
        "February 31 in 2027, so the period ends on the last day of February, "
        "GCL § 30); moved to the next business day, Monday, March 1, 2027 "
        "(GCL § 25-a)."
    )


def test_program_change_can_end_on_leap_day():
    # Aug 29 2027 + 6 months = Tue Feb 29 2028.
    assert compute("R-DEF-2", date(2027, 8, 29)).due == date(2028, 2, 29)


def test_program_change_from_august_31_in_a_leap_year_ends_on_february_29():
    # Aug 31 2027 + 6 months = Tue Feb 29 2028.
    assert compute("R-DEF-2", date(2027, 8, 31)).due == date(2028, 2, 29)


def test_program_change_due_on_sunday_independence_day():
    # Jan 4 2027 + 6 months = Sun Jul 4; Mon Jul 5 observed; Tue Jul 6.
    assert compute("R-DEF-2", date(2027, 1, 4)).due == date(2027, 7, 6)


def test_program_change_across_the_year_end_keeps_the_day_of_month():
    # Dec 15 2026 + 6 months = Tue Jun 15 2027.
    assert compute("R-DEF-2", date(2026, 12, 15)).due == date(2027, 6, 15)


# --- R-ACC-2: recalibration N months after the last calibration ----------------


def test_recalibration_defaults_to_twelve_months_and_clamps_leap_day():
    # Feb 29 2028 + 12 months = Wed Feb 28 2029.
    assert compute("R-ACC-2", date(2028, 2, 29)).due == date(2029, 2, 28)


def test_recalibration_interval_is_a_parameter():
    # Feb 29 2028 + 6 months = Tue Aug 29 2028.
    assert compute("R-ACC-2", date(2028, 2, 29), months=6).due == date(2028, 8, 29)


def test_recalibration_due_on_sunday_veterans_day_skips_its_observance():
    # Sat Nov 11 2028 + 12 months = Sun Nov 11 2029; Mon Nov 12 observed; Tue 13.
    result = compute("R-ACC-2", date(2028, 11, 11))
    assert result.due == date(2029, 11, 13)
    assert "skipping Monday, November 12, 2029, Veterans' Day (observed, GCL § 24)" in (
        result.explanation
    )


# --- R-NOV-2: remediation deadline set by the notice ---------------------------


def test_remediation_due_on_new_years_day_rolls_to_monday():
    # Wed Dec 2 2026 + 30 = Fri Jan 1 2027; Mon Jan 4.
    result = compute("R-NOV-2", date(2026, 12, 2), days=30)
    assert result.due == date(2027, 1, 4)
    assert "governmental agency or a contractor" in result.explanation


def test_remediation_deadline_needs_days():
    with pytest.raises(ValueError, match="needs days="):
        compute("R-NOV-2", date(2026, 12, 2))


@pytest.mark.parametrize("days", [-5, 0])
def test_remediation_deadline_refuses_days_below_one(days):
    with pytest.raises(ValueError, match="at least 1"):
        compute("R-NOV-2", date(2026, 12, 2), days=days)


@pytest.mark.parametrize("days", ["30", 30.0, True, None])
def test_remediation_deadline_refuses_days_that_are_not_whole_numbers(days):
    with pytest.raises(ValueError):
        compute("R-NOV-2", date(2026, 12, 2), days=days)


def test_remediation_deadline_refuses_an_unknown_parameter():
    with pytest.raises(ValueError, match="takes only days="):
        compute("R-NOV-2", date(2026, 12, 2), days=30, weeks=2)


# --- R-BMP-1: BMPs within N days of the requirement ----------------------------


def test_bmp_deadline_defaults_to_thirty_days_and_rolls_off_lincolns_birthday():
    # Tue Jan 13 2026 + 30: Jan 31 is day 18, Thu Feb 12 is day 30; Fri Feb 13.
    assert compute("R-BMP-1", date(2026, 1, 13)).due == date(2026, 2, 13)


def test_bmp_deadline_on_washingtons_birthday_rolls_to_tuesday():
    # Fri Feb 6 2026 + 10 = Mon Feb 16 (Washington's Birthday); Tue Feb 17.
    assert compute("R-BMP-1", date(2026, 2, 6), days=10).due == date(2026, 2, 17)


def test_bmp_deadline_refuses_negative_days():
    with pytest.raises(ValueError, match="at least 1"):
        compute("R-BMP-1", date(2026, 2, 6), days=-1)


# --- errors --------------------------------------------------------------------


def test_unknown_rule_is_refused():
    with pytest.raises(UnknownRule, match="R-XYZ-9"):
        compute("R-XYZ-9", date(2026, 3, 2))


def test_unknown_rule_is_a_value_error():
    with pytest.raises(ValueError):
        compute("R-PEN-4", date(2026, 3, 2))


def test_a_fixed_period_cannot_be_overridden():
    with pytest.raises(ValueError, match="fixes the period at 15 calendar days"):
        compute("R-APL-1", date(2026, 3, 2), days=20)


def test_event_date_must_be_a_date_not_a_datetime():
    with pytest.raises(TypeError):
        compute("R-APL-1", datetime(2026, 3, 2, 10, 30))  # noqa: DTZ001


# --- R-PEN-4: each week of continued violation ---------------------------------


def test_continued_violation_accrues_weekly_after_the_deadline():
    # Mon Mar 2 2026 deadline: Mar 9, 16, 23 are whole weeks by Mar 23.
    assert continued_violation_weeks(date(2026, 3, 2), date(2026, 3, 23)) == [
        date(2026, 3, 9),
        date(2026, 3, 16),
        date(2026, 3, 23),
    ]


def test_continued_violation_counts_only_whole_weeks():
    assert continued_violation_weeks(date(2026, 3, 2), date(2026, 3, 22)) == [
        date(2026, 3, 9),
        date(2026, 3, 16),
    ]
    assert continued_violation_weeks(date(2026, 3, 2), date(2026, 3, 8)) == []


def test_no_continued_violation_before_the_deadline():
    assert continued_violation_weeks(date(2026, 3, 2), date(2026, 2, 1)) == []


def test_continued_violation_weeks_run_across_year_end_and_holidays():
    # Thu Dec 18 2026: Dec 25 (Christmas) and Jan 1 still accrue.
    assert continued_violation_weeks(date(2026, 12, 18), date(2027, 1, 1)) == [
        date(2026, 12, 25),
        date(2027, 1, 1),
    ]
