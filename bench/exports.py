"""The list exports at scale (issue 17): the unfiltered case list of the bench
data set (50,000 cases) exported as CSV and as XLSX through the real view
(django.test.Client, the whole middleware stack), the download read chunk by
chunk and dropped, as a browser would write it to disk.

Each format is measured twice: once for the time (nothing traced), once under
tracemalloc for the peak of Python memory during the export; beside it, how much
the process's maximum resident set (getrusage) grew over both downloads (a
process that held the rows would grow by their size).

The same export as a background job (issue 29): the request that queues it
(a redirect to the job's page), the worker's task run in a thread of this
process as the Celery worker would run it, and the job's status polled as the
page's script does: the time to the first progress update the page sees, the
time to the finished file, and the peak of Python memory of the task.

    python bench/exports.py        # seeds the bench database first if needed
"""

import os
import resource
import sys
import time
import tracemalloc
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "poquott_ms4.settings.bench")

EXPORT_ROWS_TARGET = 50_000
PEAK_TARGET_MB = 50.0
FEW_KIND = "illicit_connection"  # about a tenth of the seeded cases
FEW_QUERY = (
    f"kind={FEW_KIND}"  # "constant memory": far below what 50,000 rows held would take
)


@dataclass
class ExportResult:
    fmt: str
    rows: int
    bytes: int
    seconds: float
    peak_mb: float
    rss_growth_mb: float
    status: int
    few_rows: int = 0
    few_peak_mb: float = 0.0


def _maxrss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def _peak_mb(client, url) -> float:
    tracemalloc.start()
    _download(client, url)
    _current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak / 1024 / 1024


def _download(client, url) -> tuple[int, int, int]:
    """(status, bytes, lines) of the export, read as it streams."""
    response = client.get(url)
    size = lines = 0
    for chunk in response.streaming_content:
        size += len(chunk)
        lines += chunk.count(b"\n")
    response.close()  # the request_finished signal, as a server sends it
    return response.status_code, size, lines


def measure_exports() -> list[ExportResult]:
    """The exports written in the request (the threshold of issue 29 lifted)."""
    from django.test import override_settings

    with override_settings(EXPORT_BACKGROUND_ROWS=10**9):
        return _measure_exports()


def _measure_exports() -> list[ExportResult]:
    from django.contrib.auth.models import User
    from django.test import Client
    from django.urls import reverse

    from cases.models import Case

    client = Client()
    client.force_login(User.objects.get(username="smo"))
    rows = Case.objects.count()
    few_rows = Case.objects.filter(kind=FEW_KIND).count()
    out = []
    for fmt in ("csv", "xlsx"):
        url = reverse(f"cases:export_{fmt}")
        _download(client, url + "?q=MS4-2025-0001")  # warm: imports, caches
        rss_before = _maxrss_mb()
        start = time.perf_counter()
        status, size, _lines = _download(client, url)
        seconds = time.perf_counter() - start
        peak_mb = _peak_mb(client, url)
        # Constant memory: a tenth of the rows peaks as high as all of them.
        few_peak_mb = _peak_mb(client, url + f"?{FEW_QUERY}")
        out.append(
            ExportResult(
                fmt=fmt.upper(),
                rows=rows,
                bytes=size,
                seconds=seconds,
                peak_mb=peak_mb,
                rss_growth_mb=_maxrss_mb() - rss_before,
                status=status,
                few_rows=few_rows,
                few_peak_mb=few_peak_mb,
            )
        )
        r = out[-1]
        print(
            f"  {r.fmt}: {r.rows:,} rows, {r.bytes / 1024 / 1024:.1f} MB in "
            f"{r.seconds:.1f} s; peak Python memory {r.peak_mb:.1f} MB, "
            f"max RSS +{r.rss_growth_mb:.1f} MB; {r.few_rows:,} rows (filtered) "
            f"peak {r.few_peak_mb:.1f} MB; status {r.status}"
        )
    return out


@dataclass
class JobResult:
    rows: int
    bytes: int
    request_seconds: float  # the request that queues the job
    first_progress_seconds: float  # until the page's status first shows rows done
    seconds: float  # until the file is ready
    peak_mb: float
    state: str


def _run_job_timed(client, url) -> tuple[int, float, float, float, str]:
    """(job id, request s, first progress s, done s, state): the job queued
    through the view, the task run in a thread, its status polled every 50 ms."""
    import threading

    from django.db import connection

    from jobs import services
    from jobs.models import Job

    start = time.perf_counter()
    response = client.get(url)
    request_s = time.perf_counter() - start
    assert response.status_code == 302, response.status_code
    job = Job.objects.order_by("-pk").first()
    status_url = response["Location"] + "status.json"

    def work():
        try:
            services.job_run(job.pk)
        finally:
            connection.close()

    thread = threading.Thread(target=work)
    first = None
    thread.start()
    while True:
        status = client.get(status_url).json()
        now = time.perf_counter() - start
        if first is None and status["rows_done"] > 0:
            first = now
        if status["done"] or status["failed"]:
            break
        time.sleep(0.05)
    thread.join()
    done = time.perf_counter() - start
    return job.pk, request_s, first or done, done, status["state"]


