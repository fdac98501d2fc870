"""Measuring pages in-process: server time and query count per request, beside a
bare Django view on the same machine (the framework's floor)."""

import statistics
import time
from dataclasses import dataclass

from django.db import connection, reset_queries
from django.test import Client
from django.test.utils import CaptureQueriesContext


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


def time_requests(client: Client, url: str, n: int, warmup: int = 3):
    for _ in range(warmup):
        client.get(url)
    timings, counts, status = [], set(), 0
    for _ in range(n):
        reset_queries()
        with CaptureQueriesContext(connection) as ctx:
            start = time.perf_counter()
            response = client.get(url)
            elapsed = (time.perf_counter() - start) * 1000
        status = response.status_code
        timings.append(elapsed)
        counts.add(len(ctx.captured_queries))
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
            client.get(url)
    samples = {name: ([], set(), 0) for name, *_ in pages}
    for _ in range(n):
        for name, client, url, _floor in pages:
            reset_queries()
            with CaptureQueriesContext(connection) as ctx:
                start = time.perf_counter()
                response = client.get(url)
                elapsed = (time.perf_counter() - start) * 1000
            timings, counts, _ = samples[name]
            timings.append(elapsed)
            counts.add(len(ctx.captured_queries))
            samples[name] = (timings, counts, response.status_code)
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
