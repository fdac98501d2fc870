"""Legal deadlines and the reminders sent about them.

Every due date is computed by deadlines.engine from a rule id of RULES.md and
stored with how it was computed; templates and e-mails only read it. A sweep finds
what is due; a Reminder row (unique per deadline, kind and recipient) is the
once-only ticket, and its outbox.OutgoingMessage row is what delivers it.

Status: an open deadline stays open after its due date (shown as "overdue"); the
sweep never closes it, because only a person knows whether the duty was done.
Recording it met after the due date makes it "missed" (with the date it was done);
waiving needs a reason."""

import secrets

from django.conf import settings
from django.contrib.contenttypes.fields import GenericForeignKey
from django.contrib.contenttypes.models import ContentType
from django.db import models
from django.utils import timezone
from django_fsm import FSMField, transition

from kernel.humanize import human_short_date
from kernel.roles import Role
from kernel.workflow import guard

from . import engine


class OfficeClosure(models.Model):
    """A day the village office is closed: not a business day (RULES.md)."""

    day = models.DateField(unique=True)
    reason = models.CharField(max_length=120)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        db_table = "cases_officeclosure"  # kept when the deadlines left cases
        ordering = ["day"]

    def __str__(self):
        return f"{self.day}: {self.reason}"


# --- the deadline machine's role and guards ------------------------------------
def closer_permission(deadline, user) -> bool:
    """Record met or waive: the SMO any deadline; the clerk the Board's and the
    clerk's own duties (deadlines.selectors.may_close_deadline)."""
    from .selectors import may_close_deadline

    return may_close_deadline(user, deadline)


# The roles it admits whatever the deadline (role tests); the clerk is admitted
# for a Board or clerk duty only, as docs/transitions.md says in `words`.
closer_permission.roles = (Role.SMO,)
closer_permission.words = f"{Role.SMO}; {Role.CLERK} for a Board or clerk duty"


@guard("the day it was done is after the due date: record it met late")
def done_by_due(deadline) -> bool:
    return deadline.met_on is not None and deadline.met_on <= deadline.due_date


@guard("the day it was done is on or before the due date: record it met")
def done_after_due(deadline) -> bool:
    return deadline.met_on is not None and deadline.met_on > deadline.due_date


@guard("say why the deadline is waived")
def has_waived_reason(deadline) -> bool:
    return bool((deadline.waived_reason or "").strip())


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
        # Given way to another date the respondent was given in writing (the
        # correction date after a decision upholding the notice, R-COR-1).
        REPLACED = "replaced", "Replaced by a later date"
        # No longer runs: its record reached an end (a case resolved, a notice
        # withdrawn or complied with, an appeal withdrawn; cases.clocks).
        ENDED = "ended", "No longer running"

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
    status = FSMField(
        max_length=8, choices=Status.choices, default=Status.OPEN, db_index=True
    )
    met_on = models.DateField(null=True, blank=True)
    waived_reason = models.TextField(
        blank=True, help_text="Why it was waived, replaced or ended."
    )
    replaced_by = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="replaces",
        help_text="The deadline that took this one's place (status replaced).",
    )
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
        db_table = "cases_deadline"  # kept when the deadlines left cases
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
        return f"{self.rule_id} due {human_short_date(self.due_date)}"

    @property
    def is_open(self) -> bool:
        return self.status == self.Status.OPEN

    @property
    def no_longer_runs(self) -> bool:
        """Waived, replaced or ended: not met, not missed, just not owed."""
        return self.status in CLOSED_WITHOUT_DUTY

    @property
    def was_met(self) -> bool:
        """Done by the due date."""
        return self.status == self.Status.MET

    @property
    def was_missed(self) -> bool:
        """Done, but after the due date."""
        return self.status == self.Status.MISSED

    def explained_to_people(self, calendar=None) -> str:
        """How the date was counted, in words a resident reads (no rule id, no
        ISO date): deadlines.words. `explanation` stays the office's."""
        from .services import office_calendar
        from .words import people_explanation

        return people_explanation(
            self.rule_id,
            self.event_date,
            self.due_date,
            calendar=calendar if calendar is not None else office_calendar(),
            params=self.params,
        )

    @property
    def people_explanation(self) -> str:
        return self.explained_to_people()

    @property
    def legal_basis(self) -> str:
        """The Village Code and General Construction Law sections, in words."""
        from .words import legal_basis

        return legal_basis(self.rule_id)

    # --- the deadline's steps (deadlines.services, through the kernel) ----
    # A person's act on one clock: "Record met" / "Waive" on the deadline page.
    @transition(
        status,
        source=Status.OPEN,
        target=Status.MET,
        permission=closer_permission,
        conditions=[done_by_due],
        custom={"label": "Record met", "rule_id": "", "form": "meet"},
    )
    def meet(self):
        pass

    @transition(
        status,
        source=Status.OPEN,
        target=Status.MISSED,
        permission=closer_permission,
        conditions=[done_after_due],
        custom={"label": "Record met late", "rule_id": "", "form": "meet"},
    )
    def meet_late(self):
        pass

    @transition(
        status,
        source=Status.OPEN,
        target=Status.WAIVED,
        permission=closer_permission,
        conditions=[has_waived_reason],
        custom={"label": "Waive", "rule_id": "", "form": "waive"},
    )
    def waive(self):
        pass

    # What another step does to its clocks (the clock table, cases.clocks): the
    # system records it for whoever took that step; never a button.
    @transition(
        status,
        source=Status.OPEN,
        target=Status.MET,
        conditions=[done_by_due],
        custom={"label": "Met", "hidden": True},
    )
    def record_met(self):
        pass

    @transition(
        status,
        source=Status.OPEN,
        target=Status.MISSED,
        conditions=[done_after_due],
        custom={"label": "Met late", "hidden": True},
    )
    def record_missed(self):
        pass

    @transition(
        status,
        source=Status.OPEN,
        target=Status.REPLACED,
        custom={"label": "Replaced", "hidden": True},
    )
    def replace(self):
        pass

    @transition(
        status,
        source=Status.OPEN,
        target=Status.ENDED,
        custom={"label": "No longer running", "hidden": True},
    )
    def end(self):
        pass

    def has_passed(self, on=None) -> bool:
        """The due date is behind `on` (default today), whatever the status:
        the engine's definition (deadlines.engine.due_window)."""
        return engine.is_past_due(self.due_date, on or timezone.localdate())

    def is_overdue(self, on=None) -> bool:
        """Open and its due date has passed (engine.due_window)."""
        return self.is_open and self.has_passed(on)

    def is_due_soon(self, on=None) -> bool:
        """Open and due this week (engine.due_window)."""
        return self.is_open and engine.is_due_soon(
            self.due_date, on or timezone.localdate()
        )