def measure_export_job() -> JobResult:
    """The unfiltered case list's XLSX export as a background job."""
    from django.contrib.auth.models import User
    from django.test import Client
    from django.urls import reverse

    from jobs import services
    from jobs.models import Job

    client = Client()
    client.force_login(User.objects.get(username="smo"))
    url = reverse("cases:export_xlsx")
    job_id, request_s, first_s, done_s, state = _run_job_timed(client, url)
    job = Job.objects.get(pk=job_id)
    size = job.file.size if job.file else 0
    rows = job.rows_total
    # The peak of the task alone, run again on a fresh job (nothing else traced).
    again = client.get(url)
    assert again.status_code == 302
    second = Job.objects.order_by("-pk").first()
    tracemalloc.start()
    services.job_run(second.pk)
    _current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    for made in Job.objects.filter(pk__in=[job_id, second.pk]):
        if made.file:
            made.file.delete(save=False)
        made.delete()
    result = JobResult(
        rows=rows,
        bytes=size,
        request_seconds=request_s,
        first_progress_seconds=first_s,
        seconds=done_s,
        peak_mb=peak / 1024 / 1024,
        state=state,
    )
    print(
        f"  XLSX as a job: {rows:,} rows, {size / 1024 / 1024:.1f} MB; queued in "
        f"{request_s * 1000:.0f} ms, first progress after {first_s:.1f} s, file "
        f"ready after {done_s:.1f} s; peak Python memory {result.peak_mb:.1f} MB; "
        f"{state}"
    )
    return result


def job_table_rows(r: JobResult, cpu_ms: float | None = None) -> list[str]:
    """The job's row; `cpu_ms`, the CPU check measured before it, beside it."""
    check = f" {cpu_ms:.0f} ms |" if cpu_ms is not None else " |"
    ok = (
        r.state == "done"
        and r.rows >= EXPORT_ROWS_TARGET
        and r.peak_mb <= PEAK_TARGET_MB
    )
    return [
        "| Export as a background job (case list, XLSX) | Rows | Size | Request "
        "(queues it) | First progress update | File ready | Peak Python memory "
        "(tracemalloc) | Target | Met | CPU check |",
        "|---|---:|---:|---:|---:|---:|---:|---|---|---:|",
        f"| XLSX | {r.rows:,} | {r.bytes / 1024 / 1024:.1f} MB | "
        f"{r.request_seconds * 1000:.0f} ms | {r.first_progress_seconds:.1f} s | "
        f"{r.seconds:.1f} s | {r.peak_mb:.1f} MB | peak ≤ {PEAK_TARGET_MB:.0f} MB, "
        f"done | {'yes' if ok else 'NO'} |" + check,
    ]


def table_rows(results: list[ExportResult], cpu_ms: float | None = None) -> list[str]:
    """The exports' rows; `cpu_ms`, the CPU check measured before them, beside
    each."""
    check = f" {cpu_ms:.0f} ms |" if cpu_ms is not None else " |"
    rows = [
        "| Export (case list, unfiltered) | Rows | Size | Time | Peak Python memory "
        "(tracemalloc) | Peak, filtered to fewer rows | Max RSS growth | Target "
        "| Met | CPU check |",
        "|---|---:|---:|---:|---:|---:|---:|---|---|---:|",
    ]
    for r in results:
        ok = (
            r.status == 200
            and r.rows >= EXPORT_ROWS_TARGET
            and r.peak_mb <= PEAK_TARGET_MB
        )
        rows.append(
            f"| {r.fmt} | {r.rows:,} | {r.bytes / 1024 / 1024:.1f} MB | "
            f"{r.seconds:.1f} s | {r.peak_mb:.1f} MB | {r.few_peak_mb:.1f} MB "
            f"({r.few_rows:,} rows) | {r.rss_growth_mb:.1f} MB | "
            f"streams, peak ≤ {PEAK_TARGET_MB:.0f} MB | {'yes' if ok else 'NO'} |"
            + check
        )
    return rows


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    from django.db import connection

    import poquott_ms4.wsgi  # noqa: F401  (the application as the server loads it)

    if connection.vendor != "postgresql":
        sys.exit("bench needs PostgreSQL: set DATABASE_URL=postgres://...")
    from bench.seed import ensure_seeded

    ensure_seeded(reseed="--reseed" in argv)
    from bench.harness import calibration_ms

    print(f"CPU check: {calibration_ms():.0f} ms (bench/run.py's header explains it)")
    only_job = "--job-only" in argv
    results = []
    if not only_job:
        print("Exports (in-process):")
        results = measure_exports()
    job = measure_export_job()
    print()
    lines = [*table_rows(results), ""] if results else []
    print("\n".join([*lines, *job_table_rows(job)]))


if __name__ == "__main__":
    main()
