"""Legal deadlines and the reminders sent about them.

Every due date is computed by cases.deadlines.engine from a rule id of RULES.md and
stored with how it was computed; templates and e-mails only read it. The deadline
rows are the reminders' outbox: a sweep finds what is due, and a Reminder row
(unique per deadline and kind) makes sending idempotent."""

from django.conf import settings
from django.contrib.contenttypes.fields import GenericForeignKey
from django.contrib.contenttypes.models import ContentType
from django.db import models
from django.utils import timezone


class OfficeClosure(models.Model):
    """A day the village office is closed: not a business day (RULES.md)."""

    day = models.DateField(unique=True)
    reason = models.CharField(max_length=120)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["day"]

    def __str__(self):
        return f"{self.day}: {self.reason}"


class Deadline(models.Model):
    class Responsible(models.TextChoices):
        SMO = "smo", "Stormwater Management Officer"
        CLERK = "clerk", "Municipal clerk"
        BOARD = "board", "Board of Trustees"
        DISCHARGER = "discharger", "Discharger / responsible party"
        FACILITY = "facility", "Facility"

    class Status(models.TextChoices):
        OPEN = "open", "Open"
        MET = "met", "Met"
        MISSED = "missed", "Missed"
        WAIVED = "waived", "Waived"

    case = models.ForeignKey(
        "cases.Case",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="deadlines",
    )
    rule_id = models.CharField(max_length=16, db_index=True)
    label = models.CharField(max_length=200)
    counts_from = models.CharField(
        max_length=200, help_text="The event the period counts from."
    )
    event_date = models.DateField()
    due_date = models.DateField(db_index=True)
    explanation = models.TextField()
    method = models.CharField(max_length=40)
    params = models.JSONField(default=dict, blank=True)
    responsible = models.CharField(max_length=12, choices=Responsible.choices)
    assigned_to = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="deadlines",
    )
    notify_email = models.EmailField(
        blank=True, help_text="The discharger's address, for their own duties."
    )
    status = models.CharField(
        max_length=8, choices=Status.choices, default=Status.OPEN, db_index=True
    )
    met_on = models.DateField(null=True, blank=True)
    waived_reason = models.TextField(blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    content_type = models.ForeignKey(
        ContentType, null=True, blank=True, on_delete=models.PROTECT
    )
    object_id = models.PositiveBigIntegerField(null=True, blank=True)
    source = GenericForeignKey("content_type", "object_id")
    purpose = models.SlugField(
        max_length=40,
        blank=True,
        help_text="Tells apart two deadlines of one rule on one record "
        "(R-APL-3: 'file' and 'mail').",
    )
    created_at = models.DateTimeField(default=timezone.now)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )

    class Meta:
        ordering = ["due_date", "id"]
        indexes = [
            models.Index(
                fields=["due_date"],
                name="deadline_open_due",
                condition=models.Q(status="open"),
            ),
            models.Index(fields=["content_type", "object_id"]),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["content_type", "object_id", "rule_id", "purpose"],
                condition=models.Q(status="open"),
                name="one_open_deadline_per_source_rule_purpose",
            )
        ]

    def __str__(self):
        return f"{self.rule_id} due {self.due_date}"

    @property
    def is_open(self) -> bool:
        return self.status == self.Status.OPEN

    def is_overdue(self, today=None) -> bool:
        return self.is_open and self.due_date < (today or timezone.localdate())


class Reminder(models.Model):
    """One reminder sent about one deadline: unique per deadline, kind and
    recipient, so a retried or redelivered task never e-mails twice."""

    deadline = models.ForeignKey(
        Deadline, on_delete=models.PROTECT, related_name="reminders"
    )
    kind = models.CharField(
        max_length=20, help_text="e.g. before-5, before-1, due-today, overdue"
    )
    recipient = models.EmailField()
    created_at = models.DateTimeField(default=timezone.now)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["deadline", "kind", "recipient"], name="one_reminder_per_kind"
            )
        ]

    def __str__(self):
        return f"{self.kind} to {self.recipient} for {self.deadline_id}"
