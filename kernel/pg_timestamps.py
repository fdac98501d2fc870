"""Timestamps read from PostgreSQL by psycopg's own loader, written in C (issue 28).

Django reads every `timestamptz` through a loader of its own (a subclass of
psycopg's pure-Python one, `django.db.backends.postgresql.psycopg_any.
BaseTzLoader`) so that the values carry Django's time zone whatever the
connection's: psycopg's compiled loader cannot be subclassed. Reading 2,400
timestamps (the Open311 list's thousand requests) takes 12.6 ms that way and
2.0 ms with psycopg's C loader (bench/NOTES.md).

When Django's zone for the connection and the connection's own are both UTC
(`USE_TZ`, no `TIME_ZONE` on the database: Django sets the session's TimeZone to
UTC, which psycopg reads as `datetime.UTC`), the two loaders give the
same values, `datetime.UTC` included; then each new connection reads
timestamps with the C loader. Otherwise, or without psycopg's compiled module
(`psycopg[binary]` or `psycopg[c]`), Django's loader stays."""

import datetime as dt

from django.db.backends.signals import connection_created

try:
    # psycopg_binary's or psycopg_c's compiled module; None for pure-Python psycopg
    from psycopg._cmodule import _psycopg
    from psycopg.pq import Format
except ImportError:  # no psycopg at all (SQLite only)
    _psycopg = None


class _CompiledTimestamptzLoader:
    """Registered as the `timestamptz` loader class; what it makes is psycopg's
    compiled loader itself (a class written in C cannot be subclassed, and a
    Python loader wrapped around it would cost a Python call per value: 8.2 ms
    for the 2,400). `timezone`: what Django compares with its own before each
    cursor (DatabaseWrapper.create_cursor), re-registering its loader if they
    differ."""

    format = Format.TEXT if _psycopg else None
    timezone = dt.UTC

    def __new__(cls, oid, context=None):
        return _psycopg.TimestamptzLoader(oid, context)


def read_timestamps_in_c(sender, connection, **kwargs) -> None:
    """connection_created: use the C loader on `connection` where its values are
    Django's (see the module's docstring)."""
    if connection.vendor != "postgresql" or _psycopg is None:
        return
    if connection.timezone is not dt.UTC:
        return
    raw = connection.connection
    if raw.info.timezone is not dt.UTC:
        return
    raw.adapters.register_loader("timestamptz", _CompiledTimestamptzLoader)


def install() -> None:
    connection_created.connect(read_timestamps_in_c, dispatch_uid="pg-timestamps")
