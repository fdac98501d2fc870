"""The kernel's records: the chronology every app writes (CaseEvent, append-only),
the SMO's written delegations (Delegation), the one citation table (Citation)
and the keys that make a record sent twice one record (SubmissionKey).

Their tables keep the names they had under `cases` (`Meta.db_table`): they moved
here with their rows (cases 0039, kernel 0001; issue 30). They name the records
they belong to by app label ("cases.Case"), never by import: the kernel imports
nothing of ours."""

from django.conf import settings
from django.contrib.contenttypes.fields import GenericForeignKey
from django.contrib.contenttypes.models import ContentType
from django.db import models
from django.utils import timezone

from .humanize import human_date, human_datetime, human_short_date


class AppendOnlyError(Exception):
    """Raised on any attempt to change or delete a timeline event."""


class CaseEventQuerySet(models.QuerySet):
    def update(self, **kwargs):
        raise AppendOnlyError(
            "Timeline events are append-only; they cannot be updated."
        )

    def delete(self):
        raise AppendOnlyError(
            "Timeline events are append-only; they cannot be deleted."
        )


def actor_words(actor_kind: str, kind: str, staff_name: str) -> str:
    """The one way the chronology names who acted: the staff member's name, "the
    respondent (online)", "a member of the public" or "the system". Used by the
    model and by the case page's plain-value entries alike."""
    if staff_name:
        return staff_name
    kinds = CaseEvent.ActorKind
    if actor_kind == kinds.RESPONDENT or (
        # Entries written before `actor_kind` existed: the respondent's own
        # steps were the page's entries without a staff user.
        actor_kind == kinds.SYSTEM and kind == "portal"
    ):
        return "the respondent (online)"
    if actor_kind == kinds.PUBLIC:
        return "a member of the public"
    return "the system"


# The kinds of chronology entries and their words: the kernel's own (a step of a
# state machine, CaseEvent.Kind) and those each app registers in its
# AppConfig.ready() for the entries it writes (cases: opened, report, note…;
# inspections: inspection, spill, outfall; …). The field's choices are this
# table, read when asked (a callable), so the kernel names no upper app's kind.
_EVENT_KINDS: dict[str, str] = {}


def register_event_kinds(kinds) -> None:
    """Add `kinds` ((value, label) pairs, e.g. an app's TextChoices.choices)."""
    _EVENT_KINDS.update(dict(kinds))


def event_kinds() -> list[tuple[str, str]]:
    """(value, label) of every kind of chronology entry."""
    return [*CaseEvent.Kind.choices, *_EVENT_KINDS.items()]


class CaseEvent(models.Model):
    """One entry of a case's chronology: who did what, when, under which rule.

    Who: `actor_kind` says whether a staff user (`actor`), the respondent on
    their own page, a member of the public or the system did it; `by_words`
    names them, and every page and document that prints an event uses it.

    Written by `kernel.timeline.record_event` in the same transaction as the change
    it records. Never updated, never deleted (the model refuses, and on PostgreSQL
    a trigger refuses too)."""

    class Kind(models.TextChoices):
        """The kernel's own kind; every other is registered by the app that
        writes it (register_event_kinds)."""

        TRANSITION = "transition", "Status change"

    class ActorKind(models.TextChoices):
        STAFF = "staff", "Village staff"
        RESPONDENT = "respondent", "The respondent, online"
        PUBLIC = "public", "A member of the public"
        SYSTEM = "system", "The system"

    # An entry belongs to the case, the premises, or both, of the record it is
    # about (`subject`): field work done before, or without, a case is on the
    # record too (an inspection refused at a premises with no case). Explicit
    # links rather than only the generic subject, so "everything of this case" and
    # "everything at this premises" are each one indexed query.
    case = models.ForeignKey(
        "cases.Case",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="events",
    )
    premises = models.ForeignKey(
        "cases.Premises",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="events",
    )
    at = models.DateTimeField(default=timezone.now, db_index=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="Empty for the system, a respondent or a member of the public.",
    )
    actor_kind = models.CharField(
        max_length=12,
        choices=ActorKind.choices,
        default=ActorKind.SYSTEM,
        help_text="Who acted: staff (then `actor` names them), the respondent, "
        "the public or the system.",
    )
    kind = models.CharField(max_length=16, choices=event_kinds)
    summary = models.CharField(max_length=300)
    detail = models.TextField(blank=True)
    from_status = models.CharField(max_length=32, blank=True)
    to_status = models.CharField(max_length=32, blank=True)
    rule_id = models.CharField(max_length=16, blank=True)
    public = models.BooleanField(
        default=False, help_text="Shown to the resident on the public status page."
    )
    delegation = models.ForeignKey(
        "kernel.Delegation",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="events",
        help_text="The SMO's written delegation the actor acted under (R-ADM-1).",
    )
    content_type = models.ForeignKey(
        ContentType, null=True, blank=True, on_delete=models.PROTECT
    )
    object_id = models.PositiveBigIntegerField(null=True, blank=True)
    subject = GenericForeignKey("content_type", "object_id")

    objects = CaseEventQuerySet.as_manager()

    class Meta:
        db_table = "cases_caseevent"
        ordering = ["at", "id"]
        indexes = [
            models.Index(fields=["case", "at"]),
            models.Index(fields=["premises", "at"]),
            models.Index(fields=["content_type", "object_id", "at"]),
        ]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(case__isnull=False)
                | models.Q(premises__isnull=False)
                | models.Q(object_id__isnull=False),
                name="event_belongs_to_a_record",
            )
        ]

    def __str__(self):
        owner = self.case_id or f"premises {self.premises_id}"
        return f"{owner} {human_datetime(self.at)} {self.summary}"

    def save(self, *args, **kwargs):
        if self.pk is not None or not self._state.adding:
            raise AppendOnlyError(
                "Timeline events are append-only; they cannot be changed."
            )
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise AppendOnlyError(
            "Timeline events are append-only; they cannot be deleted."
        )

    @property
    def by_words(self) -> str:
        """Who did it, in words for the chronology (`actor_words`)."""
        staff_name = ""
        if self.actor_id is not None:
            staff_name = self.actor.get_full_name() or self.actor.get_username()
        return actor_words(self.actor_kind, self.kind, staff_name)


