"""`make bench`: seed (once) 100 villages' yearly volume on PostgreSQL, then measure
the pages, the load of the two public POSTs, the reminder sweep, a notice's
rendering, each beside its floor, and the case list's CSV and XLSX exports
(bench/exports.py: time and peak memory of 50,000 rows). Prints a table and
writes bench/results/latest.md.

    python bench/run.py [--reseed] [--seconds N] [--annual-only | --pages-only]
"""

import datetime as dt
import math
import os
import platform
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "poquott_ms4.settings.bench")
RESULTS = ROOT / "bench" / "results" / "latest.md"
PAGE_P95_TARGET_MS = 50.0
SWEEP_TARGET_S = 2.0
NOTICE_TARGET_RATIO = 2.0
ANNUAL_TARGET_S = 2.0


def machine() -> dict:
    cpu = platform.processor() or "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = "unknown"
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal"):
                mem = f"{int(line.split()[1]) / 1024 / 1024:.1f} GiB"
    except OSError:
        pass
    return {"nproc": os.cpu_count(), "memory": mem, "cpu": cpu}


def versions() -> dict:
    import django
    import weasyprint
    from django.db import connection

    with connection.cursor() as cur:
        cur.execute("SHOW server_version")
        pg = cur.fetchone()[0]
    return {
        "Python": platform.python_version(),
        "Django": django.get_version(),
        "PostgreSQL": pg,
        "WeasyPrint": weasyprint.__version__,
    }


# --- pages ------------------------------------------------------------------------
def _pages(as_smo, as_clerk, anon, long_case, code) -> list[tuple]:
    """(name, client, url, whose floor) of every page measured."""
    from enforcement.models import Appeal
    from ledger.models import Charge

    return [
        ("Staff dashboard (smo)", as_smo, "/staff/", "smo"),
        ("Case list, unfiltered", as_smo, "/staff/cases/", "smo"),
        (
            "Case list, filtered (open, kind, text)",
            as_smo,
            "/staff/cases/?status=open&kind=illicit_discharge&q=Harbor",
            "smo",
        ),
        (
            "Case list, page 200",
            as_smo,
            "/staff/cases/?page=200",
            "smo",
        ),
        (
            f"Case page, {long_case.events.count()} events",
            as_smo,
            f"/staff/cases/{long_case.number}/",
            "smo",
        ),
        (
            f"Clerk's appeal list ({Appeal.objects.exclude(status__in=['closed', 'withdrawn']).count()} active)",
            as_clerk,
            "/enforcement/appeals/",
            "clerk",
        ),
        (
            f"Ledger, 25 of {Charge.objects.count():,} charges with their totals",
            as_smo,
            "/staff/ledger/",
            "smo",
        ),
        ("Public status page", anon, f"/status/?code={code}", "anon"),
        (
            "Open311 GET requests.json (90 days, ≤1000)",
            anon,
            "/open311/v2/requests.json",
            "anon",
        ),
    ]


def measure_pages(n: int):
    from django.contrib.auth.models import User
    from django.test import Client

    from bench.harness import measure_page, measure_pages_round_robin, serve
    from cases.models import Case
    from intake.models import Report
    from poquott_ms4.wsgi import WARM_UP_REQUESTS

    smo = User.objects.get(username="smo")
    clerk = User.objects.get(username="clerk")
    as_smo, as_clerk, anon = Client(), Client(), Client()
    as_smo.force_login(smo)
    as_clerk.force_login(clerk)
    from bench.seed import LONG_CASE_ID

    long_case = Case.objects.get(pk=LONG_CASE_ID)
    code = Report.objects.filter(case=long_case).values_list(
        "tracking_code", flat=True
    )[0]
    floors = {}
    pages = _pages(as_smo, as_clerk, anon, long_case, code)
    # Measured as a worker that has served a while: its first requests were
    # these pages, after which it froze what they built (poquott_ms4.wsgi).
    for _ in range(math.ceil(WARM_UP_REQUESTS / len(pages))):
        for _name, client, url, _who in pages:
            serve(client, url)
    for label, client in (("smo", as_smo), ("clerk", as_clerk), ("anon", anon)):
        floors[label] = measure_page("floor", client, "/__bench__/bare", 0, n=n)
    results = measure_pages_round_robin(
        [
            (name, client, url, floors[who].median_ms)
            for name, client, url, who in pages
        ],
        n=n,
    )
    for r, (_name, _client, url, _who) in zip(results, pages, strict=True):
        r.url = url
        print(
            f"  {r.name}: median {r.median_ms:.1f} ms, p95 {r.p95_ms:.1f} ms, "
            f"{r.queries} queries{' (VARY)' if r.queries_vary else ''}, "
            f"status {r.status}"
        )
    return results, floors


