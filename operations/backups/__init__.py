"""Backups and their restore (`manage.py backup`, `manage.py restore`).

One archive, `poquott-ms4-backup-YYYYmmddTHHMMSSZ.tar.gz`, holds:

    database/poquott_ms4.pgdump   (PostgreSQL: pg_dump --format=custom)
    database/poquott_ms4.sqlite3  (SQLite: the online backup API)
    media/...                     (MEDIA_ROOT: photos, attachments, issued PDFs)
    MANIFEST.json                 (SHA-256 and size of every other file, the app
                                   version, the latest migration per app, the
                                   database vendor, row counts and the time)

The database is dumped first and the files copied after: a file is written before
the row that points at it is committed, and issued documents and evidence are
kept, never deleted, so every file the dumped rows point at is in the archive even
while the site is in use (one removed in between is reported missing on restore).

A restore goes only into an empty database and empty media folders, checks every
SHA-256 of the archive before it changes anything, and afterwards checks the row
counts against the manifest and every issued document's stored hash against its
file."""

from __future__ import annotations

import datetime as dt
import json
import os
import shutil
import subprocess
import tarfile
import tempfile
import tomllib
from dataclasses import dataclass
from pathlib import Path

import django
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS

from . import database, files
from .errors import BackupError, RestoreRefused
from .records import DOCUMENTS, Tally, verify_stored_files

__all__ = [
    "BackupError",
    "RestoreRefused",
    "RestorePlan",
    "RestoreResult",
    "backup_create",
    "restore_apply",
    "restore_prepare",
]

ARCHIVE_PREFIX = "poquott-ms4-backup-"


def default_output_dir() -> Path:
    return Path(settings.VAR_DIR) / "backups"


def _app_version() -> dict:
    base = Path(settings.BASE_DIR)
    version = None
    pyproject = base / "pyproject.toml"
    if pyproject.is_file():
        version = tomllib.loads(pyproject.read_text())["project"]["version"]
    commit = None
    if (base / ".git").exists() and shutil.which("git"):
        completed = subprocess.run(
            ["git", "-C", str(base), "rev-parse", "HEAD"],
            capture_output=True,
            text=True,
            check=False,
        )
        commit = completed.stdout.strip() or None
    return {
        "name": "poquott-ms4",
        "version": version,
        "git_commit": commit,
        "django": django.get_version(),
    }


def backup_create(
    *, output_dir: Path | None = None, alias: str = DEFAULT_DB_ALIAS
) -> tuple[Path, dict]:
    """Write one archive of the database and the media folders into `output_dir`
    (created if missing) and return its path and manifest. The archive is written
    under a temporary name and renamed when complete, readable by its owner only
    (it holds residents' personal data). Who: the server's operator (a management
    command, no user). Raises BackupError (pg_dump missing or failing, a storage
    that cannot be backed up, an output folder inside the media)."""
    output_dir = Path(output_dir or default_output_dir()).resolve()
    roots = files.media_roots()
    for name, root in roots.items():
        if output_dir == root or root in output_dir.parents:
            raise BackupError(
                f"The output folder {output_dir} is inside the {name} folder {root}: "
                "choose another (a backup must not contain backups)."
            )
    output_dir.mkdir(parents=True, exist_ok=True)
    now = dt.datetime.now(dt.UTC).replace(microsecond=0)
    stamp = now.strftime("%Y%m%dT%H%M%SZ")
    final = output_dir / f"{ARCHIVE_PREFIX}{stamp}.tar.gz"
    if final.exists():
        raise BackupError(f"{final} already exists; wait a second and run again.")
    partial = final.with_name(final.name + ".partial")
    with tempfile.TemporaryDirectory(prefix="poquott-backup-") as work:
        kind = database.vendor(alias)
        if kind not in database.DUMP_NAMES:
            raise BackupError(f"Backups of a {kind} database are not supported.")
        dump_name = database.DUMP_NAMES[kind]
        dump_path = Path(work) / Path(dump_name).name
        dumped = database.dump(dump_path, alias)
        entries = []
        fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            with (
                os.fdopen(fd, "wb") as raw,
                tarfile.open(fileobj=raw, mode="w:gz") as tar,
            ):
                entries.append(files.add_file(tar, dump_path, dump_name))
                for name, root in roots.items():
                    for path in files.files_under(root):
                        arcname = f"{name}/{path.relative_to(root).as_posix()}"
                        entries.append(files.add_file(tar, path, arcname))
                manifest = {
                    "format": files.MANIFEST_FORMAT,
                    "format_version": files.MANIFEST_VERSION,
                    "created_at": now.isoformat().replace("+00:00", "Z"),
                    "app": _app_version(),
                    "database": {
                        "vendor": dumped.vendor,
                        "file": dump_name,
                        **dumped.details,
                    },
                    "migrations": database.latest_migrations(dumped.applied_migrations),
                    "row_counts": dumped.row_counts,
                    "media_roots": {name: str(root) for name, root in roots.items()},
                    "totals": {
                        "files": len(entries),
                        "bytes": sum(e["size"] for e in entries),
                    },
                    "files": entries,
                }
                data = json.dumps(manifest, indent=2, sort_keys=False).encode()
                files.add_bytes(tar, data, files.MANIFEST_NAME, now.timestamp())
            os.replace(partial, final)
        except BaseException:
            partial.unlink(missing_ok=True)
            raise
    return final, manifest


