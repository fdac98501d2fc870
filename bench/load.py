"""A small threaded load generator (http.client, keep-alive) for a fixed time.

Each thread keeps one connection and sends POSTs until the time is up; every
request is bounded by a socket timeout, and the whole run stops by itself."""

import http.client
import re
import threading
import time
import urllib.parse
from dataclasses import dataclass, field


@dataclass
class LoadResult:
    name: str
    seconds: float
    sent: int = 0
    ok: int = 0
    failed: int = 0
    latencies_ms: list = field(default_factory=list)
    errors: dict = field(default_factory=dict)

    @property
    def rps(self) -> float:
        return self.ok / self.seconds if self.seconds else 0.0


def _connect(host, port, timeout):
    return http.client.HTTPConnection(host, port, timeout=timeout)


def _report_form_session(conn):
    """GET the form once: the CSRF cookie and token the POSTs carry."""
    conn.request("GET", "/report/")
    response = conn.getresponse()
    body = response.read().decode()
    cookie = ""
    for name, value in response.getheaders():
        if name.lower() == "set-cookie" and value.startswith("csrftoken="):
            cookie = value.split(";", 1)[0]
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', body).group(1)
    return cookie, token


def run_load(
    *,
    name: str,
    host: str,
    port: int,
    make_request,
    seconds: float = 10.0,
    threads: int = 8,
    timeout: float = 10.0,
    expect=(201, 302),
    prepare=None,
) -> LoadResult:
    """POST for `seconds` from `threads` threads. `make_request(i, state)` gives
    (path, body dict, headers); `prepare(conn)` returns per-thread state."""
    result = LoadResult(name=name, seconds=seconds)
    lock = threading.Lock()
    deadline = time.monotonic() + seconds
    counter = iter(range(10**9))

    def worker():
        conn = _connect(host, port, timeout)
        state = prepare(conn) if prepare else None
        local_lat, sent, ok, errors = [], 0, 0, {}
        while time.monotonic() < deadline:
            with lock:
                i = next(counter)
            path, data, headers = make_request(i, state)
            body = urllib.parse.urlencode(data)
            headers = {
                "Content-Type": "application/x-www-form-urlencoded",
                **headers,
            }
            start = time.perf_counter()
            sent += 1
            try:
                conn.request("POST", path, body=body, headers=headers)
                response = conn.getresponse()
                response.read()
                status = response.status
            except (OSError, http.client.HTTPException) as exc:
                status = type(exc).__name__
                conn.close()
                conn = _connect(host, port, timeout)
            local_lat.append((time.perf_counter() - start) * 1000)
            if status in expect:
                ok += 1
            else:
                errors[status] = errors.get(status, 0) + 1
        conn.close()
        with lock:
            result.sent += sent
            result.ok += ok
            result.failed += sent - ok
            result.latencies_ms.extend(local_lat)
            for k, v in errors.items():
                result.errors[k] = result.errors.get(k, 0) + v

    pool = [threading.Thread(target=worker, daemon=True) for _ in range(threads)]
    started = time.monotonic()
    for t in pool:
        t.start()
    for t in pool:
        t.join(seconds + timeout + 5)
    result.seconds = max(seconds, time.monotonic() - started)
    return result


def report_form_load(host, port, seconds, threads) -> LoadResult:
    def make(i, state):
        cookie, token = state
        return (
            "/report/",
            {
                "csrfmiddlewaretoken": token,
                "description": f"Bench load report {i}: grey water in the drain.",
                "address": f"{i % 400 + 1} Harbor Rd",
                "colour": "",
                "odour": "",
                "flow": "",
                "website": "",
            },
            {"Cookie": cookie, "Referer": f"http://{host}:{port}/report/"},
        )

    return run_load(
        name="report form POST",
        host=host,
        port=port,
        make_request=make,
        seconds=seconds,
        threads=threads,
        expect=(302,),
        prepare=_report_form_session,
    )


def open311_load(host, port, seconds, threads, api_key, service_code) -> LoadResult:
    def make(i, state):
        return (
            "/open311/v2/requests.json",
            {
                "api_key": api_key,
                "service_code": service_code,
                "description": f"Bench Open311 request {i}",
                "address_string": f"{i % 400 + 1} Sound Rd",
            },
            {},
        )

    return run_load(
        name="Open311 POST",
        host=host,
        port=port,
        make_request=make,
        seconds=seconds,
        threads=threads,
        expect=(201,),
    )
