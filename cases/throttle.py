"""Failed sign-in throttle: a cool-off per (username, address) and per address.

Backed by the default cache (a file cache in the embedded default, Redis in
production), so it holds across processes. Never a permanent lock-out. Used by
the staff sign-in (`/accounts/login/`) and the admin's (`/admin/login/`).

When the cache does not answer the throttle is skipped (logged and counted by
`cases.failsafe`): staff can still sign in while Redis is down."""

import hashlib
import ipaddress
from functools import lru_cache

from django.conf import settings
from django.core.cache import cache

from .failsafe import record_cache_failure

SCOPE = "sign-in"


@lru_cache(maxsize=8)
def _networks(proxies: tuple[str, ...]):
    return tuple(ipaddress.ip_network(p.strip(), strict=False) for p in proxies)


def is_trusted_proxy(address: str) -> bool:
    """Whether `address` is one of settings.TRUSTED_PROXIES (addresses or networks)."""
    proxies = tuple(getattr(settings, "TRUSTED_PROXIES", ()))
    if not proxies:
        return False
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in _networks(proxies))


def client_ip(request) -> str:
    """The visitor's address, which every limit keys on.

    REMOTE_ADDR, unless the request came from a trusted proxy (REMOTE_ADDR in
    TRUSTED_PROXIES) and TRUSTED_PROXY_COUNT proxies stand in front of the site:
    then the Nth entry from the right of X-Forwarded-For, the one the outermost
    of our proxies wrote. Entries further left are whatever the visitor sent.
    A header too short or not an address falls back to REMOTE_ADDR (one shared
    bucket: stricter, never looser)."""
    remote = request.META.get("REMOTE_ADDR", "") or "unknown"
    count = getattr(settings, "TRUSTED_PROXY_COUNT", 0)
    if count <= 0 or not is_trusted_proxy(remote):
        return remote
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    entries = [entry.strip() for entry in forwarded.split(",") if entry.strip()]
    if len(entries) < count:
        return remote
    candidate = entries[-count]
    try:
        return str(ipaddress.ip_address(candidate))
    except ValueError:
        return remote


def _key(*parts: str) -> str:
    digest = hashlib.sha256("|".join(parts).encode()).hexdigest()[:32]
    return f"login-fail:{digest}"


# --- failures counted per bucket, a cool-off once one is full -------------------
# A bucket: (key parts, limit). The sign-in's and the respondent's page's
# (cases.portal.throttle) wrong codes both count this way.


def bucket_throttled(scope: str, buckets) -> bool:
    """True during a cool-off; False when the cache does not answer."""
    try:
        return any((cache.get(_key(*parts)) or 0) >= limit for parts, limit in buckets)
    except Exception as exc:  # any error of the cache backend: fail open
        record_cache_failure(scope, exc)
        return False


def bucket_record_failure(scope: str, buckets, timeout: int) -> None:
    try:
        for parts, _limit in buckets:
            key = _key(*parts)
            if cache.add(key, 1, timeout):
                continue
            try:
                cache.incr(key)
            except ValueError:
                cache.set(key, 1, timeout)
    except Exception as exc:  # any error of the cache backend: fail open
        record_cache_failure(scope, exc)


def bucket_clear(scope: str, parts) -> None:
    try:
        cache.delete(_key(*parts))
    except Exception as exc:  # any error of the cache backend: fail open
        record_cache_failure(scope, exc)


def _buckets(username: str, ip: str):
    return (
        (("user", username.strip().lower(), ip), settings.LOGIN_THROTTLE_PER_USER),
        (("ip", ip), settings.LOGIN_THROTTLE_PER_IP),
    )


def is_throttled(username: str, ip: str) -> bool:
    """True during a cool-off; False when the cache does not answer."""
    return bucket_throttled(SCOPE, _buckets(username, ip))


def record_failure(username: str, ip: str) -> None:
    bucket_record_failure(
        SCOPE, _buckets(username, ip), settings.LOGIN_THROTTLE_COOLOFF_SECONDS
    )


def clear(username: str, ip: str) -> None:
    bucket_clear(SCOPE, _buckets(username, ip)[0][0])


def cooloff_minutes() -> int:
    return max(1, settings.LOGIN_THROTTLE_COOLOFF_SECONDS // 60)
