"""/healthz answers JSON within seconds whatever hangs (issue 28).

"Hung" is a real TCP listener that accepts every connection and never replies
(a Redis stopped mid-way, a firewall that swallows packets): the cache and the
broker are pointed at it. A database that never answers is a probe that waits
until the test lets it go. The bound on the answer's time is the point of the
issue (a hang, not a benchmark); it is generous for a loaded machine."""

import socket
import threading
import time

import pytest

from limits import failsafe
from operations import health

pytestmark = pytest.mark.django_db

ANSWER_WITHIN = 5  # seconds; the probes give up after health.PROBE_SECONDS


@pytest.fixture
def hung_listener():
    """A port that accepts connections and never answers; closed at the end."""
    server = socket.create_server(("127.0.0.1", 0))
    accepted = []
    stop = threading.Event()

    def accept():
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                accepted.append(server.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield server.getsockname()[1], accepted
    stop.set()
    thread.join()
    for conn in accepted:
        conn.close()
    server.close()


@pytest.fixture
def hung_cache_and_broker(settings, monkeypatch, hung_listener):
    from poquott_ms4.celery import app

    port, accepted = hung_listener
    url = f"redis://127.0.0.1:{port}/0"
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": url,
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }
    monkeypatch.setattr(app.conf, "broker_url", url)
    failsafe.reset_cache_failures()
    yield accepted
    failsafe.reset_cache_failures()


def probe_threads():
    return [t for t in threading.enumerate() if t.name.startswith("healthz-")]


def wait_for_probes(seconds):
    for thread in probe_threads():
        thread.join(seconds)
    return [t.name for t in probe_threads()]


@pytest.fixture(autouse=True)
def _no_probe_left_over():
    assert wait_for_probes(15) == []
    yield


def test_healthz_answers_503_json_while_the_cache_and_broker_hang(
    client, hung_cache_and_broker
):
    started = time.monotonic()
    response = client.get("/healthz")
    took = time.monotonic() - started
    assert took < ANSWER_WITHIN
    assert response.status_code == 503
    assert response["Content-Type"] == "application/json"
    data = response.json()
    assert data["status"] == "down"
    assert data["database"] == "ok"
    assert data["cache"].startswith("error: ")
    assert data["broker"].startswith("error: ")
    assert data["down"] == ["cache"] and data["degraded"] == ["broker"]
    # Both really reached the listener (they hung, they were not refused).
    assert len(hung_cache_and_broker) >= 2
    # The probes' own socket timeouts end their threads while the listener
    # still hangs: nothing is left waiting on it.
    assert wait_for_probes(10) == []


def test_healthz_answers_when_the_database_never_answers(client, monkeypatch):
    release = threading.Event()

    def database_hangs():
        release.wait(60)
        return "ok"

    monkeypatch.setattr(health, "_check_database", database_hangs)
    try:
        started = time.monotonic()
        response = client.get("/healthz")
        assert time.monotonic() - started < ANSWER_WITHIN
        assert response.status_code == 503
        data = response.json()
        assert data["database"] == "error: timeout"
        assert data["cache"] == "ok" and data["down"] == ["database"]
        # Asked again while the first probe still waits: no second thread.
        again = client.get("/healthz").json()
        assert again["database"].startswith("error: timeout")
        assert [t.name for t in probe_threads()].count("healthz-database") == 1
    finally:
        release.set()
    assert wait_for_probes(10) == []
    # Once it has returned, the next check probes again.
    assert client.get("/healthz").json()["database"] == "ok"
