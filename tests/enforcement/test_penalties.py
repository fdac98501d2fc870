"""The penalty tier calculator (R-PEN-1..3) and continued violation (R-PEN-4)."""

import datetime as dt
from decimal import Decimal

import pytest

from enforcement.models import OffenseRecord
from enforcement.penalties import (
    PriorOffense,
    continued_violation,
    fine_error,
    five_years_before,
    tier_for,
    tier_for_party,
)
from kernel.humanize import human_long_date

# The explanation cites § 132-13 B from the citation table.
pytestmark = pytest.mark.django_db

NEW = dt.date(2026, 6, 15)


def test_a_first_offense_is_tier_one_up_to_350():
    result = tier_for(NEW, [])
    assert result.tier.number == 1
    assert (result.tier.minimum, result.tier.maximum) == (0, 350)
    assert "1 + 0 = 1: a first offense (R-PEN-1)" in result.explanation
    assert "six months" in result.explanation


def test_an_offense_exactly_five_years_before_counts():
    result = tier_for(NEW, [PriorOffense(dt.date(2021, 6, 15))])
    assert result.tier.number == 2
    assert (result.tier.minimum, result.tier.maximum) == (350, 700)


def test_an_offense_five_years_and_a_day_before_does_not_count():
    result = tier_for(NEW, [PriorOffense(dt.date(2021, 6, 14))])
    assert result.tier.number == 1
    assert "outside the five years, not counted: Jun 14, 2021" in result.explanation


def test_third_offense_all_within_five_years_is_700_to_1000():
    history = [PriorOffense(dt.date(2021, 6, 15)), PriorOffense(dt.date(2024, 1, 2))]
    result = tier_for(NEW, history)
    assert result.tier.number == 3
    assert (result.tier.minimum, result.tier.maximum) == (700, 1000)
    assert "1 + 2 = 3" in result.explanation


def test_a_fourth_offense_stays_in_the_third_tier():
    history = [PriorOffense(dt.date(2025, m, 1)) for m in (1, 2, 3)]
    assert tier_for(NEW, history).tier.number == 3


def test_mixed_history_counts_only_inside_the_window():
    history = [PriorOffense(dt.date(2021, 6, 14)), PriorOffense(dt.date(2021, 6, 16))]
    assert tier_for(NEW, history).tier.number == 2


def test_later_offenses_do_not_count_for_an_earlier_one():
    assert tier_for(NEW, [PriorOffense(dt.date(2026, 7, 1))]).tier.number == 1


def test_five_years_before_29_february_is_28_february():
    assert five_years_before(dt.date(2028, 2, 29)) == dt.date(2023, 2, 28)


def test_fine_error_names_the_range():
    result = tier_for(NEW, [PriorOffense(dt.date(2024, 1, 1))])
    assert fine_error(result, Decimal("350")) == ""
    assert fine_error(result, Decimal("700")) == ""
    assert "$349.00 is outside" in fine_error(result, Decimal("349"))
    assert "outside" in fine_error(result, Decimal("700.01"))
    assert fine_error(tier_for(NEW, []), Decimal("0")) != ""


def offense(party, committed_on, outcome, description="Pool water to the MS4"):
    return OffenseRecord.objects.create(
        party=party,
        committed_on=committed_on,
        description=description,
        outcome=outcome,
    )


# Only convictions count (§ 132-13 B, R-PEN-2/R-PEN-3, issue 25). This test said
# tier 2 for a pending charge before issue 25; a pending charge is now listed,
# not counted.
@pytest.mark.django_db
def test_acquittals_do_not_count_and_pending_is_listed_not_counted(owner):
    offense(owner, dt.date(2024, 1, 1), OffenseRecord.Outcome.ACQUITTED, "a")
    offense(owner, dt.date(2025, 1, 1), OffenseRecord.Outcome.PENDING, "b")
    result = tier_for_party(owner, NEW)
    assert result.tier.number == 1
    assert "Jan 1, 2025 (b), pending, not counted" in result.explanation
    assert "2024-01-01" not in result.explanation  # an acquittal is no offense


