"""Dry-weather outfall screening (illicit discharge detection): the outfall
reconnaissance inventory's physical indicators, one visit per row."""

from django.conf import settings
from django.db import models
from django.utils import timezone

from kernel.humanize import human_short_date

from .common import StoredPhoto


class Level(models.TextChoices):
    NONE = "none", "None"
    FAINT = "faint", "Faint / slight"
    CLEAR = "clear", "Clearly visible / moderate"
    STRONG = "strong", "Strong / severe"


class OutfallScreening(models.Model):
    """A dry-weather screening visit to an outfall. Flow in dry weather, or an
    obvious or suspect indicator, suggests an illicit discharge (R-PRO-1)."""

    class Severity(models.TextChoices):
        NONE = "none", "Unlikely (no indicators)"
        POTENTIAL = "potential", "Potential (indicators present)"
        SUSPECT = "suspect", "Suspect (one or more indicators severe)"
        OBVIOUS = "obvious", "Obvious (illicit discharge seen)"

    class FlowRate(models.TextChoices):
        NONE = "none", "No flow"
        TRICKLE = "trickle", "Trickle"
        MODERATE = "moderate", "Moderate"
        SUBSTANTIAL = "substantial", "Substantial"

    outfall = models.ForeignKey(
        "cases.Outfall", on_delete=models.PROTECT, related_name="screenings"
    )
    case = models.ForeignKey(
        "cases.Case",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="outfall_screenings",
    )
    screened_at = models.DateTimeField()
    screened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    hours_since_rain = models.PositiveIntegerField(
        "hours since last rain (≥ 0.1 in)",
        null=True,
        blank=True,
        help_text="Dry weather is usually 72 hours or more.",
    )
    flow_present = models.BooleanField(default=False)
    flow_rate = models.CharField(
        max_length=12, choices=FlowRate.choices, default=FlowRate.NONE
    )
    colour = models.CharField(max_length=8, choices=Level.choices, default=Level.NONE)
    colour_description = models.CharField(max_length=100, blank=True)
    odour = models.CharField(max_length=8, choices=Level.choices, default=Level.NONE)
    odour_description = models.CharField(
        max_length=100, blank=True, help_text="sewage, sulfide, oil/gas, rancid…"
    )
    turbidity = models.CharField(
        max_length=8, choices=Level.choices, default=Level.NONE
    )
    floatables = models.CharField(
        max_length=8, choices=Level.choices, default=Level.NONE
    )
    deposits_stains = models.CharField(
        "deposits / stains", max_length=8, choices=Level.choices, default=Level.NONE
    )
    vegetation = models.CharField(
        "abnormal vegetation", max_length=8, choices=Level.choices, default=Level.NONE
    )
    pipe_benthic_growth = models.CharField(
        max_length=8, choices=Level.choices, default=Level.NONE
    )
    pool_quality = models.CharField(
        max_length=8, choices=Level.choices, default=Level.NONE
    )
    severity = models.CharField(
        "overall severity", max_length=10, choices=Severity.choices
    )
    notes = models.TextField(blank=True)
    recorded_at = models.DateTimeField(default=timezone.now)

    INDICATORS = (
        "colour",
        "odour",
        "turbidity",
        "floatables",
        "deposits_stains",
        "vegetation",
        "pipe_benthic_growth",
        "pool_quality",
    )

    class Meta:
        ordering = ["-screened_at"]
        indexes = [models.Index(fields=["outfall", "-screened_at"])]

    def __str__(self):
        return f"{self.outfall.code} screened {human_short_date(self.screened_at)}"

    @property
    def indicators_present(self) -> list[str]:
        return [
            self._meta.get_field(name).verbose_name
            for name in self.INDICATORS
            if getattr(self, name) != Level.NONE
        ]

    @property
    def is_suspicious(self) -> bool:
        """Suspect or obvious, or flow in dry weather with any indicator."""
        if self.severity in {self.Severity.SUSPECT, self.Severity.OBVIOUS}:
            return True
        return self.flow_present and bool(self.indicators_present)


class ScreeningPhoto(StoredPhoto):
    """A photo taken at a screening (StoredPhoto): the pipe end, the flow, the
    stain, as the inspector saw it."""

    screening = models.ForeignKey(
        OutfallScreening, on_delete=models.PROTECT, related_name="photos"
    )
    original = models.FileField(upload_to="private/screening-originals/")
    display = models.ImageField(upload_to="private/screening-display/")

    class Meta:
        ordering = ["uploaded_at", "id"]

    def __str__(self):
        return f"Photo {self.pk} of screening {self.screening_id}"
