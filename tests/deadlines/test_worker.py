"""Reminders through a REAL Celery worker on Redis: sent exactly once, a
duplicate delivery sends one e-mail, and what an outage lost goes out on the next
outbox sweep. The worker thread shares the process, so Django's locmem mail.outbox
sees what it sends."""

import datetime as dt

import pytest
from celery.contrib.testing.worker import start_worker
from django.core import mail
from django.utils import timezone
from kombu.exceptions import OperationalError

from deadlines import reminders, tasks
from deadlines.models import Reminder
from kernel.models import CaseEvent
from outbox import tasks as outbox_tasks
from outbox.models import OutgoingMessage

from .conftest import deadline_on, wait_for

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _settings(settings):
    settings.STAFF_DIGEST_HOUR = 24  # no digest in these tests
    settings.REMINDER_BUSINESS_DAYS_BEFORE = [5, 1, 0]


def _to(address):
    return [m for m in mail.outbox if m.to == [address]]


def _sentinel(smo_user):
    """A reminder sent after everything queued before it (one solo worker reads
    the queue in order): once its e-mail is out, earlier tasks have run."""
    far = deadline_on(timezone.localdate() + dt.timedelta(days=90), purpose="sentinel")
    reminder = Reminder.objects.create(
        deadline=far, kind="before-5", recipient="sentinel@poquott.example"
    )
    # Its outbox row, handed to the broker on commit.
    reminders.reminder_message_id(reminder.pk)
    wait_for(lambda: _to("sentinel@poquott.example"), "the sentinel e-mail")


@pytest.fixture
def worker(clean_broker, celery_worker_on_redis):
    return celery_worker_on_redis


def test_a_due_reminder_is_emailed_exactly_once_by_the_worker(
    worker, smo_user, make_case
):
    case = make_case(officer=smo_user)
    deadline_on(timezone.localdate(), case=case)

    tasks.sweep_deadlines.delay()
    wait_for(lambda: _to(smo_user.email), "the reminder e-mail")
    tasks.sweep_deadlines.delay()  # the next sweep finds it sent
    _sentinel(smo_user)

    assert len(_to(smo_user.email)) == 1
    reminder = Reminder.objects.get(recipient=smo_user.email)
    assert reminder.kind == "due-today" and reminder.sent_at is not None
    assert CaseEvent.objects.filter(case=case, kind="reminder").count() == 1


def test_a_duplicate_delivery_of_send_reminder_sends_one_email(worker, smo_user):
    deadline = deadline_on(timezone.localdate())
    reminder = Reminder.objects.create(
        deadline=deadline, kind="due-today", recipient=smo_user.email
    )
    tasks.send_reminder.delay(reminder.pk)
    tasks.send_reminder.delay(reminder.pk)
    _sentinel(smo_user)
    assert len(_to(smo_user.email)) == 1


def test_a_sweep_after_a_broker_outage_sends_what_was_missed(
    worker, smo_user, monkeypatch, settings
):
    settings.OUTBOX_REQUEUE_AFTER_SECONDS = 0
    deadline_on(timezone.localdate())

    def refuse(*args, **kwargs):
        raise OperationalError("Error 111 connecting to broker: Connection refused")

    with monkeypatch.context() as outage:
        outage.setattr(outbox_tasks.deliver_message, "apply_async", refuse)
        reminders.sweep_reminders()  # the row is committed; the hand-over fails
    reminder = Reminder.objects.get()
    message = OutgoingMessage.objects.get(kind="reminder", object_id=reminder.pk)
    assert reminder.sent_at is None and message.is_pending
    assert _to(smo_user.email) == []

    outbox_tasks.sweep_outbox.delay()  # the broker is back
    wait_for(lambda: _to(smo_user.email), "the missed reminder")
    _sentinel(smo_user)
    assert len(_to(smo_user.email)) == 1
    reminder.refresh_from_db()
    assert reminder.sent_at is not None


def test_a_message_lost_while_the_worker_was_down_is_sent_by_a_later_sweep(
    clean_broker, smo_user, settings
):
    settings.OUTBOX_REQUEUE_AFTER_SECONDS = 60
    deadline_on(timezone.localdate())
    reminders.sweep_reminders()  # handed to Redis, no worker running
    reminder = Reminder.objects.get()
    clean_broker.control.purge()  # the message is lost with the broker's data
    OutgoingMessage.objects.filter(kind="reminder", object_id=reminder.pk).update(
        created_at=timezone.now() - dt.timedelta(minutes=5)
    )

    with start_worker(
        clean_broker, pool="solo", perform_ping_check=False, loglevel="WARNING"
    ):
        outbox_tasks.sweep_outbox.delay()
        wait_for(lambda: _to(smo_user.email), "the lost reminder")
        _sentinel(smo_user)
    assert len(_to(smo_user.email)) == 1
