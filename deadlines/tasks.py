"""Celery tasks of the deadlines: thin wrappers taking ids (the reminders' design
is in deadlines/reminders.py; e-mail goes out through the outbox,
outbox/tasks.py).

Every task is idempotent and runs with acks_late (a killed worker's task is
redelivered)."""

from celery import shared_task

from outbox.tasks import deliver

from . import reminders


@shared_task(acks_late=True, ignore_result=True)
def sweep_deadlines():
    """Periodic (beat): queue the reminders that are due (and the day's digests)."""
    return reminders.sweep_reminders()


@shared_task(acks_late=True, ignore_result=True)
def send_staff_digests():
    """Daily (beat): one digest row per staff recipient, each queued on commit."""
    return len(reminders.create_staff_digests())


# The two send tasks of before the outbox, under the names they had then: a
# message of theirs still in the broker at an upgrade delivers the reminder's or
# digest's outbox row.
@shared_task(
    bind=True, name="cases.tasks.send_reminder", acks_late=True, ignore_result=True
)
def send_reminder(self, reminder_id: int):
    """Deliver the Reminder's outbox row, as outbox.tasks.deliver_message does."""
    return deliver(self, reminders.reminder_message_id(reminder_id))


@shared_task(
    bind=True, name="cases.tasks.send_staff_digest", acks_late=True, ignore_result=True
)
def send_staff_digest(self, digest_id: int):
    """Deliver the StaffDigest's outbox row, as outbox.tasks.deliver_message does."""
    return deliver(self, reminders.digest_message_id(digest_id))
