"""Failed sign-in throttle: a cool-off per (username, address) and per address.

Backed by the default cache (a file cache in the embedded default, Redis in
production), so it holds across processes. Never a permanent lock-out. Used by
the staff sign-in (`/accounts/login/`) and the admin's (`/admin/login/`).

When the cache does not answer the throttle is skipped (logged and counted by
`cases.failsafe`): staff can still sign in while Redis is down."""

import hashlib

from django.conf import settings
from django.core.cache import cache

from .failsafe import record_cache_failure

SCOPE = "sign-in"


def client_ip(request) -> str:
    # REMOTE_ADDR only: X-Forwarded-For is set by whoever asks. Behind the
    # production proxy, gunicorn's forwarded-allow-ips sets REMOTE_ADDR.
    return request.META.get("REMOTE_ADDR", "") or "unknown"


def _key(*parts: str) -> str:
    digest = hashlib.sha256("|".join(parts).encode()).hexdigest()[:32]
    return f"login-fail:{digest}"


def _keys(username: str, ip: str):
    return (
        (_key("user", username.strip().lower(), ip), settings.LOGIN_THROTTLE_PER_USER),
        (_key("ip", ip), settings.LOGIN_THROTTLE_PER_IP),
    )


def is_throttled(username: str, ip: str) -> bool:
    """True during a cool-off; False when the cache does not answer."""
    try:
        return any((cache.get(key) or 0) >= limit for key, limit in _keys(username, ip))
    except Exception as exc:  # any error of the cache backend: fail open
        record_cache_failure(SCOPE, exc)
        return False


def record_failure(username: str, ip: str) -> None:
    timeout = settings.LOGIN_THROTTLE_COOLOFF_SECONDS
    try:
        for key, _limit in _keys(username, ip):
            if cache.add(key, 1, timeout):
                continue
            try:
                cache.incr(key)
            except ValueError:
                cache.set(key, 1, timeout)
    except Exception as exc:  # any error of the cache backend: fail open
        record_cache_failure(SCOPE, exc)


def clear(username: str, ip: str) -> None:
    try:
        cache.delete(_keys(username, ip)[0][0])
    except Exception as exc:  # any error of the cache backend: fail open
        record_cache_failure(SCOPE, exc)


def cooloff_minutes() -> int:
    return max(1, settings.LOGIN_THROTTLE_COOLOFF_SECONDS // 60)
