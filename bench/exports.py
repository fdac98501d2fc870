"""The list exports at scale (issue 17): the unfiltered case list of the bench
data set (50,000 cases) exported as CSV and as XLSX through the real view
(django.test.Client, the whole middleware stack), the download read chunk by
chunk and dropped, as a browser would write it to disk.

Each format is measured twice: once for the time (nothing traced), once under
tracemalloc for the peak of Python memory during the export; beside it, how much
the process's maximum resident set (getrusage) grew over both downloads (a
process that held the rows would grow by their size).

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
    print("Exports (in-process):")
    results = measure_exports()
    print()
    print("\n".join(table_rows(results)))


if __name__ == "__main__":
    main()
