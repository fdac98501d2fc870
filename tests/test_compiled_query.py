"""A queryset compiled once per process (kernel.compiled, issue 28) reads the
same rows, relations and annotations as the queryset itself, for every value of
its parameters; a query whose SQL changes with its values is refused under the
test settings rather than run with the SQL of other values."""

import datetime as dt

import pytest
from django.db import connection
from django.db.models import Count, F, Window
from django.test import override_settings
from django.test.utils import CaptureQueriesContext

from cases.models import Case
from kernel.compiled import STAND_IN_DATE, STAND_IN_ID, STAND_IN_IDS, CompiledQuery
from kernel.lookups import AnyOf
from tests.cases.factories import CaseFactory, PremisesFactory
from tests.conftest import make_user

pytestmark = pytest.mark.django_db


def _officers_cases(officer):
    return (
        Case.objects.select_related("premises", "assigned_officer")
        .filter(assigned_officer=officer)
        .order_by("number")
    )


def test_each_officer_gets_their_own_cases_with_their_relations():
    pat, sam = make_user("pat"), make_user("sam")
    for n, officer in enumerate([pat, sam, pat]):
        CaseFactory(
            number=f"MS4-2026-{n + 1:04d}",
            assigned_officer=officer,
            premises=PremisesFactory(address=f"{n + 1} Shore Road"),
        )
    compiled = CompiledQuery(_officers_cases, officer=STAND_IN_ID)
    for officer, numbers in (
        (pat, ["MS4-2026-0001", "MS4-2026-0003"]),
        (sam, ["MS4-2026-0002"]),
    ):
        with CaptureQueriesContext(connection) as ctx:
            rows = compiled.rows(officer=officer.pk)
            seen = [
                (c.number, c.premises.address, c.assigned_officer.username)
                for c in rows
            ]
        assert [number for number, _, _ in seen] == numbers
        assert {who for _, _, who in seen} == {officer.username}
        assert seen == [
            (c.number, c.premises.address, c.assigned_officer.username)
            for c in _officers_cases(officer)
        ]
        assert len(ctx.captured_queries) == 1  # the relations came with the rows


def test_a_date_and_an_annotation_come_back_as_the_queryset_gives_them():
    for n, day in enumerate(
        [dt.date(2026, 3, 2), dt.date(2026, 3, 9), dt.date(2026, 3, 16)]
    ):
        CaseFactory(number=f"MS4-2026-{n + 1:04d}", violation_confirmed_on=day)

    def confirmed_before(day):
        return (
            Case.objects.filter(violation_confirmed_on__lt=day)
            .annotate(of_all=Window(Count("pk")))
            .order_by("violation_confirmed_on")
            .values_list("number", "violation_confirmed_on", "of_all")
        )

    compiled = CompiledQuery(confirmed_before, day=STAND_IN_DATE)
    assert compiled.rows(day=dt.date(2026, 3, 10)) == [
        ("MS4-2026-0001", dt.date(2026, 3, 2), 2),
        ("MS4-2026-0002", dt.date(2026, 3, 9), 2),
    ]
    assert compiled.rows(day=dt.date(2026, 3, 3)) == [
        ("MS4-2026-0001", dt.date(2026, 3, 2), 1)
    ]
    assert compiled.rows(day=dt.date(2026, 1, 1)) == []


@override_settings(COMPILED_QUERY_CHECK=True)
def test_a_list_of_ids_of_any_length_is_one_parameter():
    # The dashboard's deadlines: hundreds of ids one day, none the next.
    made = [CaseFactory(number=f"MS4-2026-{n + 1:04d}") for n in range(4)]
    compiled = CompiledQuery(
        lambda ids: (
            Case.objects.filter(AnyOf(F("pk"), ids))
            .order_by("number")
            .values_list("number", flat=True)
        ),
        ids=STAND_IN_IDS,
    )
    for wanted in ([made[2]], [made[0], made[3], made[1]], []):
        with CaptureQueriesContext(connection) as ctx:
            got = compiled.rows(ids=[case.pk for case in wanted])
        assert got == sorted(case.number for case in wanted)
        assert len(ctx.captured_queries) == 1  # none compiled again, none refused
    assert compiled.rows(ids=[made[0].pk, *range(10**9, 10**9 + 500)]) == [
        "MS4-2026-0001"
    ]


def test_a_parameter_the_query_does_not_use_is_refused():
    compiled = CompiledQuery(lambda officer: Case.objects.all(), officer=STAND_IN_ID)
    with pytest.raises(ValueError, match="does not use"):
        compiled.rows(officer=1)


@override_settings(COMPILED_QUERY_CHECK=True)
def test_a_query_whose_sql_changes_with_its_values_is_refused():
    # One id, or two: the IN list's length is in the SQL.
    compiled = CompiledQuery(
        lambda first: Case.objects.filter(pk__in=[first] if first < 0 else [first, 0]),
        first=STAND_IN_ID,
    )
    with pytest.raises(AssertionError, match="shape changed"):
        compiled.rows(first=7)
