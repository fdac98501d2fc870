from celery import shared_task

from .services import counters_purge


@shared_task(name="limits.tasks.purge_expired_counters")
def purge_expired_counters() -> int:
    """The hourly sweep of the beat schedule: ended windows leave no rows."""
    return counters_purge()
