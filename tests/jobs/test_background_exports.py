"""Issue 29: an export of more than EXPORT_BACKGROUND_ROWS rows is a background
job. The job row is written in the request's transaction and handed to the
broker on commit; with the broker down nothing is lost (the sweep hands it over
later). The worker writes the same file as the immediate export would, shows
its progress, and only the staff member who asked may download it, for a day."""

import codecs
import csv
import datetime as dt
import io
from pathlib import Path

import openpyxl
import pytest
from django.contrib.auth.models import Group
from django.urls import reverse
from django.utils import timezone

from cases.models import CaseKind
from cases.services import case_open
from jobs import registry, services
from jobs.models import Job
from kernel.roles import Role
from tests.conftest import make_user

from ..exports.helpers import HOSTILE, body

pytestmark = pytest.mark.django_db


def _cases(actor, n, kind=CaseKind.ILLICIT_DISCHARGE):
    texts = [*HOSTILE, *(f"Sheen at outfall {i}" for i in range(n))][:n]
    return [case_open(actor=actor, source="phone", summary=t, kind=kind) for t in texts]


def _export(client, fmt, query=""):
    url = reverse(f"cases:export_{fmt}") + (f"?{query}" if query else "")
    return client.get(url)


def _job_file(job) -> bytes:
    job.refresh_from_db()
    with job.file.open("rb") as handle:
        return handle.read()


def test_a_large_export_is_a_job_handed_to_the_broker_on_commit(
    smo_client, smo_user, handed, django_capture_on_commit_callbacks
):
    _cases(smo_user, 3)
    with django_capture_on_commit_callbacks(execute=True):
        response = _export(smo_client, "xlsx", "kind=illicit_discharge&page=2")
    job = Job.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("jobs:detail", args=[job.pk])
    assert handed == [job.pk]
    assert job.owner == smo_user
    assert job.state == Job.State.QUEUED
    assert job.rows_total == 3
    assert job.query == "kind=illicit_discharge"  # the list's filter, not its page
    page = smo_client.get(response["Location"])
    assert page.status_code == 200
    assert "Waiting for the worker to start." in page.text
    assert 'progress id="job-bar"' in page.text
    assert "js/job-progress.js" in page.text


def test_asking_twice_while_it_waits_gives_the_same_job(smo_client, smo_user, handed):
    _cases(smo_user, 3)
    first = _export(smo_client, "csv")
    second = _export(smo_client, "csv")
    assert first["Location"] == second["Location"]
    assert Job.objects.count() == 1


def test_small_exports_stay_immediate(smo_client, smo_user, handed):
    _cases(smo_user, 2)  # the threshold: not more than it
    response = _export(smo_client, "csv")
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith("attachment;")
    assert not Job.objects.exists()


def test_with_the_broker_down_the_job_waits_and_the_sweep_hands_it_over(
    smo_client, smo_user, monkeypatch, django_capture_on_commit_callbacks
):
    from kombu.exceptions import OperationalError

    from jobs import tasks

    def refuse(*args, **kwargs):
        raise OperationalError("Error 111 connecting to broker: Connection refused")

    _cases(smo_user, 3)
    monkeypatch.setattr(tasks.run_job, "apply_async", refuse)
    with django_capture_on_commit_callbacks(execute=True):
        response = _export(smo_client, "csv")
    assert response.status_code == 302  # the staff member sees the job's page
    job = Job.objects.get()
    assert job.state == Job.State.QUEUED and job.enqueued_at is None

    handed = []
    monkeypatch.setattr(
        tasks.run_job, "apply_async", lambda args, **kw: handed.append(args[0])
    )
    assert services.job_sweep()["requeued"] == 0  # not stale yet
    later = timezone.now() + dt.timedelta(minutes=6)
    assert services.job_sweep(now=later)["requeued"] == 1
    assert handed == [job.pk]
    job.refresh_from_db()
    assert job.enqueued_at is not None


def test_the_worker_writes_the_same_csv_as_the_immediate_export(
    smo_client, smo_user, settings, handed
):
    _cases(smo_user, 9)
    _cases(smo_user, 2, kind=CaseKind.SPILL)
    query = "kind=illicit_discharge"
    settings.EXPORT_BACKGROUND_ROWS = 5000
    immediate = body(_export(smo_client, "csv", query))
    settings.EXPORT_BACKGROUND_ROWS = 2
    response = _export(smo_client, "csv", query)
    job = Job.objects.get()

    assert services.job_run(job.pk) is True
    assert _job_file(job) == immediate
    assert immediate.startswith(codecs.BOM_UTF8)
    rows = list(csv.reader(io.StringIO(immediate.decode("utf-8-sig"))))
    assert len(rows) == 1 + 9
    assert "'" + HOSTILE[0] in {r[2] for r in rows}

    download = smo_client.get(reverse("jobs:download", args=[job.pk]))
    assert download.status_code == 200
    assert download["Content-Type"] == "text/csv; charset=utf-8"
    assert download["Content-Disposition"].startswith('attachment; filename="cases-')
    assert b"".join(download.streaming_content) == immediate
    status = smo_client.get(reverse("jobs:status", args=[job.pk])).json()
    assert status["done"] and status["percent"] == 100
    assert status["rows_done"] == status["rows_total"] == 9
    assert status["download"] == reverse("jobs:download", args=[job.pk])
    assert response.status_code == 302


