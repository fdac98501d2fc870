"""A per-address rate limit for report submissions (web form, staff-free), the
Open311 POST and wrong Open311 keys, and a looser one for status look-ups; and
the password-reset limit.

The report, Open311 and status limits are fixed windows counted in the default
cache: a file cache in the embedded default (shared by every process), Redis in
production. When the cache does not answer they let the request through (logged
and counted by `limits.failsafe`): a report is never lost to the limiter.

The password-reset limit is `durable`: counted in the database (`limits`), so it
holds while Redis is down (a reset e-mail flood is what it stops).

Only a hash of the address is kept, and only for the window. An IPv6 address
counts by its /64 (`limits.addresses.limit_source`)."""

import hashlib
import math
import time
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache

from limits.addresses import limit_source
from limits.failsafe import record_cache_failure
from limits.selectors import counter_seconds_left
from limits.services import counter_clear, counter_increment
from limits.throttle import client_ip


@dataclass(frozen=True)
class Limit:
    scope: str
    count: int
    seconds: int
    # Counted in the database, never failing open (must hold with Redis down).
    durable: bool = False

    @property
    def minutes(self) -> int:
        return max(1, self.seconds // 60)


# Settings may override: REPORT_RATE_LIMIT = (count, seconds) and so on.
REPORT_SUBMIT = Limit("report", *getattr(settings, "REPORT_RATE_LIMIT", (10, 3600)))
STATUS_LOOKUP = Limit(
    "status", *getattr(settings, "STATUS_LOOKUP_RATE_LIMIT", (60, 600))
)
# Wrong Open311 api_keys from one address (intake.open311.keys): (count, seconds)
# from settings, which read OPEN311_WRONG_KEY_LIMIT_COUNT/_SECONDS.
OPEN311_WRONG_KEY = Limit("open311-key", *settings.OPEN311_WRONG_KEY_LIMIT)
# Password-reset e-mails: per address and, separately, per e-mail address asked
# for, so neither one visitor nor many can flood a member of staff's mailbox.
PASSWORD_RESET = Limit(
    "password-reset",
    *getattr(settings, "PASSWORD_RESET_RATE_LIMIT", (5, 3600)),
    durable=True,
)


def open311_client_allowance(api_key) -> tuple[Limit, str]:
    """The Open311 POST limit of one client (issue 29): its key's reports an
    hour, counted per key (whatever address it sends from) in the database, so
    an aggregator's allowance holds with Redis down and its Retry-After is the
    real wait. (limit, subject) for hit() and seconds_left()."""
    limit = Limit("open311-client", api_key.reports_per_hour, 3600, durable=True)
    return limit, f"api-key-{api_key.pk}"


def _who(request, subject: str | None) -> str:
    if subject is not None:
        return f"subject|{subject}"
    return limit_source(client_ip(request))


def _key(limit: Limit, who: str) -> str:
    digest = hashlib.sha256(f"{limit.scope}|{who}".encode()).hexdigest()[:32]
    return f"ratelimit:{limit.scope}:{digest}"


def hit(limit: Limit, request, *, subject: str | None = None) -> bool:
    """Count one attempt from the request's address (or, given `subject`, for
    that subject, e.g. an e-mail address); True if it is within the limit, False
    if the caller is over it (and should be refused). A cache-counted limit
    answers True when the cache fails; a durable one counts in the database."""
    key = _key(limit, _who(request, subject))
    if limit.durable:
        return counter_increment(key=key, seconds=limit.seconds) <= limit.count
    try:
        return _count(key, limit)
    except Exception as exc:  # any error of the cache backend: fail open
        record_cache_failure(limit.scope, exc)
        return True


def seconds_left(limit: Limit, request, *, subject: str | None = None) -> int:
    """How long until the window of `limit` for the request's address (or
    `subject`) ends: the real wait a 429's Retry-After gives (at least 1; the
    whole window when it is not known)."""
    key = _key(limit, _who(request, subject))
    if limit.durable:
        left = counter_seconds_left(key=key)
    else:
        try:
            ends = cache.get(f"{key}:ends")
        except Exception as exc:  # any error of the cache backend
            record_cache_failure(limit.scope, exc)
            ends = None
        left = None if ends is None else ends - time.time()
    if left is None:
        return limit.seconds
    return max(1, min(limit.seconds, math.ceil(left)))


def exceeded(limit: Limit, request) -> bool:
    """True if the request's address is already over `limit` (counts nothing).
    False when the cache fails."""
    try:
        count = cache.get(_key(limit, _who(request, None)))
    except Exception as exc:  # any error of the cache backend: fail open
        record_cache_failure(limit.scope, exc)
        return False
    return (count or 0) > limit.count


def _count(key: str, limit: Limit) -> bool:
    if cache.add(key, 1, limit.seconds):
        # when this window ends, for a 429's Retry-After (seconds_left)
        cache.set(f"{key}:ends", time.time() + limit.seconds, limit.seconds)
        return True
    try:
        count = cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, limit.seconds)
        return True
    return count <= limit.count


def reset(limit: Limit, request) -> None:
    key = _key(limit, _who(request, None))
    if limit.durable:
        counter_clear(key=key)
        return
    try:
        cache.delete(key)
    except Exception as exc:  # nothing to reset in a cache that is down
        record_cache_failure(limit.scope, exc)