@pytest.mark.django_db
def test_a_pending_charge_alone_leaves_a_first_offense(owner):
    offense(owner, dt.date(2025, 9, 1), OffenseRecord.Outcome.PENDING, "Dumping")
    result = tier_for_party(owner, NEW)
    assert result.tier.number == 1
    assert "Prior convictions within five years: none." in result.explanation
    assert "Sep 1, 2025 (Dumping), pending, not counted" in result.explanation
    assert "1 + 0 = 1: a first offense (R-PEN-1)" in result.explanation


@pytest.mark.django_db
@pytest.mark.parametrize(
    "outcome", [OffenseRecord.Outcome.CONVICTED, OffenseRecord.Outcome.PLEA]
)
def test_one_conviction_within_five_years_makes_a_second_offense(owner, outcome):
    offense(owner, dt.date(2023, 5, 1), outcome)
    result = tier_for_party(owner, NEW)
    assert result.tier.number == 2
    assert (result.tier.minimum, result.tier.maximum) == (350, 700)
    assert "Prior convictions within five years: 1 — May 1, 2023" in (
        result.explanation
    )


@pytest.mark.django_db
def test_a_conviction_older_than_five_years_is_not_counted(owner):
    # Committed five years and a day before the new offense (GCL § 58).
    offense(owner, dt.date(2021, 6, 14), OffenseRecord.Outcome.CONVICTED)
    result = tier_for_party(owner, NEW)
    assert result.tier.number == 1
    assert "outside the five years, not counted: Jun 14, 2021" in result.explanation


@pytest.mark.django_db
def test_two_convictions_within_five_years_make_a_third_offense(owner):
    offense(owner, dt.date(2022, 2, 1), OffenseRecord.Outcome.CONVICTED)
    offense(owner, dt.date(2025, 2, 1), OffenseRecord.Outcome.PLEA)
    offense(owner, dt.date(2025, 12, 1), OffenseRecord.Outcome.PENDING)
    result = tier_for_party(owner, NEW)
    assert result.tier.number == 3
    assert (result.tier.minimum, result.tier.maximum) == (700, 1000)
    assert "1 + 2 = 3" in result.explanation
    assert "Dec 1, 2025 (Pool water to the MS4), pending, not counted" in (
        result.explanation
    )


@pytest.mark.django_db
def test_offenses_of_the_case_charged_are_left_out(owner, confirmed_case):
    OffenseRecord.objects.create(
        party=owner,
        case=confirmed_case,
        committed_on=dt.date(2026, 1, 1),
        description="this one",
        outcome=OffenseRecord.Outcome.CONVICTED,
    )
    assert tier_for_party(owner, NEW, exclude_case=confirmed_case).tier.number == 1
    assert tier_for_party(owner, NEW).tier.number == 2


@pytest.mark.parametrize(
    ("as_of", "weeks"),
    [
        (dt.date(2026, 3, 13), []),
        (dt.date(2026, 3, 19), []),
        (dt.date(2026, 3, 20), [dt.date(2026, 3, 20)]),
        (dt.date(2026, 4, 2), [dt.date(2026, 3, 20), dt.date(2026, 3, 27)]),
        (
            dt.date(2026, 4, 3),
            [dt.date(2026, 3, 20), dt.date(2026, 3, 27), dt.date(2026, 4, 3)],
        ),
    ],
)
def test_each_whole_week_after_the_deadline_is_another_violation(as_of, weeks):
    result = continued_violation(dt.date(2026, 3, 13), as_of)
    assert list(result.weeks) == weeks
    assert result.count == len(weeks)
    for day in weeks:
        assert human_long_date(day) in result.explanation


@pytest.mark.django_db
def test_notice_page_counts_weeks_after_the_remediation_deadline(issued_notice):
    from enforcement.selectors import continued_violation_for

    # R-NOV-2 due 2026-03-13; four weeks later is 2026-04-10.
    result = continued_violation_for(issued_notice, as_of=dt.date(2026, 4, 10))
    assert result.count == 4
    assert result.weeks[-1] == dt.date(2026, 4, 10)
