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

The body also carries `limits_skipped`: how often this process let a request
through because the cache failed (`cases.failsafe`)."""

from django.core.cache import cache
from django.db import connection
from django.http import JsonResponse
from django.views.decorators.cache import never_cache

from ..failsafe import cache_failures

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
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return "ok"


def _check_cache() -> str:
    cache.set("healthz", "ok", 10)
    return "ok" if cache.get("healthz") == "ok" else "unreadable"


def _check_broker() -> str:
    from poquott_ms4.celery import app

    with app.connection_for_write() as conn:
        conn.ensure_connection(max_retries=1, timeout=2)
    return "ok"


@never_cache
def healthz(request):
    checks = {}
    for name, check in (
        ("database", _check_database),
        ("cache", _check_cache),
        ("broker", _check_broker),
    ):
        try:
            checks[name] = check()
        except Exception as exc:  # a health check reports, it does not raise
            checks[name] = f"error: {exc.__class__.__name__}"
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
