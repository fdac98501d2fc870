"""Notification of spills (§ 132-12: R-SPL-1 … R-SPL-5)."""

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django_fsm import ConcurrentTransitionMixin, FSMField, transition

from kernel.humanize import human_date
from kernel.workflow import guard

from .common import is_smo


def _steps_on_page(text: str):
    """fix= of a guard: the spill's own page, at its steps."""

    def fix(spill):
        return (f"{spill.get_absolute_url()}#steps", text)

    return fix


def _confirmation_due(spill):
    deadline = spill.confirmation_deadline
    if deadline is None:
        return None
    return (
        reverse("deadlines:detail", args=[deadline.pk]),
        f"Due {human_date(deadline.due_date)}",
    )


class SpillStatus(models.TextChoices):
    RECORDED = "recorded", "Recorded"
    CONFIRMED = "confirmed", "Written confirmation received"
    MISSING = "missing", "Written confirmation missing"
    CLOSED = "closed", "Closed"


class SpillNotification(ConcurrentTransitionMixin, models.Model):
    """A known or suspected release reported by the person responsible for a
    facility or operation (§ 132-12). Discovery, containment and cleanup (R-SPL-1);
    a hazardous release is reported at once via emergency dispatch (R-SPL-2); a
    nonhazardous one to the village in person, by telephone or fax by the next
    business day (R-SPL-3), an in-person or telephone notice confirmed in writing
    within three business days (R-SPL-4); a commercial or industrial source keeps
    an on-site record for at least three years (R-SPL-5)."""

    class NoticeMethod(models.TextChoices):
        IN_PERSON = "in_person", "In person"
        TELEPHONE = "telephone", "Telephone"
        FAX = "fax", "Fax"

    status = FSMField(
        max_length=10,
        choices=SpillStatus.choices,
        default=SpillStatus.RECORDED,
        protected=True,
        db_index=True,
    )
    premises = models.ForeignKey(
        "cases.Premises", on_delete=models.PROTECT, related_name="spills"
    )
    facility = models.ForeignKey(
        "inspections.Facility",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="spills",
    )
    case = models.ForeignKey(
        "cases.Case",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="spills",
    )
    reported_by = models.CharField("reported by (person responsible)", max_length=200)
    reporter_email = models.EmailField(
        blank=True, help_text="Reminders of the written confirmation go here."
    )
    reporter_phone = models.CharField(max_length=40, blank=True)
    known_at = models.DateTimeField("release became known at")
    material = models.CharField(max_length=200)
    quantity = models.CharField(max_length=100, blank=True)
    hazardous = models.BooleanField("hazardous material")
    containment_steps = models.TextField()
    cleanup_steps = models.TextField()
    dispatch_called_at = models.DateTimeField(
        "emergency dispatch (911) called at", null=True, blank=True
    )
    notice_method = models.CharField(
        "how the village was told",
        max_length=10,
        choices=NoticeMethod.choices,
        blank=True,
    )
    notice_at = models.DateTimeField("village told at", null=True, blank=True)
    notice_received_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    commercial_or_industrial = models.BooleanField(
        "from a commercial or industrial establishment", default=False
    )
    confirmation_mailed_on = models.DateField(
        "written confirmation mailed on (postmark)", null=True, blank=True
    )
    confirmation_received_on = models.DateField(
        "written confirmation received on", null=True, blank=True
    )
    notice_deadline = models.ForeignKey(
        "deadlines.Deadline",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    confirmation_deadline = models.ForeignKey(
        "deadlines.Deadline",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    retention_deadline = models.ForeignKey(
        "deadlines.Deadline",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    closing_notes = models.TextField(blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    recorded_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-known_at"]

    def __str__(self):
        return f"Spill {self.pk}: {self.material} at {self.premises}"

    def get_absolute_url(self) -> str:
        return reverse("inspections:spill_detail", args=[self.pk])

    @property
    def awaiting_confirmation(self) -> bool:
        """R-SPL-4: a written confirmation is expected and not yet recorded."""
        return self.needs_written_confirmation and self.status == SpillStatus.RECORDED

    # --- what its clocks count (cases.clocks) -------------------------------------
    def is_nonhazardous(self) -> bool:
        return not self.hazardous

    def known_day(self):
        """The village's date the release became known (R-SPL-3, R-SPL-5)."""
        return timezone.localtime(self.known_at).date()

    def notice_day(self):
        """The village's date it was told, or None (R-SPL-3, R-SPL-4)."""
        return timezone.localtime(self.notice_at).date() if self.notice_at else None

    @property
    def needs_written_confirmation(self) -> bool:
        """R-SPL-4: in-person and telephone notices are confirmed in writing."""
        return self.notice_method in {
            self.NoticeMethod.IN_PERSON,
            self.NoticeMethod.TELEPHONE,
        }

    @property
    def notice_late(self) -> bool:
        d = self.notice_deadline
        return d is not None and d.status == d.Status.MISSED

    @property
    def notice_missing(self) -> bool:
        d = self.notice_deadline
        return d is not None and d.is_open and d.is_overdue()

    @property
    def confirmation_late(self) -> bool:
        d = self.confirmation_deadline
        return d is not None and d.status == d.Status.MISSED

    @property
    def confirmation_missing(self) -> bool:
        """R-SPL-4: marked missing after its due date."""
        return self.status == SpillStatus.MISSING

    @property
    def needs_case(self) -> bool:
        """A late or missing notice or confirmation, or no case yet for one."""
        return self.case_id is None and (
            self.notice_late
            or self.notice_missing
            or self.confirmation_late
            or self.confirmation_missing
        )

    # --- conditions -------------------------------------------------------
    @guard(
        "only an in-person or telephone notice is confirmed in writing; this one "
        "needs no written confirmation",
        form=False,
        rule="R-SPL-4",
    )
    def confirmation_required(self) -> bool:
        return self.needs_written_confirmation

    @guard("give the date the written confirmation was mailed", rule="R-SPL-4")
    def has_confirmation_dates(self) -> bool:
        return self.confirmation_mailed_on is not None

    @guard(
        "the written confirmation is not overdue yet; it can be marked missing "
        "after its due date",
        form=False,
        rule="R-SPL-4",
        fix=_confirmation_due,
    )
    def confirmation_overdue(self) -> bool:
        d = self.confirmation_deadline
        return d is not None and d.has_passed()

    @guard(
        "record the written confirmation, or mark it missing once overdue",
        form=False,
        rule="R-SPL-4",
        fix=_steps_on_page("Record the written confirmation"),
    )
    def confirmation_settled(self) -> bool:
        return not self.awaiting_confirmation

    # --- transitions ------------------------------------------------------
    @transition(
        status,
        source=[SpillStatus.RECORDED, SpillStatus.MISSING],
        target=SpillStatus.CONFIRMED,
        permission=is_smo,
        conditions=[confirmation_required, has_confirmation_dates],
        custom={
            "label": "Record the written confirmation",
            "rule_id": "R-SPL-4",
            "form": "confirmation",
        },
    )
    def record_confirmation(self):
        pass

    @transition(
        status,
        source=SpillStatus.RECORDED,
        target=SpillStatus.MISSING,
        permission=is_smo,
        conditions=[confirmation_required, confirmation_overdue],
        custom={
            "label": "Mark the written confirmation missing",
            "rule_id": "R-SPL-4",
        },
    )
    def mark_confirmation_missing(self):
        pass

    @transition(
        status,
        source=[SpillStatus.RECORDED, SpillStatus.CONFIRMED, SpillStatus.MISSING],
        target=SpillStatus.CLOSED,
        permission=is_smo,
        conditions=[confirmation_settled],
        custom={
            "label": "Close the spill record",
            "rule_id": "R-SPL-1",
            "form": "close",
            "binding": True,
            "confirm": "spill_close",
        },
    )
    def close(self):
        pass
