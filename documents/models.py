"""Issued documents: a notice or letter as it was rendered, frozen once issued.
The table keeps the name it had under cases (documents 0001, cases 0040)."""

import uuid

from django.conf import settings
from django.contrib.contenttypes.fields import GenericForeignKey
from django.contrib.contenttypes.models import ContentType
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models
from django.utils import timezone
from django_fsm import ConcurrentTransitionMixin, FSMField, transition

from .contracts import document_kinds


class DocumentFrozenError(Exception):
    """Raised on any attempt to change or delete an issued document."""


def document_upload_path(instance, filename):
    # Never a guessable name: a random name under a private folder (not served by
    # MEDIA_URL; the download view checks the reader's role).
    return f"private/documents/{uuid.uuid4().hex}.pdf"


class IssuedDocumentQuerySet(models.QuerySet):
    def update(self, **kwargs):
        raise DocumentFrozenError(
            "Documents change only through their own save(); bulk updates are refused."
        )

    def delete(self):
        raise DocumentFrozenError("Documents are kept; they cannot be deleted.")


class IssuedDocument(ConcurrentTransitionMixin, models.Model):
    """A document the office sent or filed (a notice of violation under
    § 132-13 A, a suspension notice under § 132-9, a decision under § 132-14…).

    Rows are written by documents.services. `facts` is the frozen contract
    (documents.contracts), `citations` the citation rows as printed, `html`
    the markup the PDF was rendered from. Once issued nothing changes and nothing
    is deleted (save/delete refuse; on PostgreSQL a trigger refuses too); a
    correction is a new version that `supersedes` the old one."""

    class Status(models.TextChoices):
        RENDERING = "rendering", "Rendering…"
        ISSUED = "issued", "Issued"
        FAILED = "failed", "Rendering failed"

    kind = models.CharField(max_length=32, choices=document_kinds)
    # Empty for a document of the office as a whole (the annual report, issue 17).
    case = models.ForeignKey(
        "cases.Case",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="documents",
    )
    content_type = models.ForeignKey(
        ContentType, on_delete=models.PROTECT, related_name="+"
    )
    object_id = models.PositiveBigIntegerField()
    source = GenericForeignKey("content_type", "object_id")
    version = models.PositiveSmallIntegerField(default=1)
    supersedes = models.OneToOneField(
        "self",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="superseded_by",
    )
    status = FSMField(
        max_length=12,
        choices=Status.choices,
        default=Status.RENDERING,
        protected=True,
        db_index=True,
    )
    title = models.CharField(max_length=200)
    document_number = models.CharField(max_length=60, blank=True)
    facts = models.JSONField(encoder=DjangoJSONEncoder)
    citations = models.JSONField(
        encoder=DjangoJSONEncoder, help_text="The citation rows as printed."
    )
    html = models.TextField()
    pdf = models.FileField(upload_to=document_upload_path, blank=True)
    size = models.PositiveIntegerField(null=True, blank=True)
    sha256 = models.CharField(max_length=64, blank=True)
    template_name = models.CharField(max_length=200)
    template_version = models.CharField(max_length=64)
    pdf_variant = models.CharField(max_length=16, blank=True)
    pdfa = models.BooleanField(default=False)
    error = models.TextField(blank=True)
    issued_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    issued_at = models.DateTimeField(null=True, blank=True)

    objects = IssuedDocumentQuerySet.as_manager()

    class Meta:
        db_table = "cases_issueddocument"  # moved from cases with its rows (issue 30)
        ordering = ["case", "kind", "version", "id"]
        indexes = [models.Index(fields=["content_type", "object_id"])]
        constraints = [
            models.UniqueConstraint(
                fields=["content_type", "object_id", "kind", "version"],
                condition=~models.Q(status="failed"),
                name="one_live_document_per_source_kind_version",
            ),
            models.CheckConstraint(
                condition=~models.Q(status="issued")
                | (~models.Q(sha256="") & ~models.Q(pdf="")),
                name="issued_document_has_pdf_and_hash",
            ),
        ]

    def __str__(self):
        return f"{self.title} {self.document_number} v{self.version}".strip()

    # --- freezing ---------------------------------------------------------------
    def save(self, *args, **kwargs):
        if self._stored_status() == self.Status.ISSUED:
            raise DocumentFrozenError(
                f"{self} has been issued; it cannot be changed. Issue a "
                "correction (a new version) instead."
            )
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise DocumentFrozenError("Documents are kept; they cannot be deleted.")

    def _stored_status(self):
        if self.pk is None:
            return None
        return (
            type(self)
            .objects.filter(pk=self.pk)
            .values_list("status", flat=True)
            .first()
        )

    # --- state ----------------------------------------------------------------
    @property
    def is_issued(self) -> bool:
        return self.status == self.Status.ISSUED

    @property
    def is_rendering(self) -> bool:
        """The PDF is being made (the page refreshes until it is done)."""
        return self.status == self.Status.RENDERING

    @property
    def has_failed(self) -> bool:
        """Rendering failed; `error` says why and retry() renders it again."""
        return self.status == self.Status.FAILED

    @property
    def is_superseded(self) -> bool:
        return hasattr(self, "superseded_by")

    @property
    def download_name(self) -> str:
        owner = self.case.number if self.case_id else self.document_number
        return f"{owner}-{self.kind.replace('_', '-')}-v{self.version}.pdf"

    # The rendering worker's steps (documents.services), never a button.
    @transition(
        status,
        source=Status.RENDERING,
        target=Status.ISSUED,
        custom={"label": "Rendered and issued", "hidden": True},
    )
    def mark_issued(self):
        self.issued_at = timezone.now()
        self.error = ""

    @transition(
        status,
        source=Status.RENDERING,
        target=Status.FAILED,
        custom={"label": "Rendering failed", "hidden": True},
    )
    def mark_failed(self):
        pass  # the error text is recorded with the step (kernel.workflow.run fields)

    @transition(
        status,
        source=Status.FAILED,
        target=Status.RENDERING,
        custom={"label": "Render again", "hidden": True},
    )
    def retry(self):
        self.error = ""
