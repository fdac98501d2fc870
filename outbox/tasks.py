"""Celery tasks of the outbox: thin wrappers taking ids (the design is in
outbox/services.py).

Every task is idempotent and runs with acks_late (a killed worker's task is
redelivered). E-mail goes out only through deliver_message, one outbox row at a
time; its retries are counted on the row, so a re-queued or redelivered task
never gets a fresh set of attempts. (A delivery handed to the broker under the
name these tasks had in cases, before issue 30, is not run: its row is still
pending and the sweep hands it again.)"""

from celery import shared_task

from . import services


@shared_task(bind=True, acks_late=True, ignore_result=True)
def deliver_message(self, message_id: int):
    """Send one outbox row once; on an error count the attempt and retry with
    exponential backoff (the row says how many are left), or leave it failed."""
    return deliver(self, message_id)


def deliver(task, message_id: int | None):
    """The body of every delivery task: send the row `message_id` (None: there
    is none), or record the failure and have `task` retried when it is due."""
    if message_id is None:
        return False
    try:
        return services.message_deliver(message_id=message_id)
    except Exception as exc:
        retry_in = services.message_record_failure(message_id=message_id, error=exc)
        if retry_in is None:
            return False  # failed for good: on the SMO's outbox page
        # max_retries=None: the row's attempts, not Celery's count, set the limit.
        raise task.retry(exc=exc, countdown=retry_in, max_retries=None) from exc


@shared_task(acks_late=True, ignore_result=True)
def sweep_outbox():
    """Periodic (beat): hand again every row left pending (broker down at
    commit, message lost, worker killed mid-send)."""
    return services.message_requeue_stale()
