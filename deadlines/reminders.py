"""Reminders about deadlines: never lost, never sent twice.

Design (issue 7, issue 15):
- The periodic sweep (`sweep_reminders`, run by the Celery task
  `deadlines.tasks.sweep_deadlines`) finds the open deadlines coming due on the
  schedule of REMINDER_BUSINESS_DAYS_BEFORE (business days on the office
  calendar; 0 = the due day) and the overdue ones, and for each (deadline, kind,
  recipient) creates the Reminder row. The unique constraint on those three makes
  the row a once-only ticket: a second sweep, or two sweeps at once, find it or
  skip it (rows are inserted together, ON CONFLICT DO NOTHING).
- In the same transaction each reminder gets its outbox row
  (outbox.OutgoingMessage, outbox/services.py), which does the rest: handed
  to the broker on commit, re-queued by the outbox sweep if the broker was down
  or the worker died, retried with backoff, locked and marked sent once, failed
  (for the SMO to see and retry) when the retries run out.
- The e-mail is composed when it is sent (`compose_reminder`), counting the
  business days left on that day; a reminder of a deadline closed meanwhile is
  not sent (its row is skipped). Once sent, `Reminder.sent_at` is set and the
  "Reminder sent" timeline event written in the delivery's transaction.
- Which kind: the tightest step of the schedule the deadline has reached, so a
  deadline opened 2 business days before its due date gets no late "before-5":
  it gets "before-1" on the right day. A step missed in an outage is sent late,
  once, when the sweep runs again. Overdue: one alert per recipient; the daily
  digest lists overdue deadlines every day after that.
- Who: staff by e-mail (the deadline's assignee; else the case's officer for
  SMO/discharger/facility duties; else every SMO user; clerk/Board duties: the
  clerk group), and the discharger at `notify_email` for their own duties
  (before and on the due day; an overdue discharger is the SMO's to pursue, not
  an automatic e-mail's).
- Queries: a handful per sweep, whatever the number of reminders (issue 28:
  the rows and their outbox rows are written in bulk, recipients read once).
- The staff digest: one StaffDigest row per recipient and day (unique), with its
  outbox row, composed when sent (`compose_digest`). The sweep creates the day's
  digests too once STAFF_DIGEST_HOUR has passed, so a digest missed while the
  broker was down still goes out.
"""

import datetime as dt
import logging
from collections.abc import Callable

from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from django.db import transaction
from django.db.models import Exists, OuterRef
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from kernel.humanize import human_long_date, human_short_date
from kernel.roles import Role
from kernel.timeline import record_event
from outbox import services as outbox
from outbox.models import OutgoingMessage

from . import selectors
from .business_days import BusinessCalendar
from .models import Deadline, Reminder, StaffDigest
from .services import office_calendar

log = logging.getLogger(__name__)

OVERDUE = "overdue"
DUE_TODAY = "due-today"


def _schedule() -> list[int]:
    return sorted({int(n) for n in settings.REMINDER_BUSINESS_DAYS_BEFORE if n >= 0})


def reminder_kind(
    deadline: Deadline, *, today: dt.date, cal: BusinessCalendar, schedule: list[int]
) -> str | None:
    """The reminder `deadline` is due for today, or None."""
    if deadline.is_overdue(today):
        return OVERDUE
    left = cal.business_days_until(today, deadline.due_date)
    steps = [n for n in schedule if n >= left]
    if not steps:
        return None
    step = min(steps)
    return DUE_TODAY if step == 0 else f"before-{step}"


def _recipients(
    deadline: Deadline, kind: str, role_users: dict, asked: dict | None = None
):
    """(address, user or None) pairs, without duplicates. `asked` maps deadline
    id -> the address the party asked reminders at (portal_reminder_emails, read
    once per sweep); without it, it is looked up for this deadline."""
    out = {}
    for user in selectors.staff_recipients(deadline, role_users):
        if user.email:
            out.setdefault(user.email.lower(), user)
    own_duty = deadline.responsible in OWN_DUTIES
    if own_duty and deadline.notify_email and kind != OVERDUE:
        out.setdefault(deadline.notify_email.lower(), None)
    if own_duty and kind != OVERDUE:
        # asked for on the respondent's page (issue 18)
        if asked is None:
            asked = portal_reminder_emails([deadline])
        if asked.get(deadline.pk):
            out.setdefault(asked[deadline.pk].lower(), None)
    return list(out.items())


OWN_DUTIES = (Deadline.Responsible.DISCHARGER, Deadline.Responsible.FACILITY)


# Deadline id -> the address its party asked reminders at, for the deadlines
# given: set by the app that owns the respondent's page (issue 18), above this
# one, in its AppConfig.ready() (STYLE.md, "Layers").
_party_emails: Callable[[list[Deadline]], dict[int, str]] | None = None


