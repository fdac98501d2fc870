"""kernel.lookups.AnyOf: the same rows as an IN, with the list as one parameter
(the dashboard's due deadlines, hundreds of ids), so the SQL is the same for
every list (kernel.compiled)."""

import pytest
from django.db import connection
from django.db.models import F
from django.test.utils import CaptureQueriesContext

from cases.models import Case
from kernel.lookups import AnyOf
from tests.cases.factories import CaseFactory

pytestmark = pytest.mark.django_db


def test_any_of_selects_what_in_selects_even_for_no_ids():
    made = [CaseFactory() for _ in range(5)]
    wanted = [made[0].pk, made[3].pk, made[4].pk, 10**9]
    assert set(Case.objects.filter(AnyOf(F("pk"), wanted))) == {
        made[0],
        made[3],
        made[4],
    }
    assert list(Case.objects.filter(AnyOf(F("pk"), []))) == []
    assert set(Case.objects.exclude(AnyOf(F("pk"), wanted))) == {made[1], made[2]}


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's ANY")
def test_on_postgresql_hundreds_of_ids_are_one_parameter():
    case = CaseFactory()
    ids = [case.pk, *range(10**9, 10**9 + 499)]
    with CaptureQueriesContext(connection) as ctx:
        assert list(Case.objects.filter(AnyOf(F("pk"), ids))) == [case]
    sql = ctx.captured_queries[0]["sql"]
    assert "= ANY(" in sql and " IN (" not in sql


def test_the_sql_is_the_same_whatever_the_list():
    def sql_of(ids):
        query = Case.objects.filter(AnyOf(F("pk"), ids)).query
        return query.get_compiler(connection=connection).as_sql()

    (one, one_params), (many, many_params) = sql_of([1]), sql_of(range(1, 300))
    assert one == many
    assert len(one_params) == len(many_params) == 1
