"""Celery tasks of the cases app: thin wrappers taking ids (see
cases/deadlines/reminders.py for the reminder design).

Every task is idempotent, runs with acks_late (a killed worker's task is
redelivered) and retries a bounded number of times; when the retries run out
the database row stays unsent and the next sweep hands it over again."""

from smtplib import SMTPException

from celery import shared_task

from .deadlines import reminders

# Mail server hiccups and lost connections are worth retrying; a bug is not.
RETRY_ON = (SMTPException, ConnectionError, TimeoutError, OSError)
RETRY = {
    "acks_late": True,
    "autoretry_for": RETRY_ON,
    "max_retries": 5,
    "retry_backoff": 30,  # 30 s, 60 s, 120 s… between attempts
    "retry_backoff_max": 600,
    "retry_jitter": True,
}


@shared_task(name="cases.tasks.sweep_deadlines", acks_late=True, ignore_result=True)
def sweep_deadlines():
    """Periodic (beat): create due reminders, re-enqueue what an outage left."""
    return reminders.sweep_reminders()


@shared_task(name="cases.tasks.send_reminder", ignore_result=True, **RETRY)
def send_reminder(reminder_id: int):
    """Send one Reminder row once (locked; a duplicate delivery sends nothing)."""
    return reminders.deliver_reminder(reminder_id)


@shared_task(name="cases.tasks.send_staff_digests", acks_late=True, ignore_result=True)
def send_staff_digests():
    """Daily (beat): one digest row per staff recipient, each sent on commit."""
    return len(reminders.create_staff_digests())


@shared_task(name="cases.tasks.send_staff_digest", ignore_result=True, **RETRY)
def send_staff_digest(digest_id: int):
    """Send one StaffDigest row once."""
    return reminders.deliver_digest(digest_id)
