"""The staff member's background jobs: a job's page (its progress bar, then the
download), its JSON status for the page's script, the download, and "My
exports". Each job is its owner's alone: anyone else gets 403."""

import mimetypes

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import FileResponse, Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET

from . import registry, services
from .models import Job


def _own_job(request, pk: int) -> Job:
    job = get_object_or_404(Job, pk=pk)
    if job.owner_id != request.user.pk:
        raise PermissionDenied("This file was asked for by another staff member.")
    return job


def _unit(job: Job) -> tuple[str, str]:
    work = registry.work_for(job.kind)
    return (work.unit, work.done) if work else ("rows", "written")


def queue_and_show(
    request, *, kind: str, title: str, query: str = "", fmt: str = "", rows: int = 0
):
    """Queue a job of `kind` for the staff member (in this request's
    transaction, handed to the worker on commit) and send them to its page."""
    with transaction.atomic():
        job = services.job_queue(
            owner=request.user,
            kind=kind,
            title=title,
            fmt=fmt,
            query=query,
            base_url=request.build_absolute_uri("/").rstrip("/"),
            again_url=request.get_full_path(),
            rows_total=rows,
        )
    return redirect("jobs:detail", pk=job.pk)


def status_of(job: Job) -> dict:
    """What the page's script shows: the state, the rows, a sentence."""
    done = job.state == Job.State.DONE
    return {
        "state": job.state,
        "done": done,
        "failed": job.state == Job.State.FAILED,
        "rows_done": job.rows_done,
        "rows_total": job.rows_total,
        "percent": job.percent,
        "text": progress_text(job),
        "download": reverse("jobs:download", args=[job.pk]) if done else "",
    }


def progress_text(job: Job) -> str:
    if job.state == Job.State.QUEUED:
        return "Waiting for the worker to start."
    unit, done = _unit(job)
    if job.state == Job.State.RUNNING:
        return (
            f"{job.rows_done:,} of {job.rows_total:,} {unit} {done} ({job.percent}%)."
        )
    if job.state == Job.State.DONE:
        return f"Ready: {job.rows_total:,} {unit}."
    return job.error or services.FAILED_IN_GENERAL


@login_required
@require_GET
def job_detail(request, pk):
    job = _own_job(request, pk)
    return render(
        request,
        "jobs/detail.html",
        {"job": job, "text": progress_text(job), "State": Job.State},
    )


@login_required
@require_GET
def job_status(request, pk):
    response = JsonResponse(status_of(_own_job(request, pk)))
    response["Cache-Control"] = "private, no-store"
    return response


@login_required
@require_GET
def job_download(request, pk):
    job = _own_job(request, pk)
    if job.state != Job.State.DONE or not job.file:
        raise Http404("This file is not ready, or it was deleted after a day.")
    work = registry.work_for(job.kind)
    if work is None or not work.may_read(request.user, job):
        raise PermissionDenied("Your role no longer gives access to this file.")
    try:
        handle = job.file.open("rb")
    except FileNotFoundError as exc:
        raise Http404("This file was deleted after a day.") from exc
    # A text file says its encoding (a CSV export is UTF-8 with a byte-order mark).
    kind, _ = mimetypes.guess_type(job.filename)
    if kind and kind.startswith("text/"):
        kind += "; charset=utf-8"
    response = FileResponse(
        handle, as_attachment=True, filename=job.filename, content_type=kind
    )
    response["Cache-Control"] = "private, no-store"
    response["X-Content-Type-Options"] = "nosniff"
    return response


@login_required
@require_GET
def job_list(request):
    return render(
        request, "jobs/list.html", {"jobs": services.jobs_of(request.user)[:100]}
    )