def test_the_worker_writes_the_xlsx_rows_of_the_immediate_export(
    smo_client, smo_user, settings, handed
):
    _cases(smo_user, 4)
    settings.EXPORT_BACKGROUND_ROWS = 5000
    immediate = openpyxl.load_workbook(io.BytesIO(body(_export(smo_client, "xlsx"))))
    settings.EXPORT_BACKGROUND_ROWS = 2
    _export(smo_client, "xlsx")
    job = Job.objects.get()
    services.job_run(job.pk)
    made = openpyxl.load_workbook(io.BytesIO(_job_file(job)))

    def values(book):
        return [[c.value for c in row] for row in book.worksheets[0].iter_rows()]

    assert values(made) == values(immediate)
    assert len(values(made)) == 1 + 4
    assert job.filename.endswith(".xlsx")


def test_the_page_sees_the_progress_while_the_worker_writes(
    smo_client, smo_user, monkeypatch
):
    seen = []

    def run(job, out, progress):
        progress(0, 5)
        seen.append(smo_client.get(reverse("jobs:status", args=[job.pk])).json())
        progress(2, 5)
        seen.append(smo_client.get(reverse("jobs:status", args=[job.pk])).json())
        out.write(b"five rows")
        progress(5, 5)
        return "steps.txt"

    registry.register(registry.Work(name="test:steps", run=run))
    from django.db import transaction

    with transaction.atomic():
        job = services.job_queue(owner=smo_user, kind="test:steps", title="Steps")
    assert services.job_run(job.pk) is True

    assert [(s["state"], s["rows_done"], s["percent"]) for s in seen] == [
        ("running", 0, 0),
        ("running", 2, 40),
    ]
    assert seen[1]["text"] == "2 of 5 rows written (40%)."
    assert not seen[1]["done"] and not seen[1]["download"]
    page = smo_client.get(reverse("jobs:detail", args=[job.pk]))
    assert "Ready: 5 rows." in page.text
    assert "Download steps.txt" in page.text
    assert services.job_run(job.pk) is False  # a second delivery does nothing


def test_the_progress_is_counted_per_chunk(smo_client, smo_user, monkeypatch):
    from jobs import exports

    monkeypatch.setattr(exports, "CHUNK_SIZE", 2)
    _cases(smo_user, 5)
    _export(smo_client, "csv")
    job = Job.objects.get()
    cases_work = registry.work_for("export:cases")
    reported = []

    def recorded(job, out, progress):
        def both(done, total):
            reported.append((done, total))
            progress(done, total)

        return cases_work.run(job, out, both)

    registry.register(registry.Work(name="test:recorded", run=recorded))
    Job.objects.filter(pk=job.pk).update(kind="test:recorded")
    services.job_run(job.pk)
    job.refresh_from_db()
    assert reported == [(0, 5), (2, 5), (4, 5), (5, 5)]
    assert (job.rows_done, job.rows_total, job.percent) == (5, 5, 100)


def test_only_the_staff_member_who_asked_may_see_and_download(
    client, smo_client, smo_user, handed
):
    _cases(smo_user, 3)
    _export(smo_client, "csv")
    job = Job.objects.get()
    services.job_run(job.pk)
    other = make_user("other-smo", Role.SMO)
    client.force_login(other)
    for name in ("jobs:detail", "jobs:status", "jobs:download"):
        assert client.get(reverse(name, args=[job.pk])).status_code == 403, name
    assert job.title not in client.get(reverse("jobs:list")).text
    client.logout()
    anonymous = client.get(reverse("jobs:download", args=[job.pk]))
    assert anonymous.status_code == 302  # to the sign-in


def test_my_exports_lists_the_files_of_the_day(smo_client, smo_user, handed):
    _cases(smo_user, 3)
    _export(smo_client, "csv")
    job = Job.objects.get()
    services.job_run(job.pk)
    page = smo_client.get(reverse("jobs:list"))
    assert job.title in page.text
    assert reverse("jobs:download", args=[job.pk]) in page.text
    assert "My exports" in smo_client.get(reverse("cases:list")).text


