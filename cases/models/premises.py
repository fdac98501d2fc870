"""Premises, parties and outfalls: the places and persons a case is about."""

from django.db import models
from simple_history.models import HistoricalRecords


class Premises(models.Model):
    """§ 132-3 PREMISES: any building, lot, parcel of land, or portion of land
    whether improved or unimproved including adjacent sidewalks and parking strips."""

    class LandUse(models.TextChoices):
        RESIDENTIAL = "residential", "Residential"
        COMMERCIAL = "commercial", "Commercial"
        INDUSTRIAL = "industrial", "Industrial"
        CONSTRUCTION = "construction", "Construction site"
        MUNICIPAL = "municipal", "Municipal"
        VACANT = "vacant", "Vacant / undeveloped"
        OTHER = "other", "Other"

    address = models.CharField(max_length=200)
    tax_map_number = models.CharField(
        "Suffolk County tax map number",
        max_length=40,
        blank=True,
        db_index=True,
        help_text="District-section-block-lot, e.g. 0200-001.00-01.00-001.000",
    )
    land_use = models.CharField(
        max_length=20, choices=LandUse.choices, default=LandUse.RESIDENTIAL
    )
    latitude = models.DecimalField(
        max_digits=9, decimal_places=6, null=True, blank=True
    )
    longitude = models.DecimalField(
        max_digits=9, decimal_places=6, null=True, blank=True
    )
    notes = models.TextField(blank=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["address"]
        verbose_name_plural = "premises"
        indexes = [models.Index(fields=["address"])]

    def __str__(self):
        return self.address

    @property
    def is_commercial_or_industrial(self) -> bool:
        return self.land_use in {self.LandUse.COMMERCIAL, self.LandUse.INDUSTRIAL}


class Party(models.Model):
    """§ 132-3 PERSON: an individual or entity acting as the owner or the owner's
    agent. A case can name several (owner, operator, agent)."""

    class Kind(models.TextChoices):
        PERSON = "person", "Individual"
        ENTITY = "entity", "Entity (corporation, partnership, association…)"

    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.PERSON)
    name = models.CharField(max_length=200, db_index=True)
    contact_person = models.CharField(max_length=200, blank=True)
    mailing_address = models.TextField(blank=True)
    email = models.EmailField(blank=True)
    phone = models.CharField(max_length=40, blank=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["name"]
        verbose_name_plural = "parties"

    def __str__(self):
        return self.name


class Outfall(models.Model):
    """A point where the MS4 discharges to receiving waters, with the special
    conditions of § 132-3 (R-DEF-2): 303(d)-listed water, TMDL."""

    code = models.CharField("outfall id", max_length=40, unique=True)
    location_description = models.CharField(max_length=200)
    latitude = models.DecimalField(
        max_digits=9, decimal_places=6, null=True, blank=True
    )
    longitude = models.DecimalField(
        max_digits=9, decimal_places=6, null=True, blank=True
    )
    receiving_water = models.CharField(max_length=200)
    is_303d_listed = models.BooleanField("303(d)-listed water", default=False)
    has_tmdl = models.BooleanField("TMDL applies", default=False)
    tmdl_approved_on = models.DateField(null=True, blank=True)
    active = models.BooleanField(default=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["code"]

    def __str__(self):
        return f"{self.code} → {self.receiving_water}"

    # --- what its clock counts (R-DEF-2; cases.clocks) ------------------------------
    def _open_tmdl_clock(self):
        from deadlines.services import open_deadline_for

        return open_deadline_for(self, "R-DEF-2")

    def tmdl_date_corrected(self) -> bool:
        """A TMDL clock runs from another date than the one now recorded."""
        running = self._open_tmdl_clock()
        return (
            self.tmdl_approved_on is not None
            and running is not None
            and running.event_date != self.tmdl_approved_on
        )

    def tmdl_date_removed(self) -> bool:
        return self.tmdl_approved_on is None and self._open_tmdl_clock() is not None

    def awaits_tmdl_clock(self) -> bool:
        """A TMDL approval date with no clock standing for it (open, met or missed)."""
        from deadlines.models import CLOSED_WITHOUT_DUTY
        from deadlines.services import deadlines_for

        return (
            self.tmdl_approved_on is not None
            and not deadlines_for(self)
            .filter(rule_id="R-DEF-2", event_date=self.tmdl_approved_on)
            .exclude(status__in=CLOSED_WITHOUT_DUTY)
            .exists()
        )
