"""Reminders about deadlines: never lost, never sent twice.

Design (issue 7):
- The database is the outbox. The periodic sweep (`sweep_reminders`, run by the
  Celery task `cases.tasks.sweep_deadlines`) finds the open deadlines coming due
  on the schedule of REMINDER_BUSINESS_DAYS_BEFORE (business days on the office
  calendar; 0 = the due day) and the overdue ones, and for each (deadline, kind,
  recipient) creates the Reminder row first. The unique constraint on those three
  makes the row a once-only ticket: a second sweep, or two sweeps at once, find
  it or hit IntegrityError and move on.
- Only after the row is committed is `send_reminder(reminder_id)` handed to the
  broker (`transaction.on_commit`). If the broker is down the hand-over fails,
  is logged, and `enqueued_at` stays empty; if the worker dies or the message is
  lost, `sent_at` stays empty. Either way the next sweep hands every unsent
  reminder of an open deadline again once REMINDER_REENQUEUE_AFTER_SECONDS have
  passed since the last hand-over. Nothing is lost.
- `deliver_reminder` locks the row (`select_for_update`), sends only if
  `sent_at` is empty, then sets it and writes the "Reminder sent" timeline event
  in the same transaction: a duplicated, retried or redelivered task sends one
  e-mail. (If the mail server accepts a message and the database then fails to
  commit, that one reminder is sent again: at-least-once is the safe side for a
  legal deadline.)
- Which kind: the tightest step of the schedule the deadline has reached, so a
  deadline opened 2 business days before its due date gets no late "before-5":
  it gets "before-1" on the right day. A step missed in an outage is sent late,
  once, when the sweep runs again. Overdue: one alert per recipient; the daily digest lists
  overdue deadlines every day after that.
- Who: staff by e-mail (the deadline's assignee; else the case's officer for
  SMO/discharger/facility duties; else every SMO user; clerk/Board duties: the
  clerk group), and the discharger at `notify_email` for their own duties
  (before and on the due day; an overdue discharger is the SMO's to pursue, not
  an automatic e-mail's).
- The staff digest: one StaffDigest row per recipient and day (unique), sent the
  same way. The sweep creates the day's digests too once STAFF_DIGEST_HOUR has
  passed, so a digest missed while the broker was down still goes out.
"""

import datetime as dt
import logging
from functools import partial

from django.conf import settings
from django.core.mail import EmailMessage
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from ..models import Deadline, Reminder, StaffDigest
from ..roles import Role
from ..timeline import record_event
from . import selectors
from .business_days import BusinessCalendar
from .services import office_calendar

log = logging.getLogger(__name__)

OVERDUE = "overdue"
DUE_TODAY = "due-today"


def _schedule() -> list[int]:
    return sorted({int(n) for n in settings.REMINDER_BUSINESS_DAYS_BEFORE if n >= 0})


def _reenqueue_after() -> dt.timedelta:
    return dt.timedelta(
        seconds=getattr(settings, "REMINDER_REENQUEUE_AFTER_SECONDS", 600)
    )


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


def _recipients(deadline: Deadline, kind: str, role_users: dict):
    """(address, user or None) pairs, without duplicates."""
    out = {}
    for user in selectors.staff_recipients(deadline, role_users):
        if user.email:
            out.setdefault(user.email.lower(), user)
    own_duty = deadline.responsible in (
        Deadline.Responsible.DISCHARGER,
        Deadline.Responsible.FACILITY,
    )
    if own_duty and deadline.notify_email and kind != OVERDUE:
        out.setdefault(deadline.notify_email.lower(), None)
    return list(out.items())


# --- handing tasks to the broker ------------------------------------------------


def _hand_over(model, task_name: str, pk: int) -> bool:
    """Give the send task to the broker; on failure leave it for the next sweep."""
    from .. import tasks

    try:
        getattr(tasks, task_name).apply_async((pk,))
    except Exception:  # the broker is down: the row is the outbox
        log.warning("could not enqueue %s(%s); the next sweep retries", task_name, pk)
        return False
    model.objects.filter(pk=pk).update(enqueued_at=timezone.now())
    return True


def enqueue_reminder(reminder_id: int) -> bool:
    return _hand_over(Reminder, "send_reminder", reminder_id)


def enqueue_digest(digest_id: int) -> bool:
    return _hand_over(StaffDigest, "send_staff_digest", digest_id)


def requeue_unsent(now: dt.datetime | None = None) -> int:
    """Hand again every unsent reminder of an open deadline (and every unsent
    digest) last handed over more than REMINDER_REENQUEUE_AFTER_SECONDS ago, or
    never. One query each, however many rows there are."""
    cutoff = (now or timezone.now()) - _reenqueue_after()
    stale = Q(enqueued_at__isnull=True) | Q(enqueued_at__lt=cutoff)
    reminder_ids = list(
        Reminder.objects.filter(
            stale, sent_at__isnull=True, deadline__status=Deadline.Status.OPEN
        ).values_list("pk", flat=True)
    )
    digest_ids = list(
        StaffDigest.objects.filter(stale, sent_at__isnull=True).values_list(
            "pk", flat=True
        )
    )
    for pk in reminder_ids:
        enqueue_reminder(pk)
    for pk in digest_ids:
        enqueue_digest(pk)
    return len(reminder_ids) + len(digest_ids)


# --- the sweep ------------------------------------------------------------------


