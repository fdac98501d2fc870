"""After a restore: does every record's file exist, and does every stored SHA-256
still match its file? Issued documents are checked by `document_verify`, the same
check the document pages use; evidence with a stored hash by the same computation;
every other stored file (display copies) for being there at all."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from django.apps import apps
from django.db import models

from documents.services import document_verify

# (model, file field, hash field, what the office calls them). Issued documents first:
# they are what the restore must prove intact.
HASHED_FILES = [
    ("documents.IssuedDocument", "pdf", "sha256", "issued documents"),
    ("intake.ReportPhoto", "original", "original_sha256", "report photos"),
    ("inspections.InspectionPhoto", "original", "original_sha256", "inspection photos"),
    ("inspections.ScreeningPhoto", "original", "original_sha256", "screening photos"),
    ("fieldwork.FieldPhoto", "original", "original_sha256", "photos sent from phones"),
    ("cases.Attachment", "file", "sha256", "case attachments"),
    ("enforcement.AppealDocument", "file", "sha256", "appeal documents"),
]
DOCUMENTS = "issued documents"
OTHER_FILES = "other stored files"


@dataclass
class Tally:
    label: str
    verified: int = 0
    mismatched: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.mismatched and not self.missing

    def line(self) -> str:
        return (
            f"{self.label}: {self.verified} verified, {len(self.mismatched)} "
            f"mismatched, {len(self.missing)} missing"
        )


def _sha256(fieldfile) -> str:
    digest = hashlib.sha256()
    with fieldfile.open("rb") as handle:
        for chunk in iter(lambda: handle.read(65536), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _check_hashed(model, file_field, hash_field, tally: Tally) -> None:
    rows = (
        model._default_manager.exclude(**{file_field: ""})
        .only("pk", file_field, hash_field)
        .order_by("pk")
    )
    for row in rows.iterator():
        fieldfile = getattr(row, file_field)
        where = f"{model._meta.label} {row.pk} ({fieldfile.name})"
        if not fieldfile.storage.exists(fieldfile.name):
            tally.missing.append(where)
            continue
        if model._meta.label == "documents.IssuedDocument":
            matches, _ = document_verify(row)
        else:
            matches = _sha256(fieldfile) == getattr(row, hash_field)
        if matches:
            tally.verified += 1
        else:
            tally.mismatched.append(where)


def _check_present(model, fields, tally: Tally) -> None:
    for name in fields:
        rows = model._default_manager.exclude(**{name: ""}).only("pk", name)
        for row in rows.order_by("pk").iterator():
            fieldfile = getattr(row, name)
            if fieldfile.storage.exists(fieldfile.name):
                tally.verified += 1
            else:
                tally.missing.append(f"{model._meta.label} {row.pk} ({fieldfile.name})")


def verify_stored_files() -> list[Tally]:
    """One tally per kind of record: issued documents first, then evidence, then
    every other file a record points at (checked for presence only)."""
    tallies = []
    hashed = set()
    for label, file_field, hash_field, what in HASHED_FILES:
        try:
            model = apps.get_model(label)
        except LookupError:
            continue
        tally = Tally(what)
        _check_hashed(model, file_field, hash_field, tally)
        tallies.append(tally)
        hashed.add((label, file_field))
    others = Tally(OTHER_FILES)
    for model in apps.get_models():
        fields = [
            f.name
            for f in model._meta.concrete_fields
            if isinstance(f, models.FileField)
            and (model._meta.label, f.name) not in hashed
        ]
        if fields:
            _check_present(model, fields, others)
    tallies.append(others)
    return tallies
