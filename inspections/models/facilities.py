"""Facilities with SPDES permits, proof of compliance, monitoring equipment and
best management practices (§ 132-6 A(4), § 132-8, § 132-10, § 132-11 B(3)-(4))."""

import datetime as dt
from decimal import Decimal

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone
from simple_history.models import HistoricalRecords

from kernel.humanize import human_short_date

# R-DEF-1: "construction activity" is land disturbance of at least 1/8 acre.
CONSTRUCTION_MIN_ACRES = Decimal("0.125")


class Facility(models.Model):
    """A premises holding an industrial or construction-activity SPDES stormwater
    permit (R-IND-1), with the written approval to discharge to the MS4 (R-PRO-5).
    Construction activity means land disturbance of at least 1/8 acre (R-DEF-1)."""

    class PermitType(models.TextChoices):
        INDUSTRIAL = "industrial", "Industrial activity SPDES permit"
        CONSTRUCTION = "construction", "Construction activity SPDES permit"

    premises = models.ForeignKey(
        "cases.Premises", on_delete=models.PROTECT, related_name="facilities"
    )
    name = models.CharField(max_length=200)
    operator = models.ForeignKey(
        "cases.Party",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="facilities",
    )
    contact_email = models.EmailField(blank=True)
    permit_type = models.CharField(max_length=16, choices=PermitType.choices)
    permit_number = models.CharField("SPDES permit number", max_length=60)
    permit_issued_on = models.DateField()
    permit_expires_on = models.DateField(null=True, blank=True)
    disturbed_acres = models.DecimalField(
        "land disturbed (acres)",
        max_digits=8,
        decimal_places=3,
        null=True,
        blank=True,
        help_text="Construction permits only: at least 0.125 acre (1/8 acre).",
    )
    ms4_approval_on = models.DateField(
        "written approval to discharge to the MS4: date", null=True, blank=True
    )
    ms4_approval_reference = models.CharField(
        "written approval: reference", max_length=200, blank=True
    )
    notes = models.TextField(blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    history = HistoricalRecords()

    class Meta:
        ordering = ["name"]
        verbose_name_plural = "facilities"
        constraints = [
            models.UniqueConstraint(
                fields=["permit_type", "permit_number"], name="one_facility_per_permit"
            ),
            models.CheckConstraint(
                condition=~models.Q(permit_type="construction")
                | models.Q(disturbed_acres__gte=CONSTRUCTION_MIN_ACRES),
                name="construction_permit_disturbs_an_eighth_acre",
            ),
        ]

    def __str__(self):
        return f"{self.name} ({self.permit_number})"

    def clean(self):
        errors = {}
        if self.permit_type == self.PermitType.CONSTRUCTION:
            if self.disturbed_acres is None:
                errors["disturbed_acres"] = (
                    "Give the acreage disturbed: a construction permit covers land "
                    "disturbance of at least 1/8 acre (R-DEF-1)."
                )
            elif self.disturbed_acres < CONSTRUCTION_MIN_ACRES:
                errors["disturbed_acres"] = (
                    f"{self.disturbed_acres} acre is less than 1/8 acre (0.125): "
                    "that is not construction activity under R-DEF-1."
                )
        if (
            self.permit_expires_on
            and self.permit_issued_on
            and self.permit_expires_on < self.permit_issued_on
        ):
            errors["permit_expires_on"] = (
                "The permit cannot expire before it was issued."
            )
        if self.permit_issued_on and self.permit_issued_on > timezone.localdate():
            errors["permit_issued_on"] = "The issue date is in the future."
        if bool(self.ms4_approval_on) != bool(self.ms4_approval_reference.strip()):
            errors["ms4_approval_reference"] = (
                "Give both the date and the reference of the written approval, or "
                "neither (R-PRO-5)."
            )
        if errors:
            raise ValidationError(errors)

    def permit_valid_on(self, day: dt.date) -> bool:
        return self.permit_issued_on <= day and (
            self.permit_expires_on is None or day <= self.permit_expires_on
        )

    def has_valid_industrial_permit(self, day: dt.date | None = None) -> bool:
        """§ 132-8: a valid industrial SPDES permit counts as BMP compliance."""
        return self.permit_type == self.PermitType.INDUSTRIAL and self.permit_valid_on(
            day or timezone.localdate()
        )

    @property
    def has_ms4_approval(self) -> bool:
        return self.ms4_approval_on is not None


class ComplianceProofRequest(models.Model):
    """A request that the permittee prove compliance with its permit before
    discharges to the MS4 are allowed (R-IND-1), and the proof filed."""

    facility = models.ForeignKey(
        Facility, on_delete=models.PROTECT, related_name="proof_requests"
    )
    case = models.ForeignKey(
        "cases.Case", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    requested_on = models.DateField()
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    what_is_required = models.TextField()
    proof_received_on = models.DateField(null=True, blank=True)
    proof_description = models.TextField(blank=True)
    accepted = models.BooleanField(null=True, blank=True)

    class Meta:
        ordering = ["-requested_on", "-id"]

    def __str__(self):
        return f"Proof of compliance request {self.pk} ({self.facility})"


class MonitoringEquipment(models.Model):
    """R-ACC-2: a device the village set up on a facility, or monitoring equipment
    the facility was required to install and keep calibrated at its expense."""

    class Kind(models.TextChoices):
        VILLAGE_DEVICE = "village", "Village-installed device"
        FACILITY_REQUIRED = "facility", "Equipment the facility must install"

    facility = models.ForeignKey(
        Facility, on_delete=models.PROTECT, related_name="equipment"
    )
    kind = models.CharField(max_length=10, choices=Kind.choices)
    description = models.CharField(max_length=200)
    location = models.CharField(max_length=200, blank=True)
    installed_on = models.DateField(null=True, blank=True)
    calibration_interval_months = models.PositiveSmallIntegerField(
        default=12, help_text="Months between calibrations (village setting)."
    )
    active = models.BooleanField(default=True)

    class Meta:
        ordering = ["facility", "description"]
        verbose_name_plural = "monitoring equipment"

    def __str__(self):
        return f"{self.description} at {self.facility.name}"


class Calibration(models.Model):
    """One calibration of monitoring equipment (R-ACC-2)."""

    equipment = models.ForeignKey(
        MonitoringEquipment, on_delete=models.PROTECT, related_name="calibrations"
    )
    calibrated_on = models.DateField()
    calibrated_by = models.CharField(max_length=200)
    notes = models.TextField(blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    recorded_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-calibrated_on", "-id"]

    def __str__(self):
        return (
            f"Calibrated {human_short_date(self.calibrated_on)} by {self.calibrated_by}"
        )

    def calibration_period(self) -> dict:
        """The interval to the next calibration (R-ACC-2; cases.clocks)."""
        return {"months": self.equipment.calibration_interval_months}


class BMPRequirement(models.Model):
    """R-BMP-1: structural or nonstructural best management practices the SMO
    requires of a person, at that person's expense. A valid industrial SPDES permit
    of the facility counts as compliance (§ 132-8)."""

    class PracticeType(models.TextChoices):
        STRUCTURAL = "structural", "Structural"
        NONSTRUCTURAL = "nonstructural", "Nonstructural"

    premises = models.ForeignKey(
        "cases.Premises", on_delete=models.PROTECT, related_name="bmp_requirements"
    )
    facility = models.ForeignKey(
        Facility,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="bmp_requirements",
    )
    case = models.ForeignKey(
        "cases.Case",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="bmp_requirements",
    )
    responsible_party = models.ForeignKey(
        "cases.Party", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    practice_type = models.CharField(max_length=16, choices=PracticeType.choices)
    description = models.TextField()
    at_persons_expense = models.BooleanField("at the person's expense", default=True)
    required_on = models.DateField()
    days_to_implement = models.PositiveSmallIntegerField(default=30)
    verified_on = models.DateField(null=True, blank=True)
    verification_notes = models.TextField(blank=True)
    satisfied_by_permit = models.BooleanField(
        "satisfied by a valid industrial SPDES permit", default=False
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-required_on", "-id"]
        verbose_name = "BMP requirement"

    def __str__(self):
        return f"{self.get_practice_type_display()} BMP at {self.premises}"

    @property
    def is_satisfied(self) -> bool:
        return self.satisfied_by_permit or self.verified_on is not None

    def implementation_period(self) -> dict:
        """The days to implement (R-BMP-1; cases.clocks)."""
        return {"days": self.days_to_implement}
