"""Backups and records retention (issue 15): back a village's records up, restore
them into a fresh database and media folder, and compare.

Every command runs in a subprocess of `manage.py` with its own DATABASE_URL,
VAR_DIR and MEDIA_ROOT under a temporary folder, so the pytest database is never
touched. The SQLite variant always runs; the PostgreSQL variant runs when
DATABASE_URL names a PostgreSQL server, on databases it creates and drops."""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
import sqlite3
import subprocess
import sys
import tarfile
import uuid
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import pytest

BASE_DIR = Path(__file__).resolve().parent.parent
PG_URL = os.environ.get("DATABASE_URL", "")
PG_URL = PG_URL if PG_URL.startswith(("postgres://", "postgresql://")) else ""
NO_PG = (
    "PostgreSQL backup round trip needs DATABASE_URL=postgres://… "
    "(this run is on SQLite; the SQLite round trip ran instead)"
)
ARCHIVE_NAME = re.compile(r"^poquott-ms4-backup-\d{8}T\d{6}Z\.tar\.gz$")
# Variables of the pytest process that must not leak into the subprocesses.
OWN_VARIABLES = (
    "DATABASE_URL",
    "REDIS_URL",
    "CELERY_BROKER_URL",
    "EMAIL_URL",
    "VAR_DIR",
    "MEDIA_ROOT",
    "DJANGO_SETTINGS_MODULE",
)

SEED = """
import io
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image
from documents.services import document_render
from cases.models import Case
from intake.models import PollutantCategory, Report
from documents.models import IssuedDocument
from intake.services import report_submit
from cases.services import attachment_add
from kernel.uploads import process_image_upload

out = io.BytesIO()
Image.new("RGB", (40, 30), (200, 30, 30)).save(out, format="PNG")
photo = process_image_upload(SimpleUploadedFile("drain.png", out.getvalue(), "image/png"))
report_submit(
    channel=Report.Channel.WEB,
    fields={"description": "Suds in the catch basin", "address": "3 Washington Street"},
    pollutant_categories=[PollutantCategory.objects.get(code="wash-water")],
    photos=[photo],
)
smo = get_user_model().objects.get(username="smo")
attachment_add(
    case=Case.objects.order_by("pk").first(),
    actor=smo,
    upload=SimpleUploadedFile("field-notes.txt", b"Sheen seen at 8 a.m.", "text/plain"),
)
# No worker runs here: render what the demo issued, as the worker would.
for pk in IssuedDocument.objects.filter(status="rendering").values_list("pk", flat=True):
    document_render(document_id=pk)
"""

# Read independently of operations.backups: every model's rows, and every issued
# document's stored hash against the file under MEDIA_ROOT.
SNAPSHOT = """
import hashlib, json
from pathlib import Path
from django.apps import apps
from django.conf import settings
from documents.models import IssuedDocument

counts = {m._meta.label: m._default_manager.count() for m in apps.get_models()}
documents = []
for d in IssuedDocument.objects.exclude(pdf="").order_by("pk"):
    path = Path(settings.MEDIA_ROOT) / d.pdf.name
    actual = hashlib.sha256(path.read_bytes()).hexdigest() if path.exists() else None
    documents.append({"pk": d.pk, "sha256": d.sha256, "actual": actual})
print("SNAPSHOT" + json.dumps({"counts": counts, "documents": documents}))
"""


@dataclass
class Site:
    """One installation: a database and a media folder of its own."""

    backend: str
    url: str
    root: Path

    @property
    def media(self) -> Path:
        return self.root / "media"

    def env(self, **extra) -> dict:
        env = {k: v for k, v in os.environ.items() if k not in OWN_VARIABLES}
        env.update(
            DJANGO_SETTINGS_MODULE="poquott_ms4.settings.local",
            DEBUG="false",
            DATABASE_URL=self.url,
            VAR_DIR=str(self.root / "var"),
            MEDIA_ROOT=str(self.media),
        )
        env.update(extra)
        return env

    def manage(self, *args, check=True, **extra_env) -> subprocess.CompletedProcess:
        completed = subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=BASE_DIR,
            env=self.env(**extra_env),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=600,
        )
        if check and completed.returncode != 0:
            pytest.fail(
                f"manage.py {' '.join(map(str, args))} exited "
                f"{completed.returncode}:\n{completed.stdout}\n{completed.stderr}"
            )
        return completed

    def snapshot(self) -> dict:
        out = self.manage("shell", "--no-imports", "-c", SNAPSHOT).stdout
        return json.loads(out.split("SNAPSHOT", 1)[1])

    def media_files(self) -> list[Path]:
        if not self.media.exists():
            return []
        return [p for p in self.media.rglob("*") if p.is_file()]

    def tables(self) -> list[str]:
        if self.backend == "sqlite":
            path = Path(self.url.removeprefix("sqlite:///"))
            if not path.exists():
                return []
            with sqlite3.connect(path) as db:
                rows = db.execute("SELECT name FROM sqlite_master WHERE type='table'")
                return [r[0] for r in rows]
        import psycopg

        with psycopg.connect(_pg_conninfo(self.url)) as db:
            rows = db.execute(
                "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
            )
            return [r[0] for r in rows]


