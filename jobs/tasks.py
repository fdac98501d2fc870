"""Celery tasks of the jobs app: thin wrappers taking ids (the design is in
jobs/services.py). Idempotent, acks_late: a redelivered task finds the job
taken or done and does nothing."""

from celery import shared_task

from . import services


@shared_task(name="jobs.tasks.run_job", acks_late=True, ignore_result=True)
def run_job(job_id: int):
    """Write one queued job's file, reporting its progress on the row."""
    return services.job_run(job_id)


@shared_task(name="jobs.tasks.sweep_jobs", acks_late=True, ignore_result=True)
def sweep_jobs():
    """Periodic (beat): hand over lost jobs again; delete those past their day."""
    return services.job_sweep()