# --- the sweep -----------------------------------------------------------------------
def measure_sweep(runs: int = 3):
    """The daily sweep on the day after the seeded one (new reminders come due),
    inside a transaction rolled back each time so every run sees the same rows."""
    from django.db import connection, transaction
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone

    from deadlines.models import Deadline
    from deadlines.reminders import sweep_reminders

    today = timezone.localdate()
    timings, queries, created = [], set(), 0
    for _ in range(runs):
        with transaction.atomic():
            with CaptureQueriesContext(connection) as ctx:
                start = time.perf_counter()
                out = sweep_reminders(today=today)
                timings.append(time.perf_counter() - start)
            queries.add(len(ctx.captured_queries))
            created = out["created"]
            transaction.set_rollback(True)
    # Queries with nothing new to create: the same day swept twice.
    with transaction.atomic():
        sweep_reminders(today=today)
        with CaptureQueriesContext(connection) as ctx:
            start = time.perf_counter()
            sweep_reminders(today=today)
            idle_s = time.perf_counter() - start
        idle_q = len(ctx.captured_queries)
        transaction.set_rollback(True)
    return {
        "rows": Deadline.objects.count(),
        "open": Deadline.objects.filter(status="open").count(),
        "median_s": statistics.median(timings),
        "queries": max(queries),
        "created": created,
        "idle_s": idle_s,
        "idle_queries": idle_q,
    }


# --- documents -----------------------------------------------------------------------
def measure_notice(runs: int = 7):
    from weasyprint import HTML

    from documents.render import BASE_URL, StaticOnlyFetcher, render
    from enforcement.documents.notice import sample_notice_of_violation

    facts = sample_notice_of_violation()
    kind = type(facts).kind
    rendered = render(kind, facts)  # warm: templates, fonts
    notice = []
    for _ in range(runs):
        start = time.perf_counter()
        render(kind, facts)
        notice.append((time.perf_counter() - start) * 1000)
    # The same notice's HTML through WeasyPrint alone (plain PDF, its default
    # font configuration): what our code adds on top of WeasyPrint's own work.
    alone = []
    for _ in range(runs):
        start = time.perf_counter()
        HTML(
            string=rendered.html, base_url=BASE_URL, url_fetcher=StaticOnlyFetcher()
        ).write_pdf()
        alone.append((time.perf_counter() - start) * 1000)
    pages = len(
        HTML(string=rendered.html, base_url=BASE_URL, url_fetcher=StaticOnlyFetcher())
        .render()
        .pages
    )
    para = "<html><body><p>Notice: one paragraph of plain text.</p></body></html>"
    HTML(string=para).write_pdf()
    floor = []
    for _ in range(runs):
        start = time.perf_counter()
        HTML(string=para).write_pdf()
        floor.append((time.perf_counter() - start) * 1000)
    return {
        "median_ms": statistics.median(notice),
        "floor_ms": statistics.median(floor),
        "alone_ms": statistics.median(alone),
        "pages": pages,
    }


# --- load --------------------------------------------------------------------------
# --- the annual report (issue 17) ----------------------------------------------------
def measure_annual(runs: int = 5):
    """The staff page of the annual report for the seeded data set's reporting
    year (every count computed from the records, the charts drawn), and the
    counts alone, as the SMO sees them."""
    from django.contrib.auth.models import User
    from django.db import connection
    from django.db.models import Max
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from intake.models import Report
    from reporting.annual.selectors import annual_counts
    from reporting.annual.year import ReportingYear

    latest = Report.objects.aggregate(last=Max("received_at"))["last"]
    year = min(
        ReportingYear.containing(latest) if latest else ReportingYear.current(),
        ReportingYear.current(),
    )
    client = Client()
    client.force_login(User.objects.get(username="smo"))
    url = f"/staff/annual/{year}/"
    assert client.get(url).status_code == 200  # warm
    page, counts = [], []
    for _ in range(runs):
        start = time.perf_counter()
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url)
        page.append(time.perf_counter() - start)
        assert response.status_code == 200, response.status_code
        start = time.perf_counter()
        computed = annual_counts(year)
        counts.append(time.perf_counter() - start)
    return {
        "year": str(year),
        "url": url,
        "median_s": statistics.median(page),
        "max_s": max(page),
        "counts_s": statistics.median(counts),
        "queries": len(queries),
        "records": sum(len(c.ids) for c in computed.counts),
    }


