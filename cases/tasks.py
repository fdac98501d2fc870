"""Celery tasks of the cases app: thin wrappers taking ids (the outbox design is
in cases/outbox/services.py, the reminders' in cases/deadlines/reminders.py).

Every task is idempotent and runs with acks_late (a killed worker's task is
redelivered). E-mail goes out only through deliver_message, one outbox row at a
time; its retries are counted on the row, so a re-queued or redelivered task
never gets a fresh set of attempts."""

from celery import shared_task

from .deadlines import reminders
from .outbox import services as outbox

# Kept for the callers that name them (and other modules' imports).
RETRY_ON = outbox.TRANSIENT_ERRORS


@shared_task(
    bind=True, name="cases.tasks.deliver_message", acks_late=True, ignore_result=True
)
def deliver_message(self, message_id: int):
    """Send one outbox row once; on an error count the attempt and retry with
    exponential backoff (the row says how many are left), or leave it failed."""
    return _deliver(self, message_id)


def _deliver(task, message_id: int | None):
    if message_id is None:
        return False
    try:
        return outbox.message_deliver(message_id=message_id)
    except Exception as exc:
        retry_in = outbox.message_record_failure(message_id=message_id, error=exc)
        if retry_in is None:
            return False  # failed for good: on the SMO's outbox page
        # max_retries=None: the row's attempts, not Celery's count, set the limit.
        raise task.retry(exc=exc, countdown=retry_in, max_retries=None) from exc


@shared_task(name="cases.tasks.sweep_outbox", acks_late=True, ignore_result=True)
def sweep_outbox():
    """Periodic (beat): hand again every row left pending (broker down at
    commit, message lost, worker killed mid-send)."""
    return outbox.message_requeue_stale()


@shared_task(name="cases.tasks.sweep_deadlines", acks_late=True, ignore_result=True)
def sweep_deadlines():
    """Periodic (beat): queue the reminders that are due (and the day's digests)."""
    return reminders.sweep_reminders()


@shared_task(name="cases.tasks.send_staff_digests", acks_late=True, ignore_result=True)
def send_staff_digests():
    """Daily (beat): one digest row per staff recipient, each queued on commit."""
    return len(reminders.create_staff_digests())


# The two send tasks of before the outbox: a message of theirs still in the
# broker at an upgrade delivers the reminder's or digest's outbox row.
@shared_task(
    bind=True, name="cases.tasks.send_reminder", acks_late=True, ignore_result=True
)
def send_reminder(self, reminder_id: int):
    """Deliver the Reminder's outbox row, as deliver_message does."""
    return _deliver(self, reminders.reminder_message_id(reminder_id))


@shared_task(
    bind=True, name="cases.tasks.send_staff_digest", acks_late=True, ignore_result=True
)
def send_staff_digest(self, digest_id: int):
    """Deliver the StaffDigest's outbox row, as deliver_message does."""
    return _deliver(self, reminders.digest_message_id(digest_id))