def register_party_emails(provider: Callable[[list[Deadline]], dict[int, str]]):
    global _party_emails
    _party_emails = provider


def portal_reminder_emails(deadlines) -> dict[int, str]:
    """Deadline id -> the address its party asked reminders at on the
    respondent's page (issue 18), for those of `deadlines` that are the party's
    own duty; two queries whatever their number."""
    if _party_emails is None:
        return {}
    return _party_emails([d for d in deadlines if d.responsible in OWN_DUTIES])


# --- the outbox rows --------------------------------------------------------------


def _reminder_message(reminder: Reminder, deadline: Deadline) -> outbox.Queued:
    """The outbox row of a reminder (one home for its wording)."""
    return outbox.Queued(
        source_id=reminder.pk,
        recipient=reminder.recipient,
        cause=f"{reminder.kind_label} reminder: {deadline.label} ({deadline.rule_id}),"
        f" due {human_short_date(deadline.due_date)}",
        # The subject is composed again when it is sent (the days left then).
        subject=f"Reminder: {deadline.label}, due {human_short_date(deadline.due_date)}",
        case_id=deadline.case_id,
    )


def _queue_reminder(reminder: Reminder, deadline: Deadline):
    row = _reminder_message(reminder, deadline)
    return outbox.message_queue(
        kind=OutgoingMessage.Kind.REMINDER,
        source=reminder,
        recipient=row.recipient,
        cause=row.cause,
        subject=row.subject,
        case=deadline.case if deadline.case_id else None,
    )


def _digest_message(digest: StaffDigest) -> outbox.Queued:
    """The outbox row of a day's digest (one home for its wording)."""
    return outbox.Queued(
        source_id=digest.pk,
        recipient=digest.recipient,
        cause=f"Daily deadline digest of {human_short_date(digest.day)}",
        subject=f"Deadlines {human_short_date(digest.day)}",
    )


def _queue_digest(digest: StaffDigest):
    row = _digest_message(digest)
    return outbox.message_queue(
        kind=OutgoingMessage.Kind.DIGEST,
        source=digest,
        recipient=row.recipient,
        cause=row.cause,
        subject=row.subject,
    )


def _message_id(kind: str, model, pk: int, queue) -> int | None:
    """The outbox row of a reminder or digest; one made now for a row that has
    none (created before the outbox, or by hand)."""
    row = (
        OutgoingMessage.objects.filter(
            kind=kind,
            content_type=ContentType.objects.get_for_model(model),
            object_id=pk,
        )
        .values_list("pk", flat=True)
        .first()
    )
    if row is not None:
        return row
    with transaction.atomic():
        obj = model.objects.filter(pk=pk).first()
        if obj is None or obj.sent_at is not None:
            return None
        return queue(obj).pk


def reminder_message_id(reminder_id: int) -> int | None:
    return _message_id(
        OutgoingMessage.Kind.REMINDER,
        Reminder,
        reminder_id,
        lambda r: _queue_reminder(r, r.deadline),
    )


def digest_message_id(digest_id: int) -> int | None:
    return _message_id(
        OutgoingMessage.Kind.DIGEST, StaffDigest, digest_id, _queue_digest
    )


# --- the sweep ------------------------------------------------------------------


def sweep_reminders(*, today: dt.date | None = None) -> dict:
    """Create the Reminder rows that are due, each with its outbox row (handed
    to the broker on commit), and the day's digests. Who: the periodic task.

    The queries do not grow with deadlines not yet due: one indexed query
    (open, due before the horizon) finds the candidates."""
    today = today or timezone.localdate()
    schedule = _schedule()
    cal = office_calendar()
    horizon = cal.add_business_days(today, (max(schedule) if schedule else 0) + 1)
    candidates = list(
        Deadline.objects.filter(
            status=Deadline.Status.OPEN, due_date__lt=horizon
        ).select_related("case", "assigned_to", "case__assigned_officer")
    )
    created = 0
    if candidates:
        existing = set(
            Reminder.objects.filter(deadline__in=candidates).values_list(
                "deadline_id", "kind", "recipient"
            )
        )
        role_users = selectors.users_by_role()
        asked = portal_reminder_emails(candidates)
        wanted = {}
        for deadline in candidates:
            kind = reminder_kind(deadline, today=today, cal=cal, schedule=schedule)
            if kind is None:
                continue
            for address, user in _recipients(deadline, kind, role_users, asked):
                key = (deadline.pk, kind, address)
                if key not in existing:
                    wanted[key] = Reminder(
                        deadline=deadline,
                        kind=kind,
                        recipient=address,
                        recipient_user=user,
                    )
        created = _create_reminders(wanted)
    digests = 0
    now = timezone.localtime()
    digest_hour = getattr(settings, "STAFF_DIGEST_HOUR", 7)
    if now.hour >= digest_hour and not StaffDigest.objects.filter(day=today).exists():
        digests = len(create_staff_digests(day=today))
    return {"created": created, "digests": digests}


