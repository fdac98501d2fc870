"""Measuring pages in-process: server time and query count per request, beside a
bare Django view on the same machine (the framework's floor).

A request goes to the application as the server loads it (poquott_ms4.wsgi, the
WSGI handler gunicorn calls), with the session cookie of a signed-in test
Client. Neither the test Client nor CaptureQueriesContext is in the timed path:
the Client connects and disconnects signal receivers on every request (each
leaves a weakref.finalize behind for the rest of the process, which the garbage
collector then walks) and the debug cursor writes out every query with its
parameters, neither of which production does. Queries are counted by an
execute wrapper (bench/NOTES.md)."""

import io
import statistics
import sys
import time
from dataclasses import dataclass

from django.db import connection
from django.test import Client


@dataclass
class PageResult:
    name: str
    median_ms: float
    p95_ms: float
    queries: int
    queries_vary: bool
    floor_median_ms: float
    status: int

    @property
    def ratio(self) -> float:
        return self.median_ms / self.floor_median_ms if self.floor_median_ms else 0.0


def percentile(values, pct):
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, round(pct / 100 * (len(ordered) - 1))))
    return ordered[k]


class QueryCounter:
    """Counts the queries run on `connection` (connection.execute_wrapper)."""

    def __init__(self):
        self.count = 0

    def __call__(self, execute, sql, params, many, context):
        self.count += 1
        return execute(sql, params, many, context)


def _environ(client: Client, url: str) -> dict:
    path, _, query = url.partition("?")
    return {
        "REQUEST_METHOD": "GET",
        "PATH_INFO": path,
        "QUERY_STRING": query,
        "SERVER_NAME": "testserver",
        "SERVER_PORT": "80",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "HTTP_HOST": "testserver",
        "HTTP_COOKIE": client.cookies.output(header="", sep=";").strip(),
        "REMOTE_ADDR": "127.0.0.1",
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": "http",
        "wsgi.input": io.BytesIO(b""),
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": False,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
    }


def serve(client: Client, url: str) -> tuple[int, float, int]:
    """One GET of `url` with `client`'s cookies through the WSGI handler, body
    read and closed as a server does: (status, milliseconds, queries)."""
    from poquott_ms4.wsgi import application

    environ = _environ(client, url)
    status = []
    counter = QueryCounter()
    with connection.execute_wrapper(counter):
        start = time.perf_counter()
        body = application(environ, lambda line, headers, *_: status.append(line))
        try:
            for _chunk in body:
                pass
        finally:
            body.close()
        elapsed = (time.perf_counter() - start) * 1000
    return int(status[0].split()[0]), elapsed, counter.count


def time_requests(client: Client, url: str, n: int, warmup: int = 3):
    for _ in range(warmup):
        serve(client, url)
    timings, counts, status = [], set(), 0
    for _ in range(n):
        status, elapsed, queries = serve(client, url)
        timings.append(elapsed)
        counts.add(queries)
    return timings, counts, status


def measure_page(name, client, url, floor_ms, n=50) -> PageResult:
    timings, counts, status = time_requests(client, url, n)
    return result_of(name, timings, counts, status, floor_ms)


def result_of(name, timings, counts, status, floor_ms) -> PageResult:
    return PageResult(
        name=name,
        median_ms=statistics.median(timings),
        p95_ms=percentile(timings, 95),
        queries=max(counts),
        queries_vary=len(counts) > 1,
        floor_median_ms=floor_ms,
        status=status,
    )


def measure_pages_round_robin(pages, n: int, warmup: int = 3) -> list[PageResult]:
    """`pages`: (name, client, url, floor_ms). One request of each page in turn,
    `n` rounds: a slow spell of a shared machine spreads over every page instead
    of landing on whichever page was being measured."""
    for _name, client, url, _floor in pages:
        for _ in range(warmup):
            serve(client, url)
    samples = {name: ([], set(), 0) for name, *_ in pages}
    for _ in range(n):
        for name, client, url, _floor in pages:
            status, elapsed, queries = serve(client, url)
            timings, counts, _ = samples[name]
            timings.append(elapsed)
            counts.add(queries)
            samples[name] = (timings, counts, status)
    return [
        result_of(name, *samples[name], floor_ms) for name, _c, _u, floor_ms in pages
    ]


def calibration_ms(runs: int = 5) -> float:
    """How fast this machine's CPU is right now: the median time of a fixed
    pure-Python loop. Runs on a shared machine differ by this much before any
    change of ours (the table prints it)."""
    timings = []
    for _ in range(runs):
        start = time.perf_counter()
        sum(i * i for i in range(1_000_000))
        timings.append((time.perf_counter() - start) * 1000)
    return statistics.median(timings)
