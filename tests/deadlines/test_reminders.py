"""The reminder sweep without a worker: what is due, to whom, once; the outbox;
query counts that do not grow with deadlines not yet due."""

import datetime as dt
import re

import pytest
from django.core import mail
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from kombu.exceptions import OperationalError

from deadlines import reminders
from deadlines.business_days import BusinessCalendar
from deadlines.models import Deadline, Reminder, StaffDigest
from kernel.humanize import human_date, human_long_date, human_short_date
from kernel.models import CaseEvent
from outbox import services as outbox
from outbox import tasks
from outbox.models import OutgoingMessage

from .conftest import deadline_on

pytestmark = pytest.mark.django_db

THU = dt.date(2026, 12, 10)  # Thursday; Christmas Friday 2026-12-25
CAL = BusinessCalendar()


@pytest.fixture(autouse=True)
def _no_digest_catch_up(settings):
    settings.STAFF_DIGEST_HOUR = 24  # the digest has its own tests below
    settings.REMINDER_BUSINESS_DAYS_BEFORE = [5, 1, 0]


@pytest.fixture
def broker_down(monkeypatch):
    def refuse(*args, **kwargs):
        raise OperationalError("Error 111 connecting to broker: Connection refused")

    monkeypatch.setattr(tasks.deliver_message, "apply_async", refuse)


def _message_of(reminder):
    return OutgoingMessage.objects.get(kind="reminder", object_id=reminder.pk)


def _kind(due, today=THU):
    return reminders.reminder_kind(
        deadline_on(due), today=today, cal=CAL, schedule=[0, 1, 5]
    )


@pytest.mark.parametrize(
    ("due", "kind"),
    [
        (dt.date(2026, 12, 17), "before-5"),  # Fri, Mon..Thu = 5 business days
        (dt.date(2026, 12, 14), "before-5"),  # 2 business days left: step 5 reached
        (dt.date(2026, 12, 11), "before-1"),  # tomorrow
        (THU, "due-today"),
        (dt.date(2026, 12, 9), "overdue"),
        (dt.date(2026, 12, 18), None),  # 6 business days left
    ],
)
def test_the_reminder_due_today_is_the_step_of_the_schedule_reached(due, kind):
    assert _kind(due) == kind


def test_christmas_is_not_counted_among_the_five_business_days_before():
    # From Fri 2026-12-18 to Mon 2026-12-28: 21, 22, 23, 24, 28 (25th skipped).
    assert _kind(dt.date(2026, 12, 28), today=dt.date(2026, 12, 18)) == "before-5"


def test_a_deadline_due_tomorrow_gets_its_one_day_reminder_on_the_friday_before():
    # Due Monday 2026-12-28: Friday 2026-12-25 is Christmas, so the business day
    # before is Thursday 2026-12-24.
    assert _kind(dt.date(2026, 12, 28), today=dt.date(2026, 12, 24)) == "before-1"


def test_sweep_creates_one_reminder_for_the_officer_of_the_case(
    make_case, smo_user, django_capture_on_commit_callbacks
):
    case = make_case(officer=smo_user)
    deadline_on(dt.date(2026, 12, 11), case=case)
    with django_capture_on_commit_callbacks() as callbacks:
        result = reminders.sweep_reminders(today=THU)
    [reminder] = Reminder.objects.all()
    assert (reminder.kind, reminder.recipient) == ("before-1", smo_user.email)
    assert reminder.recipient_user == smo_user and reminder.sent_at is None
    assert result["created"] == 1 and len(callbacks) == 1


def test_a_second_sweep_creates_nothing_new(make_case, smo_user):
    case = make_case(officer=smo_user)
    deadline_on(dt.date(2026, 12, 11), case=case)
    reminders.sweep_reminders(today=THU)
    assert reminders.sweep_reminders(today=THU)["created"] == 0
    assert Reminder.objects.count() == 1


def test_unassigned_smo_duty_goes_to_every_smo_user_and_board_duty_to_the_clerk(
    smo_user, clerk_user
):
    deadline_on(THU, responsible="smo", purpose="a")
    deadline_on(THU, responsible="board", rule_id="R-APL-2")
    reminders.sweep_reminders(today=THU)
    sent = set(Reminder.objects.values_list("deadline__responsible", "recipient"))
    assert sent == {("smo", smo_user.email), ("board", clerk_user.email)}


def test_the_discharger_is_reminded_of_their_own_duty_but_not_when_overdue(smo_user):
    deadline_on(THU, responsible="discharger", notify_email="owner@example.org")
    deadline_on(
        dt.date(2026, 12, 9),
        responsible="discharger",
        notify_email="late@example.org",
        purpose="b",
    )
    reminders.sweep_reminders(today=THU)
    recipients = set(Reminder.objects.values_list("kind", "recipient"))
    assert ("due-today", "owner@example.org") in recipients
    assert ("overdue", "late@example.org") not in recipients
    assert ("overdue", smo_user.email) in recipients


def test_deliver_sends_once_and_writes_the_timeline(make_case, smo_user):
    case = make_case(officer=smo_user)
    deadline = deadline_on(dt.date(2026, 12, 11), case=case)
    reminder = Reminder.objects.create(
        deadline=deadline, kind="before-1", recipient=smo_user.email
    )
    assert reminders.deliver_reminder(reminder.pk) is True
    assert reminders.deliver_reminder(reminder.pk) is False
    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == [smo_user.email]
    # No recipient_user: the reminder reads as the party's (issue 26), the date
    # explained in words, not the office's stored explanation.
    body = " ".join(mail.outbox[0].body.split())
    assert " ".join(deadline.people_explanation.split()) in body
    assert "R-SPL-4 explanation." not in body
    reminder.refresh_from_db()
    assert reminder.sent_at is not None
    [event] = CaseEvent.objects.filter(case=case, kind="reminder")
    assert event.summary.startswith(f"Reminder sent to {smo_user.email} for")


