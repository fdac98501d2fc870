"""Inspections of facilities and premises, their samples, photos and corrections,
and search-warrant applications (§ 132-11: R-ACC-1, R-ACC-3, R-ACC-4)."""

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django_fsm import ConcurrentTransitionMixin, FSMField, transition

from kernel.humanize import human_short_date
from kernel.workflow import guard

from .common import LockedRecordError, StoredPhoto, is_smo


class InspectionStatus(models.TextChoices):
    SCHEDULED = "scheduled", "Scheduled"
    RECORDED = "recorded", "Recorded"
    FINALIZED = "finalized", "Finalized (locked)"
    CANCELLED = "cancelled", "Cancelled"


class InspectionQuerySet(models.QuerySet):
    def update(self, **kwargs):
        if self.filter(status=InspectionStatus.FINALIZED).exists():
            raise LockedRecordError(
                "A finalized inspection cannot be changed; add a correction."
            )
        return super().update(**kwargs)

    def delete(self):
        raise LockedRecordError("Inspections are kept; cancel one instead.")


class Inspection(ConcurrentTransitionMixin, models.Model):
    """An entry of the SMO onto a facility or premises to inspect, sample and read
    records (R-ACC-1). The facility must give ready access; an unreasonable delay
    is a violation and a denial an offense (R-ACC-3).

    Once finalized the inspection is locked: no field changes. Later corrections
    are InspectionCorrection rows, added beside it. The one addition allowed is to
    link a case when none was linked (filling an empty link overwrites nothing)."""

    class Kind(models.TextChoices):
        ROUTINE = "routine", "Routine"
        COMPLAINT = "complaint", "Complaint"
        FOLLOW_UP = "follow_up", "Follow-up"

    class Access(models.TextChoices):
        GRANTED = "granted", "Access granted"
        DELAYED = "delayed", "Access delayed"
        REFUSED = "refused", "Access refused"

    kind = models.CharField(max_length=12, choices=Kind.choices)
    status = FSMField(
        max_length=12,
        choices=InspectionStatus.choices,
        default=InspectionStatus.SCHEDULED,
        protected=True,
        db_index=True,
    )
    facility = models.ForeignKey(
        "inspections.Facility",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="inspections",
    )
    premises = models.ForeignKey(
        "cases.Premises", on_delete=models.PROTECT, related_name="inspections"
    )
    case = models.ForeignKey(
        "cases.Case",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="inspections",
    )
    officer = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="inspections"
    )
    scheduled_for = models.DateTimeField(db_index=True)
    purpose = models.CharField(max_length=200, blank=True)

    # Recorded on the visit.
    performed_at = models.DateTimeField(null=True, blank=True)
    attendees = models.CharField(
        "who went", max_length=300, blank=True, help_text="Names of everyone who went."
    )
    access_outcome = models.CharField(max_length=8, choices=Access.choices, blank=True)
    access_notes = models.TextField(
        blank=True,
        help_text="Who granted, delayed or refused access, and what was said.",
    )
    findings = models.TextField(blank=True)

    cancelled_reason = models.TextField(blank=True)
    finalized_at = models.DateTimeField(null=True, blank=True)
    finalized_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    objects = InspectionQuerySet.as_manager()

    class Meta:
        ordering = ["-scheduled_for"]
        indexes = [models.Index(fields=["officer", "status", "scheduled_for"])]

    def __str__(self):
        return (
            f"Inspection {self.pk}: {self.premises} "
            f"{human_short_date(self.scheduled_for)}"
        )

    # --- the lock ---------------------------------------------------------
    def save(self, *args, **kwargs):
        if self.pk is not None:
            stored = type(self).objects.filter(pk=self.pk).values().first()
            if stored and stored["status"] == InspectionStatus.FINALIZED:
                self._refuse_changes_to_finalized(stored)
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse("inspections:inspection_detail", args=[self.pk])

    def _refuse_changes_to_finalized(self, stored: dict) -> None:
        changed = []
        for field in self._meta.concrete_fields:
            old, new = stored[field.attname], getattr(self, field.attname)
            if old == new:
                continue
            if field.attname == "case_id" and old is None:
                continue  # linking a case where none was linked adds, not overwrites
            changed.append(field.name)
        if changed:
            raise LockedRecordError(
                "This inspection is finalized and locked; add a correction instead "
                f"(tried to change: {', '.join(changed)})."
            )

    def delete(self, *args, **kwargs):
        raise LockedRecordError("Inspections are kept; cancel one instead.")

    @property
    def is_locked(self) -> bool:
        return self.status == InspectionStatus.FINALIZED

    @property
    def access_obstructed(self) -> bool:
        """R-ACC-3: a delay or a refusal of access."""
        return self.access_outcome in {self.Access.DELAYED, self.Access.REFUSED}

    @property
    def access_refused(self) -> bool:
        return self.access_outcome == self.Access.REFUSED

    @property
    def takes_findings_edits(self) -> bool:
        """Recorded but not finalized: the findings may still be edited."""
        return self.status == InspectionStatus.RECORDED

    @property
    def takes_samples(self) -> bool:
        """Samples and photos are added until it is finalized or cancelled."""
        return self.status in {InspectionStatus.SCHEDULED, InspectionStatus.RECORDED}

    # --- conditions -------------------------------------------------------
    @guard(
        "record when the visit took place, who went and the access outcome",
        rule="R-ACC-1",
    )
    def has_visit_record(self) -> bool:
        return (
            self.performed_at is not None
            and bool(self.attendees.strip())
            and bool(self.access_outcome)
        )

    @guard("give the reason for cancelling")
    def has_cancel_reason(self) -> bool:
        return bool(self.cancelled_reason.strip())

    # --- transitions ------------------------------------------------------
    @transition(
        status,
        source=InspectionStatus.SCHEDULED,
        target=InspectionStatus.RECORDED,
        permission=is_smo,
        conditions=[has_visit_record],
        custom={"label": "Record the visit", "rule_id": "R-ACC-1", "form": "visit"},
    )
    def record_visit(self):
        pass

    @transition(
        status,
        source=InspectionStatus.RECORDED,
        target=InspectionStatus.FINALIZED,
        permission=is_smo,
        custom={
            "label": "Finalize (lock)",
            "rule_id": "R-ACC-1",
            "binding": True,
            "confirm": "inspection_finalize",
        },
    )
    def finalize(self):
        self.finalized_at = timezone.now()

    @transition(
        status,
        source=InspectionStatus.SCHEDULED,
        target=InspectionStatus.CANCELLED,
        permission=is_smo,
        conditions=[has_cancel_reason],
        custom={"label": "Cancel the inspection", "form": "cancel"},
    )
    def cancel(self):
        pass