def test_the_worker_checks_again_that_the_user_may_see_the_list(
    smo_client, smo_user, handed
):
    _cases(smo_user, 3)
    _export(smo_client, "csv")
    job = Job.objects.get()
    smo_user.groups.clear()
    assert services.job_run(job.pk) is False
    job.refresh_from_db()
    assert job.state == Job.State.FAILED and not job.file
    smo_user.groups.add(Group.objects.get(name=Role.SMO.value))
    page = smo_client.get(reverse("jobs:detail", args=[job.pk]))
    assert "Your role no longer gives access to this list" in page.text
    assert "Try again" in page.text
    again = reverse("cases:export_csv")
    assert f'href="{again}"' in page.text
    assert smo_client.get(reverse("jobs:download", args=[job.pk])).status_code == 404


def test_a_file_made_before_the_role_was_taken_away_is_not_downloaded(
    smo_client, smo_user, handed
):
    _cases(smo_user, 3)
    _export(smo_client, "csv")
    job = Job.objects.get()
    assert services.job_run(job.pk) is True
    download = reverse("jobs:download", args=[job.pk])
    smo_user.groups.clear()
    assert smo_client.get(download).status_code == 403
    smo_user.groups.add(Group.objects.get(name=Role.SMO.value))
    assert smo_client.get(download).status_code == 200


def test_the_administrator_sees_the_jobs_and_may_only_delete_them(
    client, smo_client, smo_user, handed
):
    _cases(smo_user, 3)
    _export(smo_client, "csv")
    job = Job.objects.get()
    services.job_run(job.pk)
    job.refresh_from_db()
    stored = Path(job.file.path)
    assert stored.exists()
    client.force_login(make_user("admin", is_superuser=True, is_staff=True))
    listing = client.get(reverse("admin:jobs_job_changelist"))
    assert listing.status_code == 200
    assert job.title in listing.text
    assert client.get(reverse("admin:jobs_job_add")).status_code == 403
    page = client.get(reverse("admin:jobs_job_change", args=[job.pk]))
    assert page.status_code == 200 and 'name="title"' not in page.text
    client.post(reverse("admin:jobs_job_delete", args=[job.pk]), {"post": "yes"})
    assert not Job.objects.exists()
    assert not stored.exists()


def test_the_sweep_deletes_the_file_after_a_day(smo_client, smo_user, handed):
    _cases(smo_user, 3)
    _export(smo_client, "csv")
    job = Job.objects.get()
    services.job_run(job.pk)
    job.refresh_from_db()
    path = Path(job.file.path)
    assert path.exists()
    assert services.job_sweep()["deleted"] == 0  # kept for the day
    tomorrow = timezone.now() + dt.timedelta(hours=24, minutes=1)
    assert services.job_sweep(now=tomorrow)["deleted"] == 1
    assert not path.exists()
    assert not Job.objects.exists()
    assert smo_client.get(reverse("jobs:download", args=[job.pk])).status_code == 404


def test_a_job_whose_worker_was_killed_is_handed_over_again(smo_user, handed):
    def run(job, out, progress):
        out.write(b"x")
        return "x.txt"

    registry.register(registry.Work(name="test:killed", run=run))
    from django.db import transaction

    with transaction.atomic():
        job = services.job_queue(owner=smo_user, kind="test:killed", title="Killed")
    Job.objects.filter(pk=job.pk).update(
        state=Job.State.RUNNING, progress_at=timezone.now()
    )
    later = timezone.now() + dt.timedelta(minutes=6)
    assert services.job_sweep(now=later)["requeued"] == 1
    job.refresh_from_db()
    assert job.state == Job.State.QUEUED
    assert services.job_run(job.pk) is True


def test_a_job_whose_work_a_service_refuses_fails_with_the_refusals_words(
    smo_user, monkeypatch
):
    """The worker's refusal is the one refusal (kernel.workflow.Refused, issue 30):
    a service the work calls may say no, and the staff member reads why on the
    job's page instead of the general failure."""
    from kernel.workflow import Refused

    def run(job, out, progress):
        raise Refused.invalid("The notice was withdrawn after you asked for it.")

    monkeypatch.setitem(
        registry._WORKS, "refused-work", registry.Work(name="refused-work", run=run)
    )
    job = Job.objects.create(
        owner=smo_user,
        kind="refused-work",
        title="Packet",
        expires_at=timezone.now() + dt.timedelta(days=1),
    )
    assert services.job_run(job.pk) is False
    job.refresh_from_db()
    assert job.state == Job.State.FAILED and not job.file
    assert job.error == "The notice was withdrawn after you asked for it."
