"""Issue 17: each count of the annual report from a year of records built
through the services (tests/annual/conftest.py), the boundary of the reporting
year (March 9, 23:59 and March 10, 00:00 in the village's time zone), a year
with no records, and the moment the records are read (`as_of`)."""

import datetime as dt
from decimal import Decimal

import pytest
from django.utils import timezone

from reporting.annual.selectors import annual_counts
from reporting.annual.year import ReportingYear, UnknownYear

from .conftest import eliminate, local

pytestmark = pytest.mark.django_db


def shown(counts):
    return {c.key: c.shown for c in counts.counts}


def test_every_count_of_a_year_built_through_the_services(a_year):
    got = shown(annual_counts(a_year.year))
    expected = {
        # outfalls: two mapped this year; OF-102 was screened 24 h after rain
        "outfalls_mapped": 2,
        "outfalls_added": 2,
        "outfalls_screened": 1,
        "outfalls_flow": 1,
        "outfalls_suspect": 0,
        "outfalls_obvious": 1,
        # reports: the March 9, 23:59 one belongs to the year before
        "reports_received": 5,
        "reports_web": 1,
        "reports_open311": 1,
        "reports_phone": 1,
        "reports_walk_in": 1,
        "reports_email": 1,
        "triage_case_opened": 3,
        "triage_unfounded": 1,
        "triage_exempt": 0,
        "triage_referred": 0,
        "triage_duplicate": 0,
        # discharges: the web and Open311 ones, the unfounded puddle and the
        # March 10, 00:00 case; the March 9, 23:59 case is still open at year end
        "discharge_suspected": 4,
        "discharge_confirmed": 2,
        "discharge_eliminated": 2,
        "discharge_open": 2,
        "connection_suspected": 1,
        "connection_confirmed": 1,
        "connection_eliminated": 0,
        "connection_open": 1,
        # April 1 → June 1 is 61 days, May 2 → August 1 is 91: median 76
        "median_days_to_elimination": 76.0,
        "inspections": 2,
        "inspections_granted": 1,
        "inspections_refused": 1,
        "inspections_delayed": 0,
        "warrants_sought": 1,
        "samples": 1,
        "spills": 2,
        "spills_confirmed_in_time": 1,
        "spills_confirmed_late": 1,
        "spills_confirmation_missing": 0,
        "notices_issued": 2,
        "notices_requiring_elimination": 1,
        "notices_requiring_cease_desist": 1,
        "notices_requiring_abatement": 1,
        "notices_requiring_fine": 1,
        "notices_requiring_monitoring": 0,
        "notices_requiring_bmps": 0,
        "notices_complied": 1,
        "notices_escalated": 0,
        "penalties_proposed": 1,
        "penalties_proposed_amount": Decimal("300.00"),
        "penalties_imposed": 0,
        # From the ledger (issue 27): the fine was paid in two parts.
        "penalties_imposed_amount": Decimal("0.00"),
        "penalties_collected": Decimal("300.00"),
        "appeals_filed": 1,
        "appeals_heard": 1,
        "appeals_decided": 1,
        "appeals_upheld": 1,
        "appeals_reversed": 0,
        "appeals_modified": 0,
        "corrective_measures": 0,
        "cost_invoiced": Decimal("0.00"),
        "cost_recovered": Decimal("0.00"),
        "suspensions": 0,
    }
    assert {k: got[k] for k in expected} == expected


def test_the_eliminated_list_gives_each_date_and_the_records(a_year):
    counts = annual_counts(a_year.year).by_key()
    eliminated = counts["discharge_eliminated"]
    assert set(eliminated.ids) == {
        a_year.cases["eliminated"].pk,
        a_year.cases["eliminated_after_notice"].pk,
    }
    assert counts["connection_open"].ids == [a_year.cases["open_connection"].pk]


def test_deadlines_due_in_the_year_met_missed_open_by_the_models_own_status(a_year):
    from deadlines.models import Deadline

    counts = annual_counts(a_year.year).by_key()
    late_spill = a_year.other["late_spill"]
    assert late_spill.confirmation_deadline.pk in counts["deadlines_missed"].ids
    assert a_year.other["spill"].confirmation_deadline.pk in counts["deadlines_met"].ids
    fell = set(counts["deadlines_fell"].ids)
    parts = [
        counts[k].ids
        for k in (
            "deadlines_met",
            "deadlines_missed",
            "deadlines_waived",
            "deadlines_open",
        )
    ]
    assert sorted(i for p in parts for i in p) == sorted(fell)
    for pk in counts["deadlines_open"].ids:
        assert Deadline.objects.get(pk=pk).is_open


def test_the_march_9_and_march_10_records_fall_in_their_own_years(a_year):
    this = annual_counts(a_year.year).by_key()
    before = annual_counts(a_year.year.previous()).by_key()
    last_minute, first_minute = (
        a_year.reports["last_minute"],
        a_year.reports["first_minute"],
    )
    assert first_minute.pk in this["reports_received"].ids
    assert last_minute.pk not in this["reports_received"].ids
    assert before["reports_received"].ids == [last_minute.pk]
    assert before["reports_email"].ids == [last_minute.pk]
    assert a_year.cases["first_minute"].pk in this["discharge_suspected"].ids
    assert before["discharge_suspected"].ids == [a_year.cases["last_minute"].pk]
    # at the end of the 2025 year (March 10, 2026, 00:00) that case was open
    assert before["discharge_open"].ids == [a_year.cases["last_minute"].pk]


def test_a_year_with_no_records_is_a_report_of_zeros(db):
    counts = annual_counts(ReportingYear(2012))
    assert counts.is_empty
    assert all(c.shown in (0, 0.0, Decimal("0.00")) for c in counts.counts)
    assert len(counts.per_month) == 13


def test_a_count_is_of_the_records_as_they_stood_at_its_moment(a_year, smo_user):
    before = timezone.now()
    connection = a_year.cases["open_connection"]
    connection.refresh_from_db()
    eliminate(connection, smo_user, dt.date(2026, 11, 2))  # recorded after `before`
    then = annual_counts(a_year.year, as_of=before).by_key()
    now = annual_counts(a_year.year).by_key()
    assert then["connection_eliminated"].ids == []
    assert then["connection_open"].ids == [connection.pk]
    assert now["connection_eliminated"].ids == [connection.pk]
    assert now["connection_open"].ids == []


def test_the_reporting_year_runs_from_local_midnight_march_10():
    year = ReportingYear(2026)
    assert year.start == local(2026, 3, 10)
    assert year.end == local(2027, 3, 10)
    assert str(year.start.tzinfo) == "America/New_York"
    assert ReportingYear.containing(local(2026, 3, 9, 23, 59)) == ReportingYear(2025)
    assert ReportingYear.containing(local(2026, 3, 10, 0, 0)) == ReportingYear(2026)
    # 04:30 UTC on March 10 is still March 9 in Poquott
    assert ReportingYear.containing(
        dt.datetime(2026, 3, 10, 3, 30, tzinfo=dt.UTC)
    ) == ReportingYear(2025)
    assert year.label == "March 10, 2026 – March 9, 2027"


@pytest.mark.parametrize(
    "text", ["abcd", "20x6", "²⁰²⁶", "", "0", "1999", "9999", "2026" * 50]
)
def test_an_unknown_or_malformed_year_is_refused_with_words(text):
    with pytest.raises(UnknownYear) as refused:
        ReportingYear.parse(text)
    assert " " in str(refused.value)