def annual_row(annual) -> str:
    return (
        f"| Annual report page, reporting year {annual['year']} "
        f"({annual['records']:,} records behind its counts; counts alone "
        f"{annual['counts_s'] * 1000:.0f} ms) | {annual['median_s'] * 1000:.0f} ms | "
        f"{annual['max_s'] * 1000:.0f} ms (max) | {annual['queries']} | | | < 2 s | "
        f"{'yes' if annual['max_s'] < ANNUAL_TARGET_S else 'NO'} |"
    )


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_for(port, proc, timeout=30.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise RuntimeError("gunicorn exited; see its output above")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError("gunicorn did not start")


def warm(port):
    """Every worker answers a few requests before the clock starts (lazy imports,
    template loading, first connections)."""
    import http.client

    for _ in range(40):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        for path in ("/report/", "/open311/v2/services.json", "/healthz"):
            conn.request("GET", path)
            conn.getresponse().read()
        conn.close()


def measure_load(seconds: float, threads: int):
    from django.db import connections

    from bench.load import open311_load, report_form_load
    from bench.seed import API_KEY
    from intake.models import PollutantCategory, Report

    workers = 2 * (os.cpu_count() or 1) + 1
    port = _free_port()
    gunicorn = Path(sys.executable).with_name("gunicorn")
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "poquott_ms4.settings.bench"}
    proc = subprocess.Popen(
        [
            str(gunicorn),
            "poquott_ms4.wsgi",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            str(workers),
            "--timeout",
            "30",
            "--preload",
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env,
    )
    service_code = PollutantCategory.objects.filter(active=True).first().code
    try:
        _wait_for(port, proc)
        out = []
        for _label, fn, channel in (
            (
                "report",
                lambda: report_form_load("127.0.0.1", port, seconds, threads),
                Report.Channel.WEB,
            ),
            (
                "open311",
                lambda: open311_load(
                    "127.0.0.1", port, seconds, threads, API_KEY, service_code
                ),
                Report.Channel.OPEN311,
            ),
        ):
            warm(port)
            before = Report.objects.filter(channel=channel).count()
            result = fn()
            connections.close_all()
            after = Report.objects.filter(channel=channel).count()
            result.stored = after - before
            result.lost = result.ok - result.stored
            result.workers = workers
            result.threads = threads
            out.append(result)
            p = sorted(result.latencies_ms)
            p95 = p[int(0.95 * (len(p) - 1))] if p else 0
            result.p95_ms = p95
            print(
                f"  {result.name}: {result.rps:.0f} req/s ({result.ok} ok, "
                f"{result.failed} failed {result.errors or ''}), p95 {p95:.0f} ms, "
                f"stored {result.stored}, lost {result.lost}"
            )
        return out
    finally:
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        from bench.seed import remove_load_reports

        print(f"  removed the {remove_load_reports():,} rows the load test stored")


# --- report ------------------------------------------------------------------------
def table(pages, sweep, notice, loads, annual=None, cpu=None) -> list[str]:
    """The results; `cpu` holds the CPU check (ms) measured just before each
    group of figures (pages, sweep, notice, annual, load), printed beside them."""
    cpu = cpu or {}

    def check(group: str) -> str:
        return f" {cpu[group]:.0f} ms |" if group in cpu else " |"

    rows = [
        "| Measure | Median | p95 | Queries | Floor (median) | Ratio | Target | Met "
        "| CPU check |",
        "|---|---:|---:|---:|---:|---:|---|---|---:|",
    ]
    for r in pages:
        q = f"{r.queries}" + (" (varies)" if r.queries_vary else " (constant)")
        ok = r.p95_ms <= PAGE_P95_TARGET_MS and not r.queries_vary and r.status == 200
        rows.append(
            f"| {r.name} | {r.median_ms:.1f} ms | {r.p95_ms:.1f} ms | {q} | "
            f"{r.floor_median_ms:.2f} ms | {r.ratio:.0f}× | p95 ≤ 50 ms, constant "
            f"queries | {'yes' if ok else 'NO'} |" + check("pages")
        )
    rows.append(
        f"| Reminder sweep over {sweep['rows']:,} deadlines ({sweep['open']:,} open; "
        f"{sweep['created']} reminders made) | {sweep['median_s'] * 1000:.0f} ms | | "
        f"{sweep['queries']} | | | < 2 s | "
        f"{'yes' if sweep['median_s'] < SWEEP_TARGET_S else 'NO'} |" + check("sweep")
    )
    rows.append(
        f"| Reminder sweep, nothing new to send | {sweep['idle_s'] * 1000:.0f} ms | | "
        f"{sweep['idle_queries']} | | | < 2 s | "
        f"{'yes' if sweep['idle_s'] < SWEEP_TARGET_S else 'NO'} |" + check("sweep")
    )
    ratio = notice["median_ms"] / notice["floor_ms"]
    rows.append(
        f"| Notice of violation rendered (HTML + PDF/A, warm; {notice['pages']} "
        f"pages) | {notice['median_ms']:.0f} ms | | | {notice['floor_ms']:.0f} ms "
        f"(WeasyPrint, one paragraph) | {ratio:.1f}× | ≤ 2× floor | "
        f"{'yes' if ratio <= NOTICE_TARGET_RATIO else 'NO'} |" + check("notice")
    )
    rows.append(
        f"| The same notice's HTML, WeasyPrint alone (plain PDF) | "
        f"{notice['alone_ms']:.0f} ms | | | | "
        f"{notice['median_ms'] / notice['alone_ms']:.2f}× (ours ÷ alone) | "
        "(what our code adds) | |" + check("notice")
    )
    if annual is not None:
        rows.append(annual_row(annual) + check("annual"))
    rows.append("")
    rows.append(
        "| Load (real server) | Requests/s | p95 latency | OK | Failed | Stored rows "
        "| Lost | CPU check |"
    )
    rows.append("|---|---:|---:|---:|---:|---:|---:|---:|")
    for r in loads:
        rows.append(
            f"| {r.name}, {r.seconds:.0f} s, {r.threads} client threads, gunicorn "
            f"{r.workers} sync workers | {r.rps:.0f} | {r.p95_ms:.0f} ms | {r.ok} | "
            f"{r.failed} | {r.stored} | {r.lost} |" + check("load")
        )
    return rows


def write_results(lines, meta, seed_info, calibration):
    notes = ""
    notes_file = ROOT / "bench" / "NOTES.md"
    if notes_file.exists():
        notes = "\n" + notes_file.read_text()
    m, v = meta
    text = [
        "# Benchmark results",
        "",
        f"Date: {dt.datetime.now().astimezone():%Y-%m-%d %H:%M %Z}  ",
        f"Machine: {m['nproc']} CPUs ({m['cpu']}), {m['memory']} memory  ",
        "Versions: " + ", ".join(f"{k} {val}" for k, val in v.items()) + "  ",
        f"Data set: {seed_info}  ",
        f"CPU check (a fixed pure-Python loop, median of 5): {calibration[0]:.0f} ms "
        f"before, {calibration[-1]:.0f} ms after the run. This shared machine's "
        "speed drifts; compare runs with this figure beside them.",
        "",
        "Server time = in-process request through the WSGI handler gunicorn "
        "calls (poquott_ms4.wsgi, the whole middleware stack, DEBUG off, "
        "PostgreSQL on 127.0.0.1), with a signed-in test Client's session cookie, "
        "the body read and closed; queries counted by an execute wrapper; "
        "measured after the worker's warm-up. The floor is a bare Django view (no "
        "template, no query) measured the same way, signed in as the same user. "
        "The pages are measured in turn, one request each per round, so a slow "
        "spell of the machine is shared by all of them.",
        "",
        *lines,
        notes,
    ]
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text("\n".join(text).rstrip() + "\n")


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    seconds = 10.0
    if "--seconds" in argv:
        seconds = float(argv[argv.index("--seconds") + 1])
    from django.db import connection

    # The application as the server loads it (django.setup, the URLconf, the
    # startup objects frozen out of the garbage collector: poquott_ms4/wsgi.py).
    import poquott_ms4.wsgi  # noqa: F401

    if connection.vendor != "postgresql":
        sys.exit("bench needs PostgreSQL: set DATABASE_URL=postgres://...")
    from bench.seed import ensure_seeded
    from cases.models import Case
    from deadlines.models import Deadline
    from enforcement.models import Appeal, NoticeOfViolation
    from intake.models import Report
    from kernel.models import CaseEvent
    from ledger.models import Charge, Payment

    seed_s, _ = ensure_seeded(reseed="--reseed" in argv)
    from django.core.management import call_command

    call_command("collectstatic", interactive=False, verbosity=0)  # DEBUG is off
    if "--annual-only" in argv:
        annual = measure_annual()
        print(annual_row(annual))
        return
    if "--pages-only" in argv:  # a quick look; writes no results
        from bench.harness import calibration_ms

        print(f"CPU check: {calibration_ms():.0f} ms")
        measure_pages(n=int(os.environ.get("BENCH_PAGE_RUNS", "60")))
        print(f"CPU check: {calibration_ms():.0f} ms")
        return
    seed_info = (
        f"{Case.objects.count():,} cases, {Report.objects.count():,} reports, "
        f"{CaseEvent.objects.count():,} events, {Deadline.objects.count():,} "
        f"deadlines, {NoticeOfViolation.objects.count():,} notices, "
        f"{Appeal.objects.count():,} appeals, {Charge.objects.count():,} fines, "
        f"{Payment.objects.count():,} payments (seeded by COPY in {seed_s:.0f} s, "
        "fixed random seed)."
    )
    from bench.harness import calibration_ms

    calibration = [calibration_ms()]
    print(f"CPU check: {calibration[0]:.0f} ms")
    cpu = {"pages": calibration[0]}
    print("Pages (in-process):")
    pages, _floors = measure_pages(n=int(os.environ.get("BENCH_PAGE_RUNS", "60")))
    print("Reminder sweep:")
    cpu["sweep"] = calibration_ms()
    sweep = measure_sweep()
    print(
        f"  {sweep['median_s'] * 1000:.0f} ms, {sweep['queries']} queries, "
        f"{sweep['created']} reminders; idle {sweep['idle_s'] * 1000:.0f} ms, "
        f"{sweep['idle_queries']} queries"
    )
    print("Notice of violation:")
    cpu["notice"] = calibration_ms()
    notice = measure_notice()
    print(
        f"  {notice['median_ms']:.0f} ms (floor {notice['floor_ms']:.0f} ms; the "
        f"same HTML through WeasyPrint alone {notice['alone_ms']:.0f} ms)"
    )
    print("Exports of the case list (in-process):")
    from bench.exports import measure_exports
    from bench.exports import table_rows as export_rows

    cpu["exports"] = calibration_ms()
    exports = measure_exports()
    from bench.exports import job_table_rows, measure_export_job

    cpu["export_job"] = calibration_ms()
    export_job = measure_export_job()
    print("Annual report:")
    cpu["annual"] = calibration_ms()
    annual = measure_annual()
    print(
        f"  {annual['median_s'] * 1000:.0f} ms median, {annual['max_s'] * 1000:.0f} "
        f"ms max, {annual['queries']} queries (counts alone "
        f"{annual['counts_s'] * 1000:.0f} ms)"
    )
    print(f"Load ({seconds:.0f} s each, gunicorn on 127.0.0.1):")
    cpu["load"] = calibration_ms()
    loads = measure_load(seconds, threads=8)
    calibration.append(calibration_ms())
    lines = table(pages, sweep, notice, loads, annual, cpu) + [
        "",
        *export_rows(exports, cpu["exports"]),
    ]
    lines += ["", *job_table_rows(export_job, cpu["export_job"])]
    print()
    print("\n".join(lines))
    write_results(lines, (machine(), versions()), seed_info, calibration)
    print(f"\nWrote {RESULTS.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
