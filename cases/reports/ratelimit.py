"""A per-address rate limit for report submissions (web form, staff-free) and
the Open311 POST, and a looser one for status look-ups.

Fixed windows counted in the default cache: a file cache in the embedded default
(shared by every process), Redis in production. Only a hash of the address is
kept, and only for the window."""

import hashlib
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache

from ..throttle import client_ip


@dataclass(frozen=True)
class Limit:
    scope: str
    count: int
    seconds: int

    @property
    def minutes(self) -> int:
        return max(1, self.seconds // 60)


# Settings may override: REPORT_RATE_LIMIT = (count, seconds) and so on.
REPORT_SUBMIT = Limit("report", *getattr(settings, "REPORT_RATE_LIMIT", (10, 3600)))
OPEN311_POST = Limit("open311", *getattr(settings, "OPEN311_RATE_LIMIT", (30, 3600)))
STATUS_LOOKUP = Limit(
    "status", *getattr(settings, "STATUS_LOOKUP_RATE_LIMIT", (60, 600))
)


def _key(limit: Limit, ip: str) -> str:
    digest = hashlib.sha256(f"{limit.scope}|{ip}".encode()).hexdigest()[:32]
    return f"ratelimit:{limit.scope}:{digest}"


def hit(limit: Limit, request) -> bool:
    """Count one attempt from the request's address; True if it is within the
    limit, False if the caller is over it (and should be refused)."""
    key = _key(limit, client_ip(request))
    if cache.add(key, 1, limit.seconds):
        return True
    try:
        count = cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, limit.seconds)
        return True
    return count <= limit.count


def reset(limit: Limit, request) -> None:
    cache.delete(_key(limit, client_ip(request)))