def _pg_conninfo(url: str, dbname: str | None = None) -> str:
    parts = urlsplit(url)
    info = {
        "host": parts.hostname or "127.0.0.1",
        "port": str(parts.port or 5432),
        "user": parts.username or "postgres",
        "dbname": dbname or parts.path.lstrip("/"),
    }
    if parts.password:
        info["password"] = parts.password
    return " ".join(f"{k}={v}" for k, v in info.items())


def _pg_create() -> str:
    """A new, empty PostgreSQL database (as `createdb` makes it); its URL."""
    import psycopg

    name = f"ms4_backup_t_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(_pg_conninfo(PG_URL, "postgres"), autocommit=True) as db:
        db.execute(f'CREATE DATABASE "{name}"')
    return urlsplit(PG_URL)._replace(path=f"/{name}").geturl()


def _pg_drop(url: str) -> None:
    import psycopg

    name = urlsplit(url).path.lstrip("/")
    with psycopg.connect(_pg_conninfo(PG_URL, "postgres"), autocommit=True) as db:
        db.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def new_site(request, tmp_path_factory):
    """A factory of empty sites on one backend; the PostgreSQL databases it
    creates are dropped afterwards."""
    backend = request.param
    if backend == "postgresql" and not PG_URL:
        pytest.skip(NO_PG)
    created = []

    def make(label: str) -> Site:
        root = tmp_path_factory.mktemp(f"{backend}-{label}")
        if backend == "sqlite":
            return Site(backend, f"sqlite:///{root / 'db.sqlite3'}", root)
        created.append(_pg_create())
        return Site(backend, created[-1], root)

    yield make
    for url in created:
        _pg_drop(url)


@pytest.fixture(scope="module")
def source(new_site):
    """A site with the demo records, a report with a photo, an attachment and an
    issued notice with its PDF; backed up once."""
    site = new_site("src")
    site.manage("migrate", "--noinput", "-v0")
    site.manage("load_demo_data")
    site.manage("shell", "--no-imports", "-c", SEED)
    out = site.root / "backups"
    completed = site.manage("backup", "--output", str(out))
    archive = Path(completed.stdout.strip().splitlines()[-1])
    return site, archive, site.snapshot()


def rewrite_archive(archive: Path, into: Path, change, *, fix_manifest: bool) -> Path:
    """A copy of `archive` with the first member `change(name, data)` alters;
    with fix_manifest the manifest is brought in line (a consistent archive whose
    file differs from what the database recorded)."""
    members = []
    with tarfile.open(archive) as tar:
        for member in tar.getmembers():
            members.append((member, tar.extractfile(member).read()))
    changed = next(
        (i for i, (m, data) in enumerate(members) if change(m.name, data) is not None),
        None,
    )
    assert changed is not None, "nothing in the archive to change"
    member, data = members[changed]
    members[changed] = (member, change(member.name, data))
    if fix_manifest:
        new = members[changed][1]
        for i, (m, data) in enumerate(members):
            if m.name == "MANIFEST.json":
                manifest = json.loads(data)
                for entry in manifest["files"]:
                    if entry["path"] == member.name:
                        entry["size"] = len(new)
                        entry["sha256"] = hashlib.sha256(new).hexdigest()
                members[i] = (m, json.dumps(manifest).encode())
    target = into / archive.name
    with tarfile.open(target, "w:gz") as tar:
        for member, data in members:
            member.size = len(data)
            tar.addfile(member, io.BytesIO(data))
    return target


def flip_first_byte_of(prefix):
    def change(name, data):
        if name.startswith(prefix) and data:
            return bytes([data[0] ^ 0xFF]) + data[1:]
        return None

    return change


