"""GET /healthz: the state of the database, the cache and the broker, as JSON.

503 when a component the site cannot work without is down; 200 otherwise, with
"status": "degraded" when only the broker is.

- database: always required. Every page, every report and every session (the
  session engine is the database's) lives there.
- cache: required. It is Redis in production (REDIS_URL; a file cache in the
  embedded default) and holds the report, Open311 and status limits. Those fail
  open, so a resident's report still goes through while it is down, but without
  those limits; the 503 tells the operator so. The sign-in (staff and admin),
  password-reset and access-code limits count in the database (`limits`) and
  hold either way. Sessions are not in it.
- broker: not required. Reports and documents are written to the database first
  (the outbox); the worker picks them up when the broker is back. So a broker
  that does not answer is "degraded", still 200.

The answer comes within PROBE_SECONDS whatever is down or hung (a server that
accepts the connection and never answers): the three probes run at once, each
in its own thread, and one that has not answered by then is reported as
"error: timeout". Each probe also has socket timeouts of its own (the cache's
OPTIONS in settings, the broker's below), so its thread ends soon after; one
that is still waiting (a database that never answers) is not started again until
it returns, so a health check every few seconds does not pile threads up.

The body also carries `limits_skipped`: how often this process let a request
through because the cache failed (`limits.failsafe`)."""

import threading
import time

from django.core.cache import DEFAULT_CACHE_ALIAS, caches
from django.db import connection
from django.http import JsonResponse
from django.views.decorators.cache import never_cache

from limits.failsafe import cache_failures

# The whole answer waits at most this long for the probes (they run at once);
# gunicorn's worker timeout and a Compose health check's are far longer.
PROBE_SECONDS = 2.0
TIMEOUT = "error: timeout"
STILL_WAITING = "error: timeout (the previous check has not returned)"

REQUIRED = ("database", "cache")
WHEN_DOWN = {
    "database": "Nothing can be read or saved.",
    "cache": (
        "The report, Open311 and status limits are not applied (requests are let "
        "through); pages still work. The sign-in, password-reset and access-code "
        "limits count in the database and still apply."
    ),
    "broker": (
        "Reports and documents are still saved; e-mails, reminders and document "
        "rendering wait in the outbox until the broker is back."
    ),
}


def _check_database() -> str:
    # The probe's thread has a connection of its own (Django's are per thread);
    # closed here, so every check does not leave one open.
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    finally:
        connection.close()
    return "ok"


def _check_cache() -> str:
    # A backend of its own, with the settings' socket timeouts, disconnected
    # afterwards: Django keeps one per thread and never closes Redis's pool.
    probe = caches.create_connection(DEFAULT_CACHE_ALIAS)
    try:
        probe.set("healthz", "ok", 10)
        return "ok" if probe.get("healthz") == "ok" else "unreadable"
    finally:
        client = probe.__dict__.get("_cache")  # RedisCache's client, once made
        for pool in getattr(client, "_pools", {}).values():
            pool.disconnect()


def _check_broker() -> str:
    from poquott_ms4.celery import app

    # Socket timeouts for this connection only: the worker's own connection
    # keeps the transport's defaults.
    seconds = PROBE_SECONDS / 2
    with app.connection_for_write(
        transport_options={"socket_timeout": seconds, "socket_connect_timeout": seconds}
    ) as conn:
        conn.ensure_connection(max_retries=1, timeout=PROBE_SECONDS)
    return "ok"


# Lambdas, so the module's function is looked up at each check (tests replace one).
PROBES = {
    "database": lambda: _check_database(),
    "cache": lambda: _check_cache(),
    "broker": lambda: _check_broker(),
}

_lock = threading.Lock()
_running: dict[str, threading.Thread] = {}


def _run(check, name: str, results: dict) -> None:
    try:
        results[name] = check()
    except Exception as exc:  # a health check reports, it does not raise
        results[name] = f"error: {exc.__class__.__name__}"


def probe_all() -> dict[str, str]:
    """Each component's result ("ok", "error: <exception>" or a timeout),
    within PROBE_SECONDS."""
    results: dict[str, str] = {}
    started: dict[str, threading.Thread] = {}
    with _lock:
        for name, check in PROBES.items():
            previous = _running.get(name)
            if previous is not None and previous.is_alive():
                results[name] = STILL_WAITING
                continue
            thread = threading.Thread(
                target=_run,
                args=(check, name, results),
                name=f"healthz-{name}",
                daemon=True,  # never holds a stopping worker up
            )
            _running[name] = started[name] = thread
            thread.start()
    deadline = time.monotonic() + PROBE_SECONDS
    for thread in started.values():
        thread.join(max(0.0, deadline - time.monotonic()))
    return {name: results.get(name, TIMEOUT) for name in PROBES}


@never_cache
def healthz(request):
    checks = probe_all()
    failing = [name for name, result in checks.items() if result != "ok"]
    down = [name for name in failing if name in REQUIRED]
    degraded = [name for name in failing if name not in REQUIRED]
    if down:
        overall, status = "down", 503
    elif degraded:
        overall, status = "degraded", 200
    else:
        overall, status = "ok", 200
    return JsonResponse(
        {
            "status": overall,
            **checks,
            "required": list(REQUIRED),
            "down": down,
            "degraded": degraded,
            "effects": {name: WHEN_DOWN[name] for name in failing},
            "limits_skipped": cache_failures(),
        },
        status=status,
    )
