"""The file half of a backup: which folders hold uploaded and issued files, the
archive's manifest of SHA-256 sums, and reading an archive back safely."""

from __future__ import annotations

import hashlib
import json
import tarfile
from pathlib import Path, PurePosixPath

from django.apps import apps
from django.conf import settings
from django.core.files.storage import FileSystemStorage
from django.db import models

from .errors import BackupError, RestoreRefused

MANIFEST_NAME = "MANIFEST.json"
MANIFEST_FORMAT = "poquott-ms4-backup"
MANIFEST_VERSION = 1
CHUNK = 1024 * 1024


def media_roots() -> dict[str, Path]:
    """The folders to back up, by a name that is the same on every server:
    "media" is MEDIA_ROOT (evidence photos, attachments, appeal documents and
    issued PDFs all live under its private/ folder); a file field given its own
    file-system storage elsewhere adds a root named after the field. A field on
    any other kind of storage cannot be backed up from here: refused, so that a
    backup never silently leaves records out."""
    roots = {"media": Path(settings.MEDIA_ROOT).resolve()}
    for model in apps.get_models():
        for field in model._meta.get_fields():
            if not isinstance(field, models.FileField):
                continue
            storage = field.storage
            if not isinstance(storage, FileSystemStorage):
                raise BackupError(
                    f"{model._meta.label}.{field.name} stores its files in "
                    f"{type(storage).__name__}, which this command cannot back up."
                )
            location = Path(storage.location).resolve()
            if not any(location == r or r in location.parents for r in roots.values()):
                roots[f"media-{model._meta.label_lower}.{field.name}"] = location
    return roots


def files_under(root: Path) -> list[Path]:
    """Every regular file under `root` (symbolic links are not followed)."""
    if not root.exists():
        return []
    return sorted(p for p in root.rglob("*") if p.is_file() and not p.is_symlink())


class _HashingReader:
    """Reads a file into the archive and hashes the very bytes written, so the
    manifest describes what is in the archive, not what was on disk a moment
    before or after."""

    def __init__(self, handle):
        self.handle = handle
        self.digest = hashlib.sha256()

    def read(self, size=-1):
        data = self.handle.read(size)
        self.digest.update(data)
        return data


def add_file(tar: tarfile.TarFile, path: Path, arcname: str) -> dict:
    info = tar.gettarinfo(str(path), arcname=arcname)
    info.uid = info.gid = 0
    info.uname = info.gname = ""
    with open(path, "rb") as handle:
        reader = _HashingReader(handle)
        tar.addfile(info, reader)
    return {"path": arcname, "size": info.size, "sha256": reader.digest.hexdigest()}


def add_bytes(tar: tarfile.TarFile, data: bytes, arcname: str, mtime: float) -> None:
    import io

    info = tarfile.TarInfo(arcname)
    info.size = len(data)
    info.mtime = mtime
    info.mode = 0o600
    tar.addfile(info, io.BytesIO(data))


def sha256_of_file(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(CHUNK), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _safe_member(member: tarfile.TarInfo) -> str | None:
    """Why a member may not be extracted (None: it may)."""
    name = PurePosixPath(member.name)
    if name.is_absolute() or ".." in name.parts:
        return f"{member.name}: a path outside the archive"
    if not (member.isfile() or member.isdir()):
        return f"{member.name}: not a regular file"
    return None


def extract(archive: Path, into: Path) -> None:
    """Unpack the archive into an empty folder, refusing anything but plain files
    and folders inside it (no links, devices or paths that climb out)."""
    try:
        with tarfile.open(archive, "r:*") as tar:
            members = tar.getmembers()
            problems = [p for p in map(_safe_member, members) if p]
            if problems:
                raise RestoreRefused(
                    "The archive holds entries a backup never contains: "
                    + "; ".join(problems[:5])
                )
            tar.extractall(into, members=members, filter="data")
    except (tarfile.TarError, EOFError, OSError) as exc:
        raise RestoreRefused(
            f"{archive} cannot be read as a backup archive (damaged or cut "
            f"short?): {exc}"
        ) from exc


def read_manifest(folder: Path) -> dict:
    path = folder / MANIFEST_NAME
    if not path.is_file():
        raise RestoreRefused(f"The archive has no {MANIFEST_NAME}: not a backup.")
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:
        raise RestoreRefused(f"{MANIFEST_NAME} cannot be read: {exc}") from exc
    if manifest.get("format") != MANIFEST_FORMAT:
        raise RestoreRefused(f"{MANIFEST_NAME} is not a {MANIFEST_FORMAT} manifest.")
    if manifest.get("format_version") != MANIFEST_VERSION:
        raise RestoreRefused(
            f"The archive's format version {manifest.get('format_version')} is not "
            f"{MANIFEST_VERSION}, which this code reads."
        )
    return manifest


def verify_against_manifest(folder: Path, manifest: dict) -> list[str]:
    """Every file listed with its size and SHA-256, and nothing unlisted: the
    problems found (empty when the archive is intact)."""
    problems = []
    listed = {entry["path"]: entry for entry in manifest.get("files", [])}
    present = {
        p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()
    }
    present.discard(MANIFEST_NAME)  # the top-level manifest itself
    for name in sorted(set(listed) - present):
        problems.append(f"{name} is listed but missing")
    for name in sorted(present - set(listed)):
        problems.append(f"{name} is in the archive but not listed")
    for name in sorted(set(listed) & present):
        path = folder / name
        entry = listed[name]
        if path.stat().st_size != entry["size"]:
            problems.append(
                f"{name}: {path.stat().st_size} bytes, the manifest says "
                f"{entry['size']}"
            )
        elif sha256_of_file(path) != entry["sha256"]:
            problems.append(f"{name}: its SHA-256 differs from the manifest's")
    return problems