# --- the archive --------------------------------------------------------------
def test_backup_writes_one_archive_with_database_media_and_manifest(source):
    site, archive, before = source
    assert ARCHIVE_NAME.match(archive.name)
    assert [p.name for p in archive.parent.iterdir()] == [archive.name]
    assert archive.stat().st_mode & 0o077 == 0  # personal data: owner only
    with tarfile.open(archive) as tar:
        contents = {m.name: tar.extractfile(m).read() for m in tar if m.isfile()}
    manifest = json.loads(contents.pop("MANIFEST.json"))
    dump = {"sqlite": "database/poquott_ms4.sqlite3"}.get(
        site.backend, "database/poquott_ms4.pgdump"
    )
    assert dump in contents
    if site.backend == "postgresql":
        assert contents[dump].startswith(b"PGDMP")  # pg_dump's custom format
    else:
        assert contents[dump].startswith(b"SQLite format 3\x00")
    # Every file of the archive listed with its size and SHA-256, nothing else.
    assert {e["path"] for e in manifest["files"]} == set(contents)
    for entry in manifest["files"]:
        data = contents[entry["path"]]
        assert entry["size"] == len(data)
        assert entry["sha256"] == hashlib.sha256(data).hexdigest()
    media = {name for name in contents if name.startswith("media/")}
    assert any(n.startswith("media/private/documents/") for n in media)
    assert any(n.startswith("media/private/report-originals/") for n in media)
    assert any(n.startswith("media/private/report-display/") for n in media)
    assert len(media) == len(site.media_files())
    assert manifest["database"]["vendor"] == site.backend
    assert manifest["migrations"]["cases"].startswith("00")
    assert set(manifest["migrations"]) >= {"cases", "inspections", "enforcement"}
    assert manifest["app"]["version"]
    assert re.match(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$", manifest["created_at"])
    assert (
        manifest["row_counts"]["cases_issueddocument"]
        == (before["counts"]["documents.IssuedDocument"])
    )


# --- the round trip -------------------------------------------------------------
def test_restore_into_a_fresh_database_and_media_folder_matches_the_source(
    source, new_site
):
    site, archive, before = source
    assert before["documents"], "the seed issued no document"
    fresh = new_site("dst")
    completed = fresh.manage("restore", str(archive), "--yes")
    after = fresh.snapshot()
    assert after["counts"] == before["counts"]
    for key in (
        "cases.Case",
        "intake.Report",
        "intake.ReportPhoto",
        "cases.Attachment",
    ):
        assert after["counts"][key] >= 1, key
    assert after["documents"] == before["documents"]
    assert all(d["actual"] == d["sha256"] for d in after["documents"])
    n = len(before["documents"])
    assert f"issued documents: {n} verified, 0 mismatched, 0 missing" in (
        completed.stdout
    )
    assert "report photos: 1 verified" in completed.stdout
    assert "Restore complete and verified." in completed.stdout
    assert sorted(p.relative_to(fresh.media) for p in fresh.media_files()) == sorted(
        p.relative_to(site.media) for p in site.media_files()
    )
    # The restored site works: Django sees every migration applied.
    plan = fresh.manage("migrate", "--plan").stdout
    assert "No planned migration operations." in plan


def test_a_tampered_archive_is_refused_and_nothing_is_restored(
    source, new_site, tmp_path
):
    _, archive, _ = source
    tampered = rewrite_archive(
        archive,
        tmp_path,
        flip_first_byte_of("media/private/report-originals/"),
        fix_manifest=False,
    )
    fresh = new_site("tampered")
    completed = fresh.manage("restore", str(tampered), "--yes", check=False)
    assert completed.returncode == 1
    assert "damaged or has been altered" in completed.stderr
    assert "report-originals" in completed.stderr
    assert fresh.tables() == []
    assert fresh.media_files() == []


def test_a_cut_short_archive_is_refused(source, new_site, tmp_path):
    _, archive, _ = source
    short = tmp_path / archive.name
    short.write_bytes(archive.read_bytes()[: archive.stat().st_size // 2])
    fresh = new_site("short")
    completed = fresh.manage("restore", str(short), "--yes", check=False)
    assert completed.returncode == 1
    assert "Restore refused" in completed.stderr
    assert fresh.tables() == []


def test_a_document_that_differs_from_its_stored_hash_fails_the_verification(
    source, new_site, tmp_path
):
    # The archive is self-consistent (its manifest was rewritten to match), but
    # the PDF is not the one the office issued: the restore must say so.
    _, archive, _ = source
    forged = rewrite_archive(
        archive,
        tmp_path,
        flip_first_byte_of("media/private/documents/"),
        fix_manifest=True,
    )
    fresh = new_site("forged")
    completed = fresh.manage("restore", str(forged), "--yes", check=False)
    assert completed.returncode == 2, completed.stderr
    assert "issued documents: " in completed.stdout
    assert "1 mismatched, 0 missing" in completed.stdout
    assert "mismatched: documents.IssuedDocument" in completed.stdout
    assert "do not use this copy" in completed.stderr


# --- targets that are not empty -----------------------------------------------------
def test_a_database_with_records_is_refused(source):
    site, archive, before = source
    completed = site.manage("restore", str(archive), "--yes", check=False)
    assert completed.returncode == 1
    assert "only into an empty database and empty media folders" in completed.stderr
    assert site.snapshot()["counts"] == before["counts"]


def test_a_migrated_but_unused_database_is_not_empty(source, new_site):
    _, archive, _ = source
    fresh = new_site("migrated")
    fresh.manage("migrate", "--noinput", "-v0")
    completed = fresh.manage("restore", str(archive), "--yes", check=False)
    assert completed.returncode == 1
    assert "the database has" in completed.stderr
    assert "the media folder" not in completed.stderr  # it was empty
    assert "createdb" in completed.stderr


def test_a_media_folder_with_files_is_refused(source, new_site):
    _, archive, _ = source
    fresh = new_site("media")
    (fresh.media / "private").mkdir(parents=True)
    (fresh.media / "private" / "left-over.pdf").write_bytes(b"%PDF-1.7")
    completed = fresh.manage("restore", str(archive), "--yes", check=False)
    assert completed.returncode == 1
    assert "the media folder" in completed.stderr
    assert "has 1 file(s)" in completed.stderr
    assert "the database has" not in completed.stderr
    assert fresh.tables() == []


def test_restore_without_yes_and_without_a_terminal_changes_nothing(source, new_site):
    _, archive, _ = source
    fresh = new_site("noconfirm")
    completed = fresh.manage("restore", str(archive), check=False)
    assert completed.returncode == 1
    assert "pass --yes" in completed.stderr
    assert fresh.tables() == []
    assert fresh.media_files() == []


# --- pg_dump missing or failing -----------------------------------------------------
def _site_without_database(tmp_path) -> Site:
    # Nothing listens on port 1: the command must stop before it connects.
    return Site("postgresql", "postgres://postgres@127.0.0.1:1/nothing", tmp_path)


def test_backup_without_pg_dump_says_what_to_install(tmp_path):
    site = _site_without_database(tmp_path)
    empty = tmp_path / "empty-path"
    empty.mkdir()
    completed = site.manage(
        "backup", "--output", str(tmp_path / "out"), check=False, PATH=str(empty)
    )
    assert completed.returncode == 1
    assert "pg_dump was not found on PATH" in completed.stderr
    assert "postgresql-client" in completed.stderr
    assert not (tmp_path / "out").exists() or not list((tmp_path / "out").iterdir())


@pytest.mark.skipif(not PG_URL, reason=NO_PG)
def test_a_failing_pg_dump_leaves_no_archive(tmp_path):
    fake = tmp_path / "bin"
    fake.mkdir()
    script = fake / "pg_dump"
    script.write_text("#!/bin/sh\necho 'pg_dump: error: disk full' >&2\nexit 3\n")
    script.chmod(0o755)
    site = Site("postgresql", _pg_create(), tmp_path)
    out = tmp_path / "out"
    try:
        completed = site.manage(
            "backup",
            "--output",
            str(out),
            check=False,
            PATH=f"{fake}{os.pathsep}{os.environ.get('PATH', '')}",
        )
    finally:
        _pg_drop(site.url)
    assert completed.returncode == 1
    assert "pg_dump failed (exit status 3): pg_dump: error: disk full" in (
        completed.stderr
    )
    assert list(out.iterdir()) == []  # no archive, no partial file


def test_a_backup_into_the_media_folder_is_refused(tmp_path):
    site = Site("sqlite", f"sqlite:///{tmp_path / 'db.sqlite3'}", tmp_path)
    completed = site.manage(
        "backup", "--output", str(site.media / "backups"), check=False
    )
    assert completed.returncode == 1
    assert "a backup must not contain backups" in completed.stderr
    assert not (site.media / "backups").exists()