def sweep_reminders(*, today: dt.date | None = None) -> dict:
    """Create the Reminder rows that are due and hand them to the broker on
    commit; hand again what an outage left unsent. Who: the periodic task.

    The queries do not grow with deadlines not yet due: one indexed query
    (open, due before the horizon) finds the candidates."""
    today = today or timezone.localdate()
    requeued = requeue_unsent()
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
        for deadline in candidates:
            kind = reminder_kind(deadline, today=today, cal=cal, schedule=schedule)
            if kind is None:
                continue
            for address, user in _recipients(deadline, kind, role_users):
                if (deadline.pk, kind, address) in existing:
                    continue
                try:
                    with transaction.atomic():
                        reminder = Reminder.objects.create(
                            deadline=deadline,
                            kind=kind,
                            recipient=address,
                            recipient_user=user,
                        )
                        transaction.on_commit(partial(enqueue_reminder, reminder.pk))
                except IntegrityError:  # a concurrent sweep created it first
                    continue
                created += 1
    digests = 0
    now = timezone.localtime()
    digest_hour = getattr(settings, "STAFF_DIGEST_HOUR", 7)
    if now.hour >= digest_hour and not StaffDigest.objects.filter(day=today).exists():
        digests = len(create_staff_digests(day=today))
    return {"created": created, "requeued": requeued, "digests": digests}


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


def _reminder_message(
    reminder: Reminder, deadline: Deadline, when: str
) -> EmailMessage:
    staff = reminder.recipient_user_id is not None
    case = f" ({deadline.case.number})" if deadline.case_id else ""
    subject = f"{when}: {deadline.label}{case}, {deadline.due_date:%A %Y-%m-%d}"
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
        },
    )
    return EmailMessage(
        subject=f"[{settings.VILLAGE['name']}] {subject}"[:250],
        body=body,
        to=[reminder.recipient],
    )


def deliver_reminder(reminder_id: int, *, today: dt.date | None = None) -> bool:
    """Send one reminder if it was not sent yet; True if this call sent it.

    Who: the task send_reminder. Locks the row so two deliveries of the same task
    send once. A reminder of a deadline closed meanwhile is not sent. Raises the
    mail backend's error (the task retries; the row stays unsent). The e-mail
    counts the business days left from `today` (default: the day it is sent)."""
    today = today or timezone.localdate()
    with transaction.atomic():
        reminder = Reminder.objects.select_for_update().filter(pk=reminder_id).first()
        if reminder is None or reminder.sent_at is not None:
            return False
        deadline = Deadline.objects.select_related("case").get(pk=reminder.deadline_id)
        if not deadline.is_open:
            return False
        when = due_words(deadline, today=today, cal=office_calendar())
        _reminder_message(reminder, deadline, when).send()
        reminder.sent_at = timezone.now()
        reminder.save(update_fields=["sent_at"])
        if deadline.case_id:
            record_event(
                case=deadline.case,
                actor=None,
                kind="reminder",
                summary=f"Reminder sent to {reminder.recipient} for "
                f"{deadline.label} ({deadline.rule_id}), due "
                f"{deadline.due_date:%Y-%m-%d}: {reminder.kind_label} "
                f"({when.lower()})",
                rule_id=deadline.rule_id,
                subject=deadline,
            )
    return True


def create_staff_digests(*, day: dt.date | None = None) -> list[int]:
    """One StaffDigest row per SMO/clerk user with an address (and per address of
    STAFF_DIGEST_RECIPIENTS) for `day`, each handed to the broker on commit.
    Idempotent: a second call the same day creates nothing."""
    day = day or timezone.localdate()
    wanted = {}
    for users in selectors.users_by_role().values():
        for user in users:
            wanted.setdefault(user.email.lower(), user)
    for address in settings.STAFF_DIGEST_RECIPIENTS:
        wanted.setdefault(address.lower(), None)
    created = []
    for address, user in wanted.items():
        try:
            with transaction.atomic():
                digest, new = StaffDigest.objects.get_or_create(
                    recipient=address, day=day, defaults={"user": user}
                )
                if new:
                    transaction.on_commit(partial(enqueue_digest, digest.pk))
        except IntegrityError:
            continue
        if new:
            created.append(digest.pk)
    return created


def _digest_lists(digest: StaffDigest) -> dict:
    if digest.user_id is not None:
        return selectors.dashboard_panels(digest.user, digest.day)
    everything = Deadline.objects.select_related("case")
    return {
        "overdue": list(selectors.overdue(everything, digest.day)),
        "due_this_week": list(selectors.due_this_week(everything, digest.day)),
    }


def deliver_digest(digest_id: int) -> bool:
    """Send one day's digest if not sent yet (locked like deliver_reminder).
    A digest with nothing due is marked done without an e-mail."""
    with transaction.atomic():
        digest = (
            StaffDigest.objects.select_for_update(of=("self",))
            .select_related("user")
            .filter(pk=digest_id)
            .first()
        )
        if digest is None or digest.sent_at is not None:
            return False
        if digest.user_id is not None and not (
            digest.user.is_active
            and (digest.user.is_superuser or _has_staff_role(digest.user))
        ):
            digest.sent_at = timezone.now()
            digest.save(update_fields=["sent_at"])
            return False
        lists = _digest_lists(digest)
        count = len(lists["overdue"]) + len(lists["due_this_week"])
        if count:
            body = render_to_string(
                "deadlines/email/digest.txt",
                {
                    **lists,
                    "digest": digest,
                    "village": settings.VILLAGE,
                    "list_url": _site_url(reverse("deadlines:list")),
                },
            )
            EmailMessage(
                subject=f"[{settings.VILLAGE['name']}] Deadlines {digest.day:%Y-%m-%d}: "
                f"{len(lists['overdue'])} overdue, "
                f"{len(lists['due_this_week'])} due this week",
                body=body,
                to=[digest.recipient],
            ).send()
        digest.deadline_count = count
        digest.sent_at = timezone.now()
        digest.save(update_fields=["deadline_count", "sent_at"])
    return bool(count)


def _has_staff_role(user) -> bool:
    from ..roles import has_role

    return has_role(user, Role.SMO, Role.CLERK)
