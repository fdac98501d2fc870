"""Background jobs (issue 29): long work (a large export) done by the Celery
worker while the staff member watches its progress.

How it works (the outbox's design, outbox/services.py):
- `job_queue(...)` writes the job row inside the request's transaction and hands
  `jobs.tasks.run_job(id)` to the broker on commit. With the broker down the
  error is logged and swallowed: the row waits and the sweep hands it over.
- `job_run` locks the queued row (SELECT … FOR UPDATE SKIP LOCKED: a second
  delivery passes over it), marks it running and commits; the registered work
  (jobs.registry) then writes the file, reporting its rows done after every
  chunk in short updates of their own, so the page sees them at once. The file
  is saved under MEDIA_ROOT/jobs/ (never served as is: a view checks who asks);
  the job is done, or failed with a sentence for the staff member.
- `job_sweep` (beat: jobs.tasks.sweep_jobs) hands over again a job left queued
  JOB_REQUEUE_AFTER_SECONDS after it was last handed over, puts back in the queue
  a running job whose progress stopped that long ago (its worker was killed),
  and deletes the jobs past their day, with their files.
"""

from __future__ import annotations

import datetime as dt
import logging
import tempfile

from django.conf import settings
from django.core.files import File
from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone

from kernel.workflow import Refused

from .models import Job
from .registry import JobRefused, work_for

log = logging.getLogger(__name__)

KEEP = dt.timedelta(days=1)  # the issue: "the file is kept … for a day"
FAILED_IN_GENERAL = (
    "The file could not be made because of an error on the server. Try again; "
    "if it fails again, tell the administrator."
)


def requeue_after() -> dt.timedelta:
    return dt.timedelta(
        seconds=int(getattr(settings, "JOB_REQUEUE_AFTER_SECONDS", 300))
    )


def job_queue(
    *,
    owner,
    kind: str,
    title: str,
    fmt: str = "",
    query: str = "",
    base_url: str = "",
    again_url: str = "",
    rows_total: int = 0,
) -> Job:
    """Write the job row and hand it to the broker when the transaction commits.
    The same staff member asking again for the same work while it waits or runs
    gets that job back (a double click queues one job)."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("job_queue must run inside the request's transaction")
    waiting = Job.objects.filter(
        owner=owner,
        kind=kind,
        fmt=fmt,
        query=query,
        state__in=[Job.State.QUEUED, Job.State.RUNNING],
    ).first()
    if waiting is not None:
        return waiting
    now = timezone.now()
    job = Job.objects.create(
        owner=owner,
        kind=kind,
        title=title[:200],
        fmt=fmt,
        query=query,
        base_url=base_url[:200],
        again_url=again_url[:2000],
        rows_total=rows_total,
        created_at=now,
        expires_at=now + KEEP,
    )
    transaction.on_commit(lambda: job_enqueue(job.pk))
    return job


def job_enqueue(job_id: int) -> bool:
    """Hand the job to the broker. Never raises: with the broker down the row
    waits for the sweep (the staff member's page still shows it)."""
    from . import tasks

    try:
        tasks.run_job.apply_async((job_id,))
    except Exception:  # the broker is down: the row is the queue
        log.warning(
            "could not hand job %s to the broker; the sweep retries",
            job_id,
            exc_info=True,
        )
        return False
    Job.objects.filter(pk=job_id).update(enqueued_at=timezone.now())
    return True


def _take(job_id: int) -> Job | None:
    """The queued job, marked running (committed); None if another worker has
    it, it is finished, or it is gone."""
    with transaction.atomic():
        rows = Job.objects.filter(pk=job_id, state=Job.State.QUEUED)
        if connection.features.has_select_for_update_skip_locked:
            job = rows.select_for_update(skip_locked=True).select_related("owner")
            job = job.first()
        else:
            job = rows.select_related("owner").first()
        if job is None:
            return None
        now = timezone.now()
        job.state = Job.State.RUNNING
        job.started_at = job.progress_at = now
        job.rows_done = 0
        job.error = ""
        job.save(
            update_fields=["state", "started_at", "progress_at", "rows_done", "error"]
        )
    return job


def _finish(job: Job, **fields) -> None:
    now = timezone.now()
    fields.update(finished_at=now, progress_at=now, expires_at=now + KEEP)
    Job.objects.filter(pk=job.pk, state=Job.State.RUNNING).update(**fields)


def job_run(job_id: int) -> bool:
    """Do the queued job once: True when its file is ready. Who: the task
    jobs.tasks.run_job (a duplicate or late delivery finds nothing to do)."""
    job = _take(job_id)
    if job is None:
        return False

    def progress(done: int, total: int) -> None:
        Job.objects.filter(pk=job.pk, state=Job.State.RUNNING).update(
            rows_done=done, rows_total=total, progress_at=timezone.now()
        )

    work = work_for(job.kind)
    try:
        if work is None:
            raise JobRefused("This kind of file can no longer be made.")
        with tempfile.TemporaryFile() as out:
            name = work.run(job, out, progress)
            out.seek(0)
            job.file.save(name, File(out), save=False)
    except Refused as exc:  # JobRefused, or a service the work called said no
        _finish(job, state=Job.State.FAILED, error=str(exc))
        return False
    except Exception:
        log.exception("job %s (%s) failed", job.pk, job.kind)
        _finish(job, state=Job.State.FAILED, error=FAILED_IN_GENERAL)
        return False
    _finish(job, state=Job.State.DONE, file=job.file.name, filename=name)
    if not Job.objects.filter(pk=job.pk, state=Job.State.DONE).exists():
        job.file.delete(save=False)  # the row went meanwhile: no orphan file
        return False
    return True


def job_sweep(*, now: dt.datetime | None = None, limit: int = 200) -> dict:
    """Hand over again the jobs the broker or a killed worker lost, and delete
    the jobs past their day with their files. Who: the periodic task sweep_jobs.
    Returns {"requeued": n, "deleted": n}."""
    now = now or timezone.now()
    cutoff = now - requeue_after()
    stalled = Job.objects.filter(state=Job.State.RUNNING, progress_at__lt=cutoff)
    stalled.update(state=Job.State.QUEUED, enqueued_at=None)
    lost = Q(enqueued_at__isnull=True, created_at__lt=cutoff) | Q(
        enqueued_at__lt=cutoff
    )
    ids = list(
        Job.objects.filter(lost, state=Job.State.QUEUED)
        .order_by("created_at", "pk")
        .values_list("pk", flat=True)[:limit]
    )
    requeued = 0
    for pk in ids:
        if not job_enqueue(pk):
            break
        requeued += 1
    deleted = 0
    for job in Job.objects.filter(
        expires_at__lt=now, state__in=[Job.State.DONE, Job.State.FAILED]
    )[:limit]:
        if job.file:
            job.file.delete(save=False)
        job.delete()
        deleted += 1
    return {"requeued": requeued, "deleted": deleted}


def jobs_of(user):
    """The staff member's jobs still kept (of the last day), newest first."""
    return Job.objects.filter(owner=user, expires_at__gte=timezone.now())
