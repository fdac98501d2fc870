"""Writes to the attempt counters. Any code may call these; they raise only
what the database raises (a database that does not answer is an outage of the
whole site, never a reason to let an attempt through uncounted)."""

from datetime import timedelta

from django.db import connections, router
from django.utils import timezone

from .models import Counter


def counter_increment(*, key: str, seconds: int) -> int:
    """Count one attempt against `key`; return the count in the window.

    One statement (INSERT … ON CONFLICT DO UPDATE … RETURNING, on PostgreSQL
    and SQLite alike), so two processes counting at once never lose an
    attempt. The window of `seconds` starts with the first attempt; once it has
    ended, the next attempt starts a new one at 1."""
    connection = connections[router.db_for_write(Counter)]
    ops = connection.ops
    table = ops.quote_name(Counter._meta.db_table)
    key_col, count_col, expires_col = (
        ops.quote_name(name) for name in ("key", "count", "expires_at")
    )
    now = timezone.now()
    expired = f"{table}.{expires_col} <= %s"
    sql = (
        f"INSERT INTO {table} ({key_col}, {count_col}, {expires_col}) "
        f"VALUES (%s, 1, %s) "
        f"ON CONFLICT ({key_col}) DO UPDATE SET "
        f"{count_col} = CASE WHEN {expired} THEN 1 "
        f"ELSE {table}.{count_col} + 1 END, "
        f"{expires_col} = CASE WHEN {expired} THEN excluded.{expires_col} "
        f"ELSE {table}.{expires_col} END "
        f"RETURNING {count_col}"
    )
    now_db = ops.adapt_datetimefield_value(now)
    params = [
        Counter.key_for(key),
        ops.adapt_datetimefield_value(now + timedelta(seconds=max(1, seconds))),
        now_db,
        now_db,
    ]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchone()[0]


def counter_clear(*, key: str) -> None:
    """Forget the attempts counted against `key` (a successful sign-in)."""
    Counter.objects.filter(key=Counter.key_for(key)).delete()


def counters_purge() -> int:
    """Delete the counters whose window has ended; return how many."""
    deleted, _ = Counter.objects.filter(expires_at__lte=timezone.now()).delete()
    return deleted
