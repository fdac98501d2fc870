"""The database half of a backup: a consistent dump, its row counts and migration
state, an "is it empty?" test, and the restore.

PostgreSQL is dumped by `pg_dump --format=custom` inside a snapshot exported by our
own REPEATABLE READ transaction, so the row counts written to the manifest are those
of the dump exactly, whatever the site does meanwhile. SQLite is copied by the
online backup API (`sqlite3.Connection.backup`), never by copying a live file, and
counted from the copy."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from django.db import DEFAULT_DB_ALIAS, OperationalError, connections, transaction
from django.db.migrations.loader import MigrationLoader

from .errors import BackupError, RestoreRefused

DUMP_NAMES = {
    "postgresql": "database/poquott_ms4.pgdump",
    "sqlite": "database/poquott_ms4.sqlite3",
}
# Bookkeeping tables Django rebuilds on its own; never business records.
NOT_COUNTED = {"django_session"}


@dataclass
class DumpResult:
    vendor: str
    row_counts: dict[str, int]
    applied_migrations: set[tuple[str, str]]
    details: dict = field(default_factory=dict)


def vendor(alias: str = DEFAULT_DB_ALIAS) -> str:
    return connections[alias].vendor


# --- PostgreSQL ---------------------------------------------------------------
def _pg_tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        raise BackupError(
            f"{name} was not found on PATH. Install the PostgreSQL client tools of "
            "the server's major version or newer (Debian: apt-get install "
            "postgresql-client-15) and run the command again."
        )
    return path


def _pg_connection_args(settings_dict) -> tuple[list[str], dict[str, str]]:
    """Arguments and environment for the PostgreSQL client tools, as Django's own
    dbshell builds them: the password only in PGPASSWORD, never on the command
    line (where `ps` shows it)."""
    options = settings_dict.get("OPTIONS") or {}
    args = ["--no-password"]  # in cron nobody answers a prompt: fail instead
    if settings_dict.get("USER"):
        args += ["--username", str(settings_dict["USER"])]
    if settings_dict.get("HOST"):
        args += ["--host", str(settings_dict["HOST"])]
    if settings_dict.get("PORT"):
        args += ["--port", str(settings_dict["PORT"])]
    env = {}
    if settings_dict.get("PASSWORD"):
        env["PGPASSWORD"] = str(settings_dict["PASSWORD"])
    for option, variable in (
        ("service", "PGSERVICE"),
        ("sslmode", "PGSSLMODE"),
        ("sslrootcert", "PGSSLROOTCERT"),
        ("sslcert", "PGSSLCERT"),
        ("sslkey", "PGSSLKEY"),
        ("passfile", "PGPASSFILE"),
    ):
        if options.get(option):
            env[variable] = str(options[option])
    return args, env


def _run_pg_tool(command: list[str], env: dict[str, str], what: str) -> None:
    try:
        completed = subprocess.run(
            command,
            env={**os.environ, **env},
            capture_output=True,
            text=True,
            check=False,
        )
    except OSError as exc:
        raise BackupError(f"{what} could not be started: {exc}") from exc
    if completed.returncode != 0:
        message = (completed.stderr or completed.stdout or "").strip()
        raise BackupError(
            f"{what} failed (exit status {completed.returncode}): "
            f"{message or 'no message'}"
        )


def _dump_postgresql(path: Path, alias: str) -> DumpResult:
    pg_dump = _pg_tool("pg_dump")
    connection = connections[alias]
    settings_dict = connection.settings_dict
    args, env = _pg_connection_args(settings_dict)
    try:
        with transaction.atomic(using=alias), connection.cursor() as cursor:
            cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            cursor.execute(
                "SELECT pg_export_snapshot(), current_setting('server_version')"
            )
            snapshot, server_version = cursor.fetchone()
            tables = connection.introspection.table_names(cursor)
            row_counts = _count_rows(cursor, connection.ops.quote_name, tables)
            applied = _applied_migrations(cursor, tables)
            # The snapshot lives as long as this transaction: dump it now.
            _run_pg_tool(
                [
                    pg_dump,
                    "--format=custom",
                    f"--snapshot={snapshot}",
                    f"--file={path}",
                    *args,
                    "--dbname",
                    str(settings_dict["NAME"]),
                ],
                env,
                "pg_dump",
            )
    except OperationalError as exc:
        raise BackupError(f"Cannot read the database: {exc}") from exc
    return DumpResult(
        vendor="postgresql",
        row_counts=row_counts,
        applied_migrations=applied,
        details={
            "name": settings_dict["NAME"],
            "server_version": server_version,
            "format": "pg_dump --format=custom",
        },
    )


def _pg_is_empty(alias: str) -> list[str]:
    """The relations (tables, views, sequences…) outside PostgreSQL's own schemas:
    a database made by `createdb` has none."""
    connection = connections[alias]
    with connection.cursor() as cursor:
        cursor.execute(
            """
            SELECT n.nspname || '.' || c.relname
              FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
             WHERE n.nspname NOT IN ('pg_catalog', 'information_schema')
               AND n.nspname NOT LIKE 'pg\\_toast%'
               AND n.nspname NOT LIKE 'pg\\_temp%'
               AND c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f')
             ORDER BY 1
            """
        )
        return [row[0] for row in cursor.fetchall()]


def _restore_postgresql(dump: Path, alias: str) -> None:
    pg_restore = _pg_tool("pg_restore")
    connection = connections[alias]
    settings_dict = connection.settings_dict
    args, env = _pg_connection_args(settings_dict)
    connection.close()
    _run_pg_tool(
        [
            pg_restore,
            # The village's database user owns what it restores, whoever owned the
            # dumped objects; grants to roles of the old server are left out.
            "--no-owner",
            "--no-privileges",
            # All or nothing: a failed restore leaves the database empty.
            "--single-transaction",
            "--exit-on-error",
            *args,
            "--dbname",
            str(settings_dict["NAME"]),
            str(dump),
        ],
        env,
        "pg_restore",
    )


# --- SQLite -------------------------------------------------------------------
def _sqlite_path(alias: str) -> Path:
    name = str(connections[alias].settings_dict["NAME"])
    if name == ":memory:" or name.startswith("file:"):
        raise BackupError(f"The SQLite database {name!r} is not a file.")
    return Path(name)


def _dump_sqlite(path: Path, alias: str) -> DumpResult:
    source_path = _sqlite_path(alias)
    if not source_path.exists():
        raise BackupError(f"The SQLite database {source_path} does not exist.")
    source = sqlite3.connect(f"file:{source_path}?mode=ro", uri=True, timeout=60)
    try:
        target = sqlite3.connect(path)
        try:
            source.backup(target)  # the online backup API: a consistent copy
        finally:
            target.close()
    except sqlite3.Error as exc:
        raise BackupError(f"Cannot back up {source_path}: {exc}") from exc
    finally:
        source.close()
    copy = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        cursor = copy.cursor()
        tables = _sqlite_tables(cursor)
        row_counts = _count_rows(cursor, _sqlite_quote, tables)
        applied = _applied_migrations(cursor, tables)
    finally:
        copy.close()
    return DumpResult(
        vendor="sqlite",
        row_counts=row_counts,
        applied_migrations=applied,
        details={
            "name": source_path.name,
            "server_version": sqlite3.sqlite_version,
            "format": "sqlite3 online backup",
        },
    )


def _sqlite_quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _sqlite_tables(cursor) -> list[str]:
    cursor.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' "
        "AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name"
    )
    return [row[0] for row in cursor.fetchall()]


def _sqlite_is_empty(alias: str) -> list[str]:
    """The tables of the target file: a missing or zero-length file has none."""
    path = _sqlite_path(alias)
    for suffix in ("-wal", "-journal"):
        side = path.with_name(path.name + suffix)
        if side.exists() and side.stat().st_size > 0:
            return [f"{side.name} (a journal of unsaved changes)"]
    if not path.exists() or path.stat().st_size == 0:
        return []
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        cursor = db.cursor()
        cursor.execute(
            "SELECT name FROM sqlite_master WHERE type IN ('table', 'view') "
            "ORDER BY name"
        )
        return [row[0] for row in cursor.fetchall()]
    finally:
        db.close()


def _restore_sqlite(dump: Path, alias: str) -> None:
    path = _sqlite_path(alias)
    # No connection may be open on the target while it is replaced.
    connections[alias].close()
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".restoring")
    shutil.copyfile(dump, partial)
    with open(partial, "rb") as handle:
        os.fsync(handle.fileno())
    os.replace(partial, path)
    for suffix in ("-wal", "-shm", "-journal"):
        path.with_name(path.name + suffix).unlink(missing_ok=True)


# --- shared -------------------------------------------------------------------
def _count_rows(cursor, quote, tables) -> dict[str, int]:
    counts = {}
    for table in sorted(tables):
        if table in NOT_COUNTED:
            continue
        cursor.execute(f"SELECT COUNT(*) FROM {quote(table)}")
        counts[table] = cursor.fetchone()[0]
    return counts


def _applied_migrations(cursor, tables) -> set[tuple[str, str]]:
    if "django_migrations" not in tables:
        return set()
    cursor.execute("SELECT app, name FROM django_migrations")
    return {(app, name) for app, name in cursor.fetchall()}


def latest_migrations(applied: set[tuple[str, str]]) -> dict[str, str]:
    """Per app, the applied migration(s) no other applied migration of the app
    depends on (two only when the app has unmerged branches)."""
    graph = MigrationLoader(None, ignore_no_migrations=True).graph
    latest = {}
    for app in sorted({app for app, _ in applied}):
        names = {name for a, name in applied if a == app}
        leaves = []
        for name in names:
            node = graph.node_map.get((app, name))
            children = node.children if node is not None else ()
            if not any(c.key[0] == app and c.key[1] in names for c in children):
                leaves.append(name)
        latest[app] = ", ".join(sorted(leaves))
    return latest


def unknown_migrations(latest: dict[str, str]) -> list[str]:
    """Migrations in a backup that this code does not have (the backup was made by
    a newer version of the application)."""
    graph = MigrationLoader(None, ignore_no_migrations=True).graph
    unknown = []
    for app, names in latest.items():
        for name in names.split(", "):
            if (app, name) not in graph.nodes:
                unknown.append(f"{app}.{name}")
    return unknown


def unapplied_migrations(alias: str = DEFAULT_DB_ALIAS) -> list[str]:
    loader = MigrationLoader(connections[alias])
    return sorted(
        f"{app}.{name}"
        for app, name in loader.graph.leaf_nodes()
        if (app, name) not in loader.applied_migrations
    )


def dump(path: Path, alias: str = DEFAULT_DB_ALIAS) -> DumpResult:
    kind = vendor(alias)
    if kind == "postgresql":
        return _dump_postgresql(path, alias)
    if kind == "sqlite":
        return _dump_sqlite(path, alias)
    raise BackupError(f"Backups of a {kind} database are not supported.")


def objects_in_target(alias: str = DEFAULT_DB_ALIAS) -> list[str]:
    """What makes the target database not empty. Empty means: no table, view or
    sequence at all — a PostgreSQL database just made by `createdb`, or a SQLite
    file that does not exist yet (or has no tables). A migrated database is not
    empty (its tables would collide with the restored ones)."""
    kind = vendor(alias)
    try:
        if kind == "postgresql":
            return _pg_is_empty(alias)
        if kind == "sqlite":
            return _sqlite_is_empty(alias)
    except (OperationalError, sqlite3.Error) as exc:
        raise RestoreRefused(
            f"Cannot open the target database: {exc}. For PostgreSQL, create it "
            "first (createdb NAME) and point DATABASE_URL at it."
        ) from exc
    raise RestoreRefused(f"Restoring into a {kind} database is not supported.")


def restore(dump_path: Path, kind: str, alias: str = DEFAULT_DB_ALIAS) -> None:
    if kind == "postgresql":
        _restore_postgresql(dump_path, alias)
    elif kind == "sqlite":
        _restore_sqlite(dump_path, alias)
    else:  # pragma: no cover - refused earlier by the vendor check
        raise RestoreRefused(f"Restoring a {kind} dump is not supported.")


def current_row_counts(alias: str = DEFAULT_DB_ALIAS) -> dict[str, int]:
    connection = connections[alias]
    with connection.cursor() as cursor:
        tables = connection.introspection.table_names(cursor)
        return _count_rows(cursor, connection.ops.quote_name, tables)
