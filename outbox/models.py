"""The outbox: every e-mail that leaves the system is first a row here.

A row is written in the same transaction as the change that causes it (a report
filed, a public status changed, a reminder or digest due, a document e-mailed to
a party), so a rolled-back change sends nothing and a committed one is never
lost. The Celery task `outbox.tasks.deliver_message` sends it later, outside any
web request (outbox.services has the whole design)."""

from django.conf import settings
from django.contrib.contenttypes.fields import GenericForeignKey
from django.contrib.contenttypes.models import ContentType
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django_fsm import ConcurrentTransitionMixin, FSMField, transition

from kernel.roles import smo_permission


class OutgoingMessage(ConcurrentTransitionMixin, models.Model):
    """One e-mail to one recipient, and how its delivery went."""

    class Kind(models.TextChoices):
        RECEIPT = "receipt", "Report receipt"
        STATUS_CHANGE = "status_change", "Report status update"
        REMINDER = "reminder", "Deadline reminder"
        DIGEST = "digest", "Staff deadline digest"
        DOCUMENT = "document", "Document e-mailed to a party"
        APPEAL_RECEIPT = "appeal_receipt", "Receipt of an appeal filed online"

    class Status(models.TextChoices):
        PENDING = "pending", "Waiting to be sent"
        SENT = "sent", "Sent"
        FAILED = "failed", "Failed"
        SKIPPED = "skipped", "Cancelled: not needed any more"

    kind = models.CharField(max_length=16, choices=Kind.choices)
    status = FSMField(
        max_length=8,
        choices=Status.choices,
        default=Status.PENDING,
        protected=True,
        db_index=True,
    )
    recipient = models.EmailField()
    subject = models.CharField(
        max_length=250,
        help_text="What the e-mail says in its subject line (for reminders and "
        "digests, composed when it is sent and stored then).",
    )
    body = models.TextField(
        blank=True,
        help_text="The text, rendered when the row was written; empty for kinds "
        "composed at sending time (reminders, digests).",
    )
    cause = models.CharField(max_length=200, help_text="Why it is sent, in words.")
    case = models.ForeignKey(
        "cases.Case",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="outgoing_messages",
    )
    content_type = models.ForeignKey(
        ContentType, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    object_id = models.PositiveBigIntegerField(null=True, blank=True)
    source = GenericForeignKey("content_type", "object_id")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="Empty when the system or a resident caused it.",
    )
    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    enqueued_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When the send task was last handed to the broker (or, while "
        "it waits to retry, when the retry is due). The sweep hands it again "
        "if the row is still pending some minutes after that.",
    )
    attempts = models.PositiveSmallIntegerField(default=0)
    last_attempt_at = models.DateTimeField(null=True, blank=True)
    last_error = models.TextField(blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    closed_reason = models.CharField(
        max_length=200, blank=True, help_text="Why a skipped row was not sent."
    )

    class Meta:
        db_table = "cases_outgoingmessage"  # kept when the outbox left cases (issue 30)
        ordering = ["-created_at", "-id"]
        constraints = [
            # Queueing is idempotent: one message per cause, kind and recipient.
            models.UniqueConstraint(
                fields=["kind", "content_type", "object_id", "recipient"],
                name="one_message_per_source_kind_recipient",
            )
        ]
        indexes = [
            models.Index(
                fields=["created_at"],
                name="outbox_pending",
                condition=models.Q(status="pending"),
            ),
            models.Index(fields=["content_type", "object_id"]),
        ]

    def __str__(self):
        return f"{self.get_kind_display()} to {self.recipient}"

    # --- predicates for pages and services ---------------------------------------
    @property
    def is_pending(self) -> bool:
        return self.status == self.Status.PENDING

    @property
    def is_sent(self) -> bool:
        return self.status == self.Status.SENT

    @property
    def is_failed(self) -> bool:
        return self.status == self.Status.FAILED

    @property
    def cause_url(self) -> str:
        """Where "what caused it" links: the case, else a receipt's report."""
        if self.case_id:
            return self.case.get_absolute_url()
        if self.kind == self.Kind.RECEIPT and self.object_id:
            return reverse("reports:detail", args=[self.object_id])
        return ""

    @property
    def may_retry(self) -> bool:
        """The SMO can put it back in the queue (only a failed delivery)."""
        return self.is_failed

    # --- the delivery's steps (outbox.services): the worker's, never a
    # page button (fired with workflow.fire_locked on the row it holds) ---------
    @transition(
        status,
        source=Status.PENDING,
        target=Status.SENT,
        custom={"label": "Sent", "hidden": True},
    )
    def mark_sent(self):
        self.sent_at = timezone.now()

    @transition(
        status,
        source=Status.PENDING,
        target=Status.FAILED,
        custom={"label": "Retries used up", "hidden": True},
    )
    def mark_failed(self, error: str = ""):
        self.last_error = error

    @transition(
        status,
        source=Status.PENDING,
        target=Status.SKIPPED,
        custom={"label": "Not needed any more", "hidden": True},
    )
    def mark_skipped(self, reason: str = ""):
        self.closed_reason = reason[:200]

    # The SMO's, on the outbox page (workflow.run).
    @transition(
        status,
        source=Status.FAILED,
        target=Status.PENDING,
        permission=smo_permission,
        custom={"label": "Retry", "form": "plain"},
    )
    def retry(self):
        # A fresh set of attempts; the last error stays visible until one succeeds.
        self.attempts = 0