@dataclass
class RestorePlan:
    """An archive unpacked and verified, and a target found empty: what
    restore_apply needs. `workdir` is removed by restore_apply (or cleanup)."""

    archive: Path
    workdir: Path
    manifest: dict
    media_targets: dict[str, Path]
    alias: str = DEFAULT_DB_ALIAS

    def cleanup(self) -> None:
        shutil.rmtree(self.workdir, ignore_errors=True)


@dataclass
class RestoreResult:
    row_count_differences: list[str]
    tallies: list[Tally]
    unapplied_migrations: list[str]

    @property
    def ok(self) -> bool:
        return not self.row_count_differences and all(t.ok for t in self.tallies)

    @property
    def documents(self) -> Tally:
        return next(t for t in self.tallies if t.label == DOCUMENTS)


def restore_prepare(
    archive: Path, *, alias: str = DEFAULT_DB_ALIAS, workdir: Path | None = None
) -> RestorePlan:
    """Unpack the archive into a temporary folder and check, before anything is
    changed: every file against the manifest's SHA-256 and size, the database
    vendor, that this code knows every migration of the backup, and that the
    target database and every media folder are empty. Raises RestoreRefused."""
    archive = Path(archive)
    if not archive.is_file():
        raise RestoreRefused(f"{archive} is not a file.")
    work = Path(tempfile.mkdtemp(prefix="poquott-restore-", dir=workdir))
    try:
        files.extract(archive, work)
        manifest = files.read_manifest(work)
        problems = files.verify_against_manifest(work, manifest)
        if problems:
            shown = "; ".join(problems[:10])
            more = f" (and {len(problems) - 10} more)" if len(problems) > 10 else ""
            raise RestoreRefused(
                "The archive is damaged or has been altered — its checksums do not "
                f"match the manifest: {shown}{more}. Nothing was restored."
            )
        kind = manifest["database"]["vendor"]
        target = database.vendor(alias)
        if kind != target:
            raise RestoreRefused(
                f"The archive holds a {kind} database; DATABASE_URL names a "
                f"{target} one. Point DATABASE_URL at an empty {kind} database."
            )
        unknown = database.unknown_migrations(manifest.get("migrations", {}))
        if unknown:
            raise RestoreRefused(
                "The archive was made by a newer version of the application "
                f"(this code lacks {', '.join(unknown)}); install version "
                f"{manifest['app'].get('version')} "
                f"(commit {manifest['app'].get('git_commit')}) and restore again."
            )
        in_database = database.objects_in_target(alias)
        roots = files.media_roots()
        missing_roots = sorted(set(manifest["media_roots"]) - set(roots))
        if missing_roots:
            raise RestoreRefused(
                f"The archive has media folders this installation does not: "
                f"{', '.join(missing_roots)}."
            )
        targets = {name: roots[name] for name in manifest["media_roots"]}
        in_media = {
            name: files.files_under(root)
            for name, root in targets.items()
            if files.files_under(root)
        }
        if in_database or in_media:
            found = []
            if in_database:
                found.append(
                    f"the database has {len(in_database)} table(s) or other "
                    f"objects ({', '.join(in_database[:3])}…)"
                )
            for name, present in in_media.items():
                found.append(
                    f"the {name} folder {targets[name]} has {len(present)} file(s)"
                )
            remedies = []
            if in_database:
                remedies.append(
                    "create a new database (createdb NAME) and point DATABASE_URL "
                    "at it (for SQLite: a file that does not exist yet)"
                )
            if in_media:
                remedies.append(
                    "point MEDIA_ROOT at an empty folder (or move the old files aside)"
                )
            raise RestoreRefused(
                "A restore goes only into an empty database and empty media "
                "folders, so that nothing is overwritten or mixed: "
                + "; ".join(found)
                + ". Nothing was changed: "
                + ", and ".join(remedies)
                + "."
            )
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    return RestorePlan(
        archive=archive,
        workdir=work,
        manifest=manifest,
        media_targets=targets,
        alias=alias,
    )


def restore_apply(plan: RestorePlan) -> RestoreResult:
    """Restore the verified archive of `plan`: the database (pg_restore in one
    transaction, or the SQLite file put in place while no connection is open),
    then the media files; then compare the row counts with the manifest and
    verify every stored file's hash. Raises BackupError if pg_restore fails (the
    database is then left empty). Who: the server's operator."""
    manifest = plan.manifest
    try:
        dump = plan.workdir / manifest["database"]["file"]
        database.restore(dump, manifest["database"]["vendor"], plan.alias)
        try:
            for name, target in plan.media_targets.items():
                source = plan.workdir / name
                for path in files.files_under(source):
                    destination = target / path.relative_to(source)
                    destination.parent.mkdir(parents=True, exist_ok=True)
                    shutil.move(path, destination)
        except OSError as exc:
            raise BackupError(
                f"The database was restored but copying the media failed ({exc}): "
                "empty both again and rerun the restore."
            ) from exc
    finally:
        plan.cleanup()
    counts = database.current_row_counts(plan.alias)
    expected = manifest.get("row_counts", {})
    differences = [
        f"{table}: {counts.get(table)} rows, the backup had {n}"
        for table, n in sorted(expected.items())
        if counts.get(table) != n
    ]
    return RestoreResult(
        row_count_differences=differences,
        tallies=verify_stored_files(),
        unapplied_migrations=database.unapplied_migrations(plan.alias),
    )
