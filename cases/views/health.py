"""GET /healthz: the state of the database, the cache and the broker, as JSON."""

from django.core.cache import cache
from django.db import connection
from django.http import JsonResponse
from django.views.decorators.cache import never_cache


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
    status = 200 if checks["database"] == "ok" else 503
    overall = "ok" if all(v == "ok" for v in checks.values()) else "degraded"
    if status == 503:
        overall = "down"
    return JsonResponse({"status": overall, **checks}, status=status)