class InspectionCorrection(models.Model):
    """A correction to a finalized inspection: added beside it, never overwriting.
    Append-only like the timeline."""

    inspection = models.ForeignKey(
        Inspection, on_delete=models.PROTECT, related_name="corrections"
    )
    field_name = models.CharField("what is corrected", max_length=40)
    corrected_text = models.TextField("correct information")
    reason = models.TextField()
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self):
        return f"Correction {self.pk} of inspection {self.inspection_id}"

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise LockedRecordError("Corrections are append-only.")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise LockedRecordError("Corrections are append-only.")


class _InspectionPart(models.Model):
    """A sample or photo: part of the inspection, so locked with it."""

    class Meta:
        abstract = True

    def save(self, *args, **kwargs):
        status = (
            Inspection.objects.filter(pk=self.inspection_id)
            .values_list("status", flat=True)
            .first()
        )
        if status in {InspectionStatus.FINALIZED, InspectionStatus.CANCELLED}:
            raise LockedRecordError(
                "This inspection is finalized or cancelled; its samples and photos "
                "can no longer change. Add a correction instead."
            )
        super().save(*args, **kwargs)


def plain_decimal(value) -> str:
    """2.1000 → "2.1", 100.0000 → "100" (never "1E+2")."""
    text = format(value, "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text


class Sample(_InspectionPart):
    """A sample taken on an inspection (§ 132-11 B: sampling)."""

    inspection = models.ForeignKey(
        Inspection, on_delete=models.PROTECT, related_name="samples"
    )
    parameter = models.CharField(max_length=100, help_text="e.g. E. coli, pH, TSS")
    value = models.DecimalField(max_digits=14, decimal_places=4, null=True, blank=True)
    value_as_entered = models.CharField(
        max_length=30,
        blank=True,
        help_text="The value as it was written (2.10 is not 2.1: its decimals are "
        "the lab's precision); `value` is the number, for comparing and counting.",
    )
    unit = models.CharField(max_length=40, blank=True)
    method = models.CharField(max_length=100, blank=True)
    lab = models.CharField("laboratory", max_length=200, blank=True)
    chain_of_custody_number = models.CharField(max_length=60)
    sampled_on = models.DateField()
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    recorded_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["sampled_on", "id"]

    def __str__(self):
        shown = self.shown_value
        value = f" {shown} {self.unit}".rstrip() if shown else ""
        return f"{self.parameter}{value} (CoC {self.chain_of_custody_number})"

    @property
    def shown_value(self) -> str:
        """The value as entered ("2.1", "2.10", "100"); for a sample recorded
        before that was kept, the stored number without its padding zeros."""
        if self.value_as_entered:
            return self.value_as_entered
        if self.value is None:
            return ""
        return plain_decimal(self.value)


class InspectionPhoto(_InspectionPart, StoredPhoto):
    """A photo from an inspection (StoredPhoto)."""

    inspection = models.ForeignKey(
        Inspection, on_delete=models.PROTECT, related_name="photos"
    )
    original = models.FileField(upload_to="private/inspection-originals/")
    display = models.ImageField(upload_to="private/inspection-display/")

    def __str__(self):
        return f"Photo {self.pk} of inspection {self.inspection_id}"


class WarrantStatus(models.TextChoices):
    DRAFT = "draft", "Draft"
    FILED = "filed", "Filed with the court"
    ISSUED = "issued", "Warrant issued"
    DENIED = "denied", "Warrant denied"
    EXECUTED = "executed", "Warrant executed"


class WarrantApplication(ConcurrentTransitionMixin, models.Model):
    """R-ACC-4: after access was refused, the SMO may seek a search warrant from a
    court of competent jurisdiction on a showing of probable cause."""

    inspection = models.ForeignKey(
        Inspection, on_delete=models.PROTECT, related_name="warrant_applications"
    )
    case = models.ForeignKey(
        "cases.Case",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="warrant_applications",
    )
    status = FSMField(
        max_length=10,
        choices=WarrantStatus.choices,
        default=WarrantStatus.DRAFT,
        protected=True,
    )
    probable_cause = models.TextField(
        "probable-cause statement",
        blank=True,
        help_text="Why there may be a violation, or the routine sampling program "
        "the inspection belongs to.",
    )
    court = models.CharField(max_length=200, blank=True)
    filed_on = models.DateField(null=True, blank=True)
    issued_on = models.DateField(null=True, blank=True)
    denied_on = models.DateField(null=True, blank=True)
    executed_on = models.DateField(null=True, blank=True)
    outcome_notes = models.TextField(blank=True)
    prepared_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self):
        return f"Warrant application {self.pk} ({self.get_status_display()})"

    def get_absolute_url(self) -> str:
        return reverse("inspections:warrant_detail", args=[self.pk])

    @property
    def premises(self):
        """The premises of the inspection it follows (its chronology's place)."""
        return self.inspection.premises

    @property
    def is_draft(self) -> bool:
        """Still a draft: the statement and the court may be edited."""
        return self.status == WarrantStatus.DRAFT

    @property
    def was_executed(self) -> bool:
        """The warrant was executed: the entry it allows may be recorded."""
        return self.status == WarrantStatus.EXECUTED

    @guard(
        "give the probable-cause statement, the court and the filing date",
        rule="R-ACC-4",
    )
    def has_filing(self) -> bool:
        return (
            bool(self.probable_cause.strip())
            and bool(self.court.strip())
            and self.filed_on is not None
        )

    @guard("give the date the warrant was issued", rule="R-ACC-4")
    def has_issue_date(self) -> bool:
        return self.issued_on is not None

    @guard("give the date the warrant was denied", rule="R-ACC-4")
    def has_denial_date(self) -> bool:
        return self.denied_on is not None

    @guard("give the date the warrant was executed", rule="R-ACC-4")
    def has_execution_date(self) -> bool:
        return self.executed_on is not None

    @transition(
        status,
        source=WarrantStatus.DRAFT,
        target=WarrantStatus.FILED,
        permission=is_smo,
        conditions=[has_filing],
        custom={"label": "File with the court", "rule_id": "R-ACC-4", "form": "file"},
    )
    def file(self):
        pass

    @transition(
        status,
        source=WarrantStatus.FILED,
        target=WarrantStatus.ISSUED,
        permission=is_smo,
        conditions=[has_issue_date],
        custom={
            "label": "Record the warrant issued",
            "rule_id": "R-ACC-4",
            "form": "issued",
        },
    )
    def record_issued(self):
        pass

    @transition(
        status,
        source=WarrantStatus.FILED,
        target=WarrantStatus.DENIED,
        permission=is_smo,
        conditions=[has_denial_date],
        custom={
            "label": "Record the warrant denied",
            "rule_id": "R-ACC-4",
            "form": "denied",
        },
    )
    def record_denied(self):
        pass

    @transition(
        status,
        source=WarrantStatus.ISSUED,
        target=WarrantStatus.EXECUTED,
        permission=is_smo,
        conditions=[has_execution_date],
        custom={
            "label": "Record the warrant executed",
            "rule_id": "R-ACC-4",
            "form": "executed",
        },
    )
    def record_executed(self):
        pass