class Delegation(models.Model):
    """A written delegation of the SMO's powers (§ 132-5, R-ADM-1): who, which
    powers, from when to when, the instrument, granted by whom. While in force,
    its delegate acts as the SMO (kernel.roles.acting_delegation), and every
    chronology entry of theirs says so. Ended early: `ends_on` moved to the day
    it ends, with who ended it and when."""

    class State(models.TextChoices):
        CURRENT = "current", "In force"
        FUTURE = "future", "Not yet in force"
        ENDED = "ended", "Ended"

    delegate = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="delegations"
    )
    powers = models.TextField(help_text="Which powers or duties are delegated.")
    starts_on = models.DateField()
    ends_on = models.DateField(null=True, blank=True)
    instrument = models.CharField(
        max_length=200,
        help_text="The written instrument (letter, resolution) and its date.",
    )
    granted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    ended_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="Who ended the delegation before its end date.",
    )
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "cases_delegation"
        ordering = ["-starts_on"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(ends_on__isnull=True)
                | models.Q(ends_on__gte=models.F("starts_on")),
                name="delegation_ends_on_or_after_its_start",
            )
        ]

    def __str__(self):
        return f"{self.delegate} from {human_short_date(self.starts_on)}"

    @classmethod
    def in_force(cls, day):
        """The delegations in force on `day`."""
        return cls.objects.filter(starts_on__lte=day).filter(
            models.Q(ends_on__isnull=True) | models.Q(ends_on__gte=day)
        )

    def in_force_on(self, day) -> bool:
        return self.starts_on <= day and (self.ends_on is None or day <= self.ends_on)

    def state_on(self, day) -> str:
        if self.in_force_on(day):
            return self.State.CURRENT
        return self.State.FUTURE if day < self.starts_on else self.State.ENDED

    def acting_words(self) -> str:
        """How the chronology says an act was done under this delegation."""
        return (
            f"acting for the SMO under the delegation of "
            f"{human_date(self.starts_on)} ({self.instrument})"
        )


class Citation(models.Model):
    """The one citation table: a rule id of RULES.md, its section, and the words
    printed on notices. Templates and messages read citations from here."""

    rule_id = models.CharField(max_length=16, unique=True)
    section = models.CharField(max_length=40, help_text="e.g. § 132-14")
    heading = models.CharField(max_length=200)
    summary = models.TextField(help_text="The rule in plain words.")
    notice_text = models.TextField(
        blank=True, help_text="The wording printed on notices that rely on this rule."
    )

    class Meta:
        db_table = "cases_citation"
        ordering = ["rule_id"]

    def __str__(self):
        return f"{self.rule_id} ({self.section})"


class SubmissionKey(models.Model):
    """A key a device sent with a record it made, so that sending the record
    again stores nothing new (kernel.idempotency, issue 31)."""

    scope = models.CharField(max_length=40, help_text="The kind of record sent.")
    key = models.CharField(max_length=64)
    digest = models.CharField(
        max_length=64, help_text="SHA-256 of the contents sent with the key."
    )
    content_type = models.ForeignKey(
        ContentType, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    object_id = models.PositiveBigIntegerField(null=True, blank=True)
    record = GenericForeignKey("content_type", "object_id")
    received_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["scope", "key"], name="submission_key_once")
        ]

    def __str__(self):
        return f"{self.scope} {self.key}"
