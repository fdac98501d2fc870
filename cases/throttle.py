"""Failed sign-in throttle: a cool-off per (username, address) and per address.

Backed by the default cache (a file cache in the embedded default, Redis in
production), so it holds across processes. Never a permanent lock-out."""

import hashlib

from django.conf import settings
from django.core.cache import cache


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
    return any((cache.get(key) or 0) >= limit for key, limit in _keys(username, ip))


def record_failure(username: str, ip: str) -> None:
    timeout = settings.LOGIN_THROTTLE_COOLOFF_SECONDS
    for key, _limit in _keys(username, ip):
        if cache.add(key, 1, timeout):
            continue
        try:
            cache.incr(key)
        except ValueError:
            cache.set(key, 1, timeout)


def clear(username: str, ip: str) -> None:
    cache.delete(_keys(username, ip)[0][0])


def cooloff_minutes() -> int:
    return max(1, settings.LOGIN_THROTTLE_COOLOFF_SECONDS // 60)