def _create_reminders(wanted: dict) -> int:
    """Write the Reminder rows of `wanted` ((deadline id, kind, address) ->
    unsaved Reminder) with their outbox rows, in one transaction and a handful of
    queries whatever their number. Returns how many this call created.

    Once only: the unique constraint on (deadline, kind, recipient) makes a
    second sweep's insert skip a row (ON CONFLICT DO NOTHING; a sweep running at
    the same moment waits for the first one's commit, then skips). The rows this
    call wrote are those of `wanted` without an outbox row yet: another sweep's
    rows got theirs in its own transaction."""
    if not wanted:
        return 0
    with transaction.atomic():
        Reminder.objects.bulk_create(wanted.values(), ignore_conflicts=True)
        has_message = OutgoingMessage.objects.filter(
            kind=OutgoingMessage.Kind.REMINDER,
            content_type=ContentType.objects.get_for_model(Reminder),
            object_id=OuterRef("pk"),
        )
        fresh = (
            Reminder.objects.filter(deadline_id__in={key[0] for key in wanted})
            .exclude(Exists(has_message))
            .only("pk", "deadline_id", "kind", "recipient")
        )
        rows = []
        for reminder in fresh:
            mine = wanted.get((reminder.deadline_id, reminder.kind, reminder.recipient))
            if mine is not None:
                mine.pk = reminder.pk
                rows.append(_reminder_message(mine, mine.deadline))
        outbox.message_queue_many(
            kind=OutgoingMessage.Kind.REMINDER, model=Reminder, rows=rows
        )
    return len(rows)


# --- sending --------------------------------------------------------------------


def _site_url(path: str) -> str:
    return settings.VILLAGE["site_url"].rstrip("/") + path


def due_words(deadline: Deadline, *, today: dt.date, cal: BusinessCalendar) -> str:
    """How soon `deadline` is due, counted on `today` (the day the reminder is
    sent): "Overdue", "Due today", "Due in 1 business day", "Due in 3 business
    days". The count is the real one, not the step of the schedule that chose
    the day (a deadline three business days away reached the five-day step)."""
    if deadline.is_overdue(today):
        return "Overdue"
    left = cal.business_days_until(today, deadline.due_date)
    if left == 0:
        return "Due today"
    return f"Due in {left} business day{'' if left == 1 else 's'}"


def _reminder_text(reminder: Reminder, deadline: Deadline, when: str):
    """(subject, body) of one reminder."""
    staff = reminder.recipient_user_id is not None
    case = f" ({deadline.case.number})" if deadline.case_id else ""
    # Staff and the person a notice binds read the date written out (issue 26).
    due = human_long_date(deadline.due_date)
    subject = f"{when}: {deadline.label}{case}, {due}"
    body = render_to_string(
        "deadlines/email/reminder_staff.txt"
        if staff
        else "deadlines/email/reminder_discharger.txt",
        {
            "deadline": deadline,
            "reminder": reminder,
            "when": when,
            "village": settings.VILLAGE,
            "list_url": _site_url(reverse("deadlines:list")),
            "portal_url": _site_url(reverse("portal:enter")),
        },
    )
    return f"[{settings.VILLAGE['name']}] {subject}"[:250], body


def compose_reminder(message: OutgoingMessage, *, today: dt.date) -> outbox.Draft:
    """The outbox composer of a reminder: the days left counted on `today` (the
    day it is sent). Raises MessageNotNeeded for a reminder already sent, or of
    a deadline closed meanwhile. Once sent: Reminder.sent_at and the timeline."""
    reminder = Reminder.objects.filter(pk=message.object_id).first()
    if reminder is None or reminder.sent_at is not None:
        raise outbox.MessageNotNeeded("The reminder was already sent.")
    deadline = Deadline.objects.select_related("case").get(pk=reminder.deadline_id)
    if not deadline.is_open:
        raise outbox.MessageNotNeeded("The deadline was closed before it went out.")
    when = due_words(deadline, today=today, cal=office_calendar())
    subject, body = _reminder_text(reminder, deadline, when)

    def after_sent(sent: OutgoingMessage) -> None:
        reminder.sent_at = sent.sent_at
        reminder.save(update_fields=["sent_at"])
        if deadline.case_id:
            record_event(
                case=deadline.case,
                actor=None,
                kind="reminder",
                summary=f"Reminder sent to {reminder.recipient} for "
                f"{deadline.label} ({deadline.rule_id}), due "
                f"{human_long_date(deadline.due_date)}: {reminder.kind_label} "
                f"({when.lower()})",
                rule_id=deadline.rule_id,
                subject=deadline,
            )

    return outbox.Draft(subject=subject, body=body, after_sent=after_sent)