CLOSED_WITHOUT_DUTY = frozenset(
    {Deadline.Status.WAIVED, Deadline.Status.REPLACED, Deadline.Status.ENDED}
)


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
    recipient_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="Empty when the recipient is the discharger.",
    )
    created_at = models.DateTimeField(default=timezone.now)
    # Delivery (hand-over, retries, failure) is the outbox row's business
    # (outbox.OutgoingMessage, source = this reminder); sent_at is the fact.
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "cases_reminder"  # kept when the deadlines left cases
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["deadline", "kind", "recipient"], name="one_reminder_per_kind"
            )
        ]
        indexes = [
            models.Index(
                fields=["created_at"],
                name="reminder_unsent",
                condition=models.Q(sent_at__isnull=True),
            )
        ]

    def __str__(self):
        return f"{self.kind} to {self.recipient} for {self.deadline_id}"

    @property
    def kind_label(self) -> str:
        if self.kind.startswith("before-"):
            n = self.kind.removeprefix("before-")
            return f"{n} business day{'' if n == '1' else 's'} before"
        return {"due-today": "On the due day", "overdue": "Overdue"}.get(
            self.kind, self.kind
        )


class StaffDigest(models.Model):
    """The daily e-mail of deadlines due this week and overdue, one per recipient
    and day (unique), so a re-run or redelivered digest task never sends twice."""

    day = models.DateField()
    recipient = models.EmailField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="Empty for an address of STAFF_DIGEST_RECIPIENTS.",
    )
    created_at = models.DateTimeField(default=timezone.now)
    sent_at = models.DateTimeField(
        null=True, blank=True, help_text="Done: sent, or nothing was due."
    )
    deadline_count = models.PositiveIntegerField(
        default=0, help_text="Deadlines listed; 0 = nothing due, no e-mail sent."
    )

    class Meta:
        db_table = "cases_staffdigest"  # kept when the deadlines left cases
        ordering = ["-day", "recipient"]
        constraints = [
            models.UniqueConstraint(
                fields=["recipient", "day"], name="one_digest_per_recipient_day"
            )
        ]

    def __str__(self):
        return f"digest {self.day} to {self.recipient}"


def new_feed_token() -> str:
    return secrets.token_urlsafe(32)


class CalendarFeedToken(models.Model):
    """The secret in a staff user's iCal feed URL (calendar apps cannot sign in).

    Kept in clear so the user can copy the URL again; regenerating it makes the
    old URL stop working."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ical_token"
    )
    token = models.CharField(max_length=64, unique=True, default=new_feed_token)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        db_table = "cases_calendarfeedtoken"  # kept when the deadlines left cases

    def __str__(self):
        return f"iCal feed of {self.user}"
