"""A resident's report of a suspected discharge (web form, Open311, phone, walk-in).

Every channel makes the same kind of record, and every report waits in one triage
queue until staff turn it into a case or attach it to one."""

import hashlib
import secrets

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.utils import timezone

from .reference import PollutantCategory

# No 0/O, 1/I/L, U: a code read out over the phone is not misheard.
TRACKING_ALPHABET = "ABCDEFGHJKMNPQRSTVWXYZ23456789"


def new_tracking_code() -> str:
    """An unguessable code such as "PQ-7K3M-9XTR" (40 random bits... and more)."""
    body = "".join(secrets.choice(TRACKING_ALPHABET) for _ in range(8))
    return f"PQ-{body[:4]}-{body[4:]}"


class Report(models.Model):
    class Channel(models.TextChoices):
        WEB = "web", "Online form"
        OPEN311 = "open311", "Open311 client"
        PHONE = "phone", "Telephone (entered by staff)"
        WALK_IN = "walk_in", "Walk-in (entered by staff)"
        EMAIL = "email", "E-mail (entered by staff)"

    class Flow(models.TextChoices):
        UNKNOWN = "", "Don't know"
        DRY_WEATHER = "dry", "Flowing in dry weather"
        WET_WEATHER = "wet", "Only while it rains"
        NOT_FLOWING = "none", "Not flowing"

    tracking_code = models.CharField(
        max_length=16, unique=True, default=new_tracking_code, editable=False
    )
    channel = models.CharField(max_length=10, choices=Channel.choices)
    received_at = models.DateTimeField(default=timezone.now, db_index=True)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )

    # What was seen.
    description = models.TextField(max_length=4000)
    pollutant_categories = models.ManyToManyField(PollutantCategory, blank=True)
    colour = models.CharField(max_length=60, blank=True)
    odour = models.CharField(max_length=60, blank=True)
    sheen = models.BooleanField(default=False)
    suds = models.BooleanField(default=False)
    floatables = models.BooleanField(default=False)
    flow = models.CharField(max_length=4, choices=Flow.choices, blank=True)
    observed_at = models.DateTimeField(null=True, blank=True)

    # Where.
    address = models.CharField(max_length=200, blank=True)
    latitude = models.DecimalField(
        max_digits=9, decimal_places=6, null=True, blank=True
    )
    longitude = models.DecimalField(
        max_digits=9, decimal_places=6, null=True, blank=True
    )

    # Who — only if they want updates; never shown publicly.
    reporter_name = models.CharField(max_length=120, blank=True)
    reporter_email = models.EmailField(blank=True)
    reporter_phone = models.CharField(max_length=40, blank=True)
    wants_updates = models.BooleanField(default=False)

    # Open311 bookkeeping.
    service_code = models.CharField(max_length=40, blank=True)
    media_url = models.URLField(
        max_length=500,
        blank=True,
        help_text="A photo link an Open311 client sent; never fetched by the server.",
    )
    api_client = models.ForeignKey(
        "intake.ApiKey",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )

    case = models.ForeignKey(
        "cases.Case",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="reports",
    )
    attached_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "cases_report"  # kept when intake left cases
        ordering = ["-received_at"]
        indexes = [models.Index(fields=["case", "-received_at"])]

    def __str__(self):
        return self.tracking_code

    @property
    def in_triage_queue(self) -> bool:
        return self.case_id is None

    @property
    def hazardous_categories(self) -> list:
        """The hazardous pollutant categories the reporter named (read from the
        prefetched categories where the page prefetched them: no query per row)."""
        return [c for c in self.pollutant_categories.all() if c.hazardous]

    @property
    def is_hazardous(self) -> bool:
        return bool(self.hazardous_categories)


class ReportPhoto(models.Model):
    """A photo sent with a report. The original is kept privately as evidence with
    its SHA-256; what anyone views is a re-encoded copy with no metadata."""

    report = models.ForeignKey(Report, on_delete=models.PROTECT, related_name="photos")
    original = models.FileField(upload_to="private/report-originals/")
    original_sha256 = models.CharField(max_length=64)
    original_name = models.CharField(max_length=200)
    display = models.ImageField(upload_to="private/report-display/")
    width = models.PositiveIntegerField()
    height = models.PositiveIntegerField()
    uploaded_at = models.DateTimeField(default=timezone.now)

    class Meta:
        db_table = "cases_reportphoto"  # kept when intake left cases

    def __str__(self):
        return f"Photo {self.pk} of {self.report_id}"


class ApiKey(models.Model):
    """An Open311 client's key: one per client, revocable by staff in the admin.

    The key itself is never stored: only its SHA-256 and a few characters for
    staff to recognise it by. It is generated (intake.open311.keys) and shown once.
    SHA-256 and not a slow password hash: a generated key carries at least 128
    random bits, so its hash cannot be reversed by guessing, and a lookup stays
    one indexed equality."""

    client_name = models.CharField(max_length=120)
    key_hash = models.CharField(max_length=64, unique=True, editable=False)
    key_prefix = models.CharField(
        "key starts with",
        max_length=8,
        editable=False,
        help_text="The first characters of the key, to recognise it; not the key.",
    )
    contact_email = models.EmailField(blank=True)
    # Counted per key, not per address: an aggregator (a county 311 app,
    # SeeClickFix) forwards many residents' reports from one server (issue 29).
    reports_per_hour = models.PositiveIntegerField(
        "reports an hour",
        default=100,
        validators=[MinValueValidator(1)],
        help_text="How many reports this client may send in an hour. An aggregator "
        "forwarding many residents from one server may need more.",
    )
    active = models.BooleanField(default=True)
    created_at = models.DateTimeField(default=timezone.now)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "cases_apikey"  # kept when intake left cases
        verbose_name = "Open311 API key"

    def __str__(self):
        return self.client_name

    @staticmethod
    def hash_of(raw: str) -> str:
        return hashlib.sha256(raw.encode("utf-8", "surrogatepass")).hexdigest()

    def set_key(self, raw: str) -> None:
        """Store `raw`'s hash and the prefix shown to staff (at most a quarter of
        the key, so a short one is not half given away)."""
        self.key_hash = self.hash_of(raw)
        self.key_prefix = raw[: min(8, len(raw) // 4)]


class ReportNotification(models.Model):
    """A status-change e-mail sent to an opted-in reporter: one per (report, public
    status), so a repeated call or a re-run never e-mails twice."""

    report = models.ForeignKey(
        Report, on_delete=models.CASCADE, related_name="notifications"
    )
    status = models.CharField(max_length=32)
    sent_at = models.DateTimeField(default=timezone.now)

    class Meta:
        db_table = "cases_reportnotification"  # kept when intake left cases
        constraints = [
            models.UniqueConstraint(
                fields=["report", "status"], name="report_notification_once"
            )
        ]

    def __str__(self):
        return f"{self.report_id}: {self.status}"