def test_a_reminder_of_a_deadline_closed_meanwhile_is_not_sent(smo_user):
    deadline = deadline_on(THU)
    reminder = Reminder.objects.create(
        deadline=deadline, kind="due-today", recipient=smo_user.email
    )
    Deadline.objects.filter(pk=deadline.pk).update(status="waived")
    assert reminders.deliver_reminder(reminder.pk) is False
    assert mail.outbox == []


def test_a_missing_reminder_id_is_ignored():
    assert reminders.deliver_reminder(987654321) is False


def test_with_the_broker_down_the_row_waits_and_the_outbox_sweep_hands_it_over(
    smo_user, broker_down, django_capture_on_commit_callbacks, monkeypatch, settings
):
    settings.OUTBOX_REQUEUE_AFTER_SECONDS = 300
    deadline_on(THU)
    with django_capture_on_commit_callbacks(execute=True):
        reminders.sweep_reminders(today=THU)  # the hand-over fails, logged
    reminder = Reminder.objects.get()
    message = _message_of(reminder)
    assert message.is_pending and message.enqueued_at is None
    assert reminder.sent_at is None

    handed = []
    monkeypatch.setattr(
        tasks.deliver_message, "apply_async", lambda args: handed.append(args)
    )
    later = timezone.now() + dt.timedelta(minutes=6)
    assert outbox.message_requeue_stale(now=later) == 1
    assert handed == [(message.pk,)]
    message.refresh_from_db()
    assert message.enqueued_at == later


def test_a_recently_handed_reminder_is_not_handed_again(smo_user, monkeypatch):
    deadline = deadline_on(THU)
    reminder = Reminder.objects.create(
        deadline=deadline, kind="due-today", recipient=smo_user.email
    )
    reminders.reminder_message_id(reminder.pk)
    OutgoingMessage.objects.update(enqueued_at=timezone.now())
    handed = []
    monkeypatch.setattr(
        tasks.deliver_message, "apply_async", lambda args: handed.append(args)
    )
    assert outbox.message_requeue_stale() == 0
    assert handed == []


def _sweep_queries(count_not_due):
    future = THU + dt.timedelta(days=60)
    Deadline.objects.bulk_create(
        [
            Deadline(
                rule_id="R-APL-1",
                label="far",
                counts_from="x",
                event_date=THU,
                due_date=future + dt.timedelta(days=i % 30),
                explanation="x",
                method="calendar_days+25a",
                responsible="smo",
            )
            for i in range(count_not_due)
        ]
    )
    with CaptureQueriesContext(connection) as ctx:
        reminders.sweep_reminders(today=THU)
    return len(ctx.captured_queries)


def test_sweep_queries_do_not_grow_with_deadlines_not_due(smo_user, make_case):
    case = make_case(officer=smo_user)
    deadline_on(THU, case=case)
    deadline_on(dt.date(2026, 12, 9), case=case, purpose="late")
    with_10 = _sweep_queries(10)
    assert Reminder.objects.count() == 2
    Reminder.objects.all().delete()
    with_200 = _sweep_queries(190)
    assert Reminder.objects.count() == 2
    assert with_10 == with_200


def test_digest_is_made_once_per_recipient_and_day(smo_user, clerk_user, settings):
    settings.STAFF_DIGEST_RECIPIENTS = ["office@poquott.example"]
    first = reminders.create_staff_digests(day=THU)
    again = reminders.create_staff_digests(day=THU)
    assert len(first) == 3 and again == []
    assert StaffDigest.objects.filter(day=THU).count() == 3


def test_digest_lists_due_this_week_and_overdue_and_sends_once(smo_user, make_case):
    today = timezone.localdate()
    case = make_case(officer=smo_user)
    deadline_on(today + dt.timedelta(days=2), case=case, purpose="soon")
    deadline_on(today - dt.timedelta(days=1), case=case, purpose="late")
    [digest_id] = reminders.create_staff_digests(day=today)
    assert reminders.deliver_digest(digest_id) is True
    assert reminders.deliver_digest(digest_id) is False
    [message] = mail.outbox
    assert "1 overdue, 1 due this week" in message.subject
    assert case.number in message.body
    # Dates in words (issue 26): "Deadlines Dec 5, 2026", "- Mon, Dec 7, 2026".
    assert f"Deadlines {human_short_date(today)}: " in message.subject
    assert message.body.startswith(f"Deadlines on {human_long_date(today)}\n")
    soon = today + dt.timedelta(days=2)
    assert f"- {human_date(soon)}  " in message.body
    assert not re.search(r"\d{4}-\d{2}-\d{2}", message.subject + message.body)


def test_a_digest_with_nothing_due_sends_no_mail(smo_user):
    [digest_id] = reminders.create_staff_digests(day=THU)
    assert reminders.deliver_digest(digest_id) is False
    assert mail.outbox == []
    assert StaffDigest.objects.get().sent_at is not None


def test_the_sweep_makes_the_days_digests_after_the_digest_hour(settings, smo_user):
    settings.STAFF_DIGEST_HOUR = 0
    assert reminders.sweep_reminders()["digests"] == 1
    assert reminders.sweep_reminders()["digests"] == 0