def deliver_reminder(reminder_id: int, *, today: dt.date | None = None) -> bool:
    """Deliver one reminder through its outbox row now; True if this call sent
    it. Who: tests and the legacy task; the worker runs deliver_message. A sent
    reminder, or one of a deadline closed meanwhile, sends nothing. Raises the
    mail backend's error (the row stays pending)."""
    message_id = reminder_message_id(reminder_id)
    if message_id is None:
        return False
    return outbox.message_deliver(message_id=message_id, today=today)


def create_staff_digests(*, day: dt.date | None = None) -> list[int]:
    """One StaffDigest row per SMO/clerk user with an address (and per address of
    STAFF_DIGEST_RECIPIENTS) for `day`, each with its outbox row.
    Idempotent: a second call the same day creates nothing."""
    day = day or timezone.localdate()
    wanted = {}
    for users in selectors.users_by_role().values():
        for user in users:
            wanted.setdefault(user.email.lower(), user)
    for address in settings.STAFF_DIGEST_RECIPIENTS:
        wanted.setdefault(address.lower(), None)
    of_day = StaffDigest.objects.filter(day=day, recipient__in=list(wanted))
    made = set(of_day.values_list("recipient", flat=True))
    new = {address: user for address, user in wanted.items() if address not in made}
    if not new:
        return []
    # As the reminders (_create_reminders): inserted together, a concurrent
    # sweep's rows skipped (the unique recipient and day); this call's rows are
    # those without an outbox row yet.
    with transaction.atomic():
        StaffDigest.objects.bulk_create(
            [
                StaffDigest(recipient=address, day=day, user=user)
                for address, user in new.items()
            ],
            ignore_conflicts=True,
        )
        has_message = OutgoingMessage.objects.filter(
            kind=OutgoingMessage.Kind.DIGEST,
            content_type=ContentType.objects.get_for_model(StaffDigest),
            object_id=OuterRef("pk"),
        )
        fresh = list(
            of_day.filter(recipient__in=list(new))
            .exclude(Exists(has_message))
            .order_by("pk")
        )
        outbox.message_queue_many(
            kind=OutgoingMessage.Kind.DIGEST,
            model=StaffDigest,
            rows=[_digest_message(digest) for digest in fresh],
        )
    return [digest.pk for digest in fresh]


def _digest_lists(digest: StaffDigest) -> dict:
    if digest.user_id is not None:
        return selectors.dashboard_panels(digest.user, digest.day)
    everything = Deadline.objects.select_related("case")
    return {
        "overdue": list(selectors.overdue(everything, digest.day)),
        "due_this_week": list(selectors.due_this_week(everything, digest.day)),
    }


def compose_digest(message: OutgoingMessage, *, today: dt.date) -> outbox.Draft:
    """The outbox composer of a day's digest, from the deadlines as they are when
    it is sent. A digest with nothing due, or to a user no longer staff, is
    marked done without an e-mail (MessageNotNeeded)."""
    digest = (
        StaffDigest.objects.select_related("user").filter(pk=message.object_id).first()
    )
    if digest is None or digest.sent_at is not None:
        raise outbox.MessageNotNeeded("The digest was already sent.")

    def done(count: int) -> None:
        digest.deadline_count = count
        digest.sent_at = timezone.now()
        digest.save(update_fields=["deadline_count", "sent_at"])

    if digest.user_id is not None and not (
        digest.user.is_active
        and (digest.user.is_superuser or _has_staff_role(digest.user))
    ):
        done(0)
        raise outbox.MessageNotNeeded("The recipient is no longer staff.")
    lists = _digest_lists(digest)
    count = len(lists["overdue"]) + len(lists["due_this_week"])
    if not count:
        done(0)
        raise outbox.MessageNotNeeded("Nothing was due or overdue that day.")
    body = render_to_string(
        "deadlines/email/digest.txt",
        {
            **lists,
            "digest": digest,
            "village": settings.VILLAGE,
            "list_url": _site_url(reverse("deadlines:list")),
        },
    )
    return outbox.Draft(
        subject=f"[{settings.VILLAGE['name']}] Deadlines {human_short_date(digest.day)}: "
        f"{len(lists['overdue'])} overdue, "
        f"{len(lists['due_this_week'])} due this week",
        body=body,
        after_sent=lambda sent: done(count),
    )


def deliver_digest(digest_id: int) -> bool:
    """Deliver one day's digest through its outbox row now; True if an e-mail
    went out (a digest with nothing due is marked done without one)."""
    message_id = digest_message_id(digest_id)
    if message_id is None:
        return False
    return outbox.message_deliver(message_id=message_id)


def _has_staff_role(user) -> bool:
    from kernel.roles import has_role

    return has_role(user, Role.SMO, Role.CLERK)
