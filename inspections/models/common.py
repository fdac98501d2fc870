"""Helpers shared by the inspection models: the SMO-only transition permission
and what every kept photo has."""

from django.conf import settings
from django.db import models
from django.utils import timezone

# Transition permission: only SMO staff drive field-work records.
from kernel.roles import smo_permission as is_smo
from kernel.workflow import Refused

__all__ = ["LockedRecordError", "StoredPhoto", "is_smo"]


class LockedRecordError(Refused):
    """A finalized record was about to be changed; corrections are added instead."""


class StoredPhoto(models.Model):
    """A photo as kernel.uploads keeps it: the private original with its SHA-256
    and a re-encoded display copy without metadata, served only through a
    role-checked view. Each kind names its own folders (`original`, `display`)."""

    caption = models.CharField(max_length=200, blank=True)
    original = models.FileField(upload_to="private/photo-originals/")
    original_sha256 = models.CharField(max_length=64)
    original_name = models.CharField(max_length=200)
    display = models.ImageField(upload_to="private/photo-display/")
    width = models.PositiveIntegerField()
    height = models.PositiveIntegerField()
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    uploaded_at = models.DateTimeField(default=timezone.now)

    class Meta:
        abstract = True

    @classmethod
    def of(cls, processed, **fields):
        """An unsaved photo of `processed` (kernel.uploads.ProcessedImage)."""
        return cls(
            original=processed.original,
            original_sha256=processed.original_sha256,
            original_name=processed.original_name,
            display=processed.display,
            width=processed.width,
            height=processed.height,
            **fields,
        )
