"""Failed sign-in throttle: a cool-off per (username, address) and per address.

Counted in the database (`limits`), not the cache: the cool-off holds while
Redis is down, in every process. Never a permanent lock-out. Used by the staff
sign-in (`/accounts/login/`) and the admin's (`/admin/login/`). An IPv6 address
counts by its /64 (`limits.addresses.limit_source`).

The bucket_* helpers are shared with the respondent's wrong-code throttle
(`portal.throttle`)."""

import ipaddress
from functools import lru_cache

from django.conf import settings

from limits.addresses import limit_source
from limits.selectors import counter_value
from limits.services import counter_clear, counter_increment


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


# --- failures counted per bucket, a cool-off once one is full -------------------
# A bucket: (key parts, limit). The sign-in's and the respondent's page's
# (portal.throttle) wrong codes both count this way, in the database: they
# never fail open.


def _key(parts) -> str:
    return "|".join(("throttle", *parts))


def bucket_throttled(buckets) -> bool:
    """True while any bucket is full (during its cool-off)."""
    return any(counter_value(key=_key(parts)) >= limit for parts, limit in buckets)


def bucket_record_failure(buckets, timeout: int) -> None:
    """Count one failure in every bucket; the first starts a `timeout` window."""
    for parts, _limit in buckets:
        counter_increment(key=_key(parts), seconds=timeout)


def bucket_clear(parts) -> None:
    counter_clear(key=_key(parts))


def _buckets(username: str, ip: str):
    source = limit_source(ip)
    return (
        (("user", username.strip().lower(), source), settings.LOGIN_THROTTLE_PER_USER),
        (("ip", source), settings.LOGIN_THROTTLE_PER_IP),
    )


def is_throttled(username: str, ip: str) -> bool:
    """True during a cool-off."""
    return bucket_throttled(_buckets(username, ip))


def record_failure(username: str, ip: str) -> None:
    bucket_record_failure(
        _buckets(username, ip), settings.LOGIN_THROTTLE_COOLOFF_SECONDS
    )


def clear(username: str, ip: str) -> None:
    bucket_clear(_buckets(username, ip)[0][0])


def cooloff_minutes() -> int:
    return max(1, settings.LOGIN_THROTTLE_COOLOFF_SECONDS // 60)
