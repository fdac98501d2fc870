"""What an inspector's phone sent: one row per record made on the phone, and
one per photo taken with it, each by the key the phone made for it
(kernel.idempotency), however often it was sent."""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django_fsm import ConcurrentTransitionMixin, FSMField, transition

from inspections.models import StoredPhoto
from kernel.roles import smo_permission
from kernel.workflow import guard


class FieldRecord(ConcurrentTransitionMixin, models.Model):
    """A visit or a screening recorded on a phone, perhaps without signal, and
    received here. Applied at once when its item is as the phone downloaded it;
    otherwise kept for the SMO to apply or set aside (never applied blindly)."""

    class Kind(models.TextChoices):
        VISIT = "visit", "Inspection visit"
        SCREENING = "screening", "Outfall screening"

    class State(models.TextChoices):
        APPLIED = "applied", "Applied"
        NEEDS_ATTENTION = "attention", "Needs the SMO's decision"
        SET_ASIDE = "set_aside", "Set aside"

    key = models.CharField(max_length=64, unique=True)
    kind = models.CharField(max_length=10, choices=Kind.choices)
    inspector = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    inspection = models.ForeignKey(
        "inspections.Inspection",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="field_records",
    )
    outfall = models.ForeignKey(
        "cases.Outfall",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="field_records",
    )
    # What the phone sent, as sent (the fields of the visit or the screening).
    fields = models.JSONField()
    # The item as the phone downloaded it (`fieldwork.package.version_of`).
    downloaded_version = models.CharField(max_length=200, blank=True)
    recorded_on_site_at = models.DateTimeField()
    received_at = models.DateTimeField(default=timezone.now)
    state = FSMField(max_length=10, choices=State.choices, protected=True)
    problem = models.TextField(
        blank=True, help_text="Why it was kept for the SMO instead of applied."
    )
    screening = models.OneToOneField(
        "inspections.OutfallScreening",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="field_record",
    )
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    decision_note = models.TextField(blank=True)

    class Meta:
        ordering = ["received_at", "id"]
        indexes = [models.Index(fields=["state", "received_at"])]

    def __str__(self):
        return f"{self.get_kind_display()} sent from a phone ({self.key[:8]})"

    def chronology_links(self):
        """On the inspection's case and premises; a screening's on none (as the
        office's own screenings)."""
        if self.inspection_id is None:
            return None, None
        inspection = self.inspection
        premises = inspection.premises
        return inspection.case, premises

    @guard("say why it is set aside")
    def has_decision_note(self) -> bool:
        return bool(self.decision_note.strip())

    @transition(
        state,
        source=State.NEEDS_ATTENTION,
        target=State.APPLIED,
        permission=smo_permission,
        custom={"label": "Apply it"},
    )
    def apply(self):
        """The SMO applies it as sent (fieldwork.services.field_record_apply)."""

    @transition(
        state,
        source=State.NEEDS_ATTENTION,
        target=State.SET_ASIDE,
        permission=smo_permission,
        conditions=[has_decision_note],
        custom={"label": "Set it aside"},
    )
    def set_aside(self):
        """Kept as sent, not applied: the SMO said why."""


class FieldPhoto(StoredPhoto):
    """A photo taken with a record on the phone (resized there), kept as
    StoredPhoto does. Placed on the record's inspection or screening as soon as
    the record is applied (`placed_at`); until then, or when it could not be
    placed (`problem`), it stays here with the record."""

    record = models.ForeignKey(
        FieldRecord, on_delete=models.PROTECT, related_name="photos"
    )
    key = models.CharField(max_length=64, unique=True)
    original = models.FileField(upload_to="private/fieldwork-originals/")
    display = models.ImageField(upload_to="private/fieldwork-display/")
    placed_at = models.DateTimeField(null=True, blank=True)
    problem = models.TextField(
        blank=True, help_text="Why it could not be placed with the record."
    )

    class Meta:
        ordering = ["uploaded_at", "id"]

    def __str__(self):
        return f"Photo sent from a phone with {self.record}"
