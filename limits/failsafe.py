"""The cache-counted limits fail open when the shared cache does not answer.

The report, Open311 and status limits (`limits.ratelimit`) count in the
default cache, Redis in production. A limit protects the site; it must never be
the reason a resident's report is lost. So any error from the cache backend
(redis's ConnectionError and TimeoutError, or anything else it raises) lets the
request through, is logged as a warning and is counted here.

The sign-in, password-reset and access-code limits never come here: they count
in the database (`limits`) and hold while Redis is down.

The count is per process (each gunicorn worker keeps its own) and starts at zero
when the process starts: it says "this worker let requests through unlimited"
and when it last did; `/healthz` shows it beside its own check of the cache,
which is what makes the health answer 503 (`operations.health`)."""

import logging
import threading

from django.utils import timezone

logger = logging.getLogger("poquott_ms4.limits")

_lock = threading.Lock()
_count = 0
_last_at = None
_last_scope = ""


def record_cache_failure(scope: str, exc: BaseException) -> None:
    """Count and log one limit that was skipped because the cache failed.

    `scope` names the limit ("report", "open311", "status")."""
    global _count, _last_at, _last_scope
    with _lock:
        _count += 1
        _last_at = timezone.now()
        _last_scope = scope
    logger.warning(
        "The cache did not answer (%s: %s); the %s limit is not applied and the "
        "request is allowed.",
        exc.__class__.__name__,
        exc,
        scope,
    )


def cache_failures() -> dict:
    """The counter, as /healthz shows it."""
    with _lock:
        return {
            "count": _count,
            "last_at": _last_at.isoformat() if _last_at else None,
            "last_limit": _last_scope or None,
        }


def reset_cache_failures() -> None:
    """Start the count again (tests)."""
    global _count, _last_at, _last_scope
    with _lock:
        _count, _last_at, _last_scope = 0, None, ""
