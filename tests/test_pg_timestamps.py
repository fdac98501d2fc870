"""kernel.pg_timestamps: on PostgreSQL, timestamps are read by psycopg's compiled
loader where it gives exactly what Django's own loader gives (issue 28), and by
Django's where it would not."""

import datetime as dt
from zoneinfo import ZoneInfo

import pytest
from django.db import connection
from django.db.backends.postgresql.psycopg_any import register_tzloader
from psycopg._cmodule import _psycopg

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's loader"),
]

NY = ZoneInfo("America/New_York")
TIMESTAMPTZ = 1184  # its type's oid
MOMENTS = [
    dt.datetime(2026, 3, 8, 1, 59, 59, 999999, tzinfo=NY),  # before the spring change
    dt.datetime(2026, 3, 8, 3, 0, tzinfo=NY),
    dt.datetime(2026, 11, 1, 1, 30, tzinfo=NY),  # the hour that happens twice
    dt.datetime(2026, 11, 1, 1, 30, fold=1, tzinfo=NY),
    dt.datetime(1901, 2, 3, 4, 5, 6, tzinfo=dt.UTC),
    dt.datetime(
        2099,
        12,
        31,
        23,
        59,
        59,
        123456,
        tzinfo=dt.timezone(dt.timedelta(hours=5, minutes=30)),
    ),
]


def _instants(moments) -> list[float]:
    # (== across zones is False for a time that happens twice: PEP 495)
    return [m.timestamp() for m in moments]


def _read(cursor) -> list[dt.datetime]:
    cursor.execute(
        "SELECT m FROM unnest(%s::timestamptz[]) WITH ORDINALITY AS t(m, n) ORDER BY n",
        [MOMENTS],
    )
    return [m for (m,) in cursor.fetchall()]


def test_the_compiled_loader_reads_what_django_reads():
    with connection.cursor() as cursor:
        read = _read(cursor)
        # the compiled loader read them
        loader = cursor.cursor._tx.get_loader(TIMESTAMPTZ, 0)
        assert type(loader) is _psycopg.TimestamptzLoader
    assert _instants(read) == _instants(MOMENTS)
    assert all(m.tzinfo is dt.UTC for m in read)
    assert [m.microsecond for m in read] == [m.microsecond for m in MOMENTS]
    register_tzloader(connection.timezone, connection.connection)  # Django's own
    try:
        with connection.cursor() as cursor:
            by_django = _read(cursor)
    finally:
        connection.close()  # the next connection gets the compiled loader again
    assert [(m, m.tzinfo) for m in by_django] == [(m, m.tzinfo) for m in read]


def test_a_database_in_another_zone_keeps_djangos_loader(settings):
    from django.db.backends.postgresql.base import DatabaseWrapper

    other = DatabaseWrapper(
        {**connection.settings_dict, "TIME_ZONE": "America/New_York"}
    )
    try:
        with other.cursor() as cursor:
            read = _read(cursor)
            loader = type(cursor.cursor._tx.get_loader(TIMESTAMPTZ, 0))
            assert loader.__module__.endswith("psycopg_any")  # Django's
    finally:
        other.close()
    assert _instants(read) == _instants(MOMENTS)
    assert {m.utcoffset() for m in read[:2]} == {
        dt.timedelta(hours=-5),
        dt.timedelta(hours=-4),
    }
