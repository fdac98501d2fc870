"""The offense history of a person (§ 132-13 B, R-PEN-1..3)."""

from django.conf import settings
from django.db import models
from django.utils import timezone

from cases.models import Case, Party
from kernel.humanize import human_short_date


class OffenseRecord(models.Model):
    """One offense under Chapter 132 by one person, with the date it was committed
    and what the court made of it. The tier of a later offense counts these
    (enforcement.penalties)."""

    class Outcome(models.TextChoices):
        PENDING = "pending", "Pending in court"
        CONVICTED = "convicted", "Convicted"
        PLEA = "plea", "Guilty plea"
        ACQUITTED = "acquitted", "Acquitted"
        DISMISSED = "dismissed", "Dismissed"

    # An acquittal or a dismissal is no offense: left out of the person's history.
    NOT_COUNTED = (Outcome.ACQUITTED, Outcome.DISMISSED)
    # § 132-13 B raises the tier "for conviction of a second offense" (R-PEN-2,
    # R-PEN-3): only a conviction counts (a guilty plea is one). A charge pending
    # in court is listed with the tier's working, not counted (issue 25).
    CONVICTIONS = (Outcome.CONVICTED, Outcome.PLEA)
    TIER_LISTED = (*CONVICTIONS, Outcome.PENDING)

    party = models.ForeignKey(Party, on_delete=models.PROTECT, related_name="offenses")
    case = models.ForeignKey(
        Case, null=True, blank=True, on_delete=models.PROTECT, related_name="offenses"
    )
    committed_on = models.DateField()
    description = models.CharField(max_length=300)
    court = models.CharField(max_length=200, blank=True)
    outcome = models.CharField(
        max_length=12, choices=Outcome.choices, default=Outcome.PENDING
    )
    outcome_on = models.DateField(null=True, blank=True)
    fine_imposed = models.DecimalField(
        max_digits=9, decimal_places=2, null=True, blank=True
    )
    imprisonment_days = models.PositiveIntegerField(null=True, blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    recorded_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["party", "-committed_on"]
        indexes = [models.Index(fields=["party", "committed_on"])]

    def __str__(self):
        return (
            f"{self.party} {human_short_date(self.committed_on)}: "
            f"{self.description[:40]}"
        )

    @property
    def pending(self) -> bool:
        return self.outcome == self.Outcome.PENDING

    @property
    def tier_words(self) -> str:
        """What this offense does to the penalty tier of a later one, for the
        offense history page (enforcement.penalties counts)."""
        if self.outcome in self.CONVICTIONS:
            return "Counted (a conviction)"
        if self.pending:
            return "Pending, not counted"
        return "Not counted (no offense)"
