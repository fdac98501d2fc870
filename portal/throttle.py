"""Wrong access codes: a cool-off per address (an IPv6 /64 counts as one),
counted in the database with limits.throttle's buckets, so it holds while Redis
is down; never a permanent lock-out.

Per source only, never per code: a lock keyed on what was typed would let
strangers lock a holder out of their own code."""

from django.conf import settings

from limits import throttle
from limits.addresses import limit_source


def _buckets(ip: str):
    return ((("portal-ip", limit_source(ip)), settings.PORTAL_THROTTLE_PER_IP),)


def is_throttled(ip: str) -> bool:
    return throttle.bucket_throttled(_buckets(ip))


def record_failure(ip: str) -> None:
    throttle.bucket_record_failure(
        _buckets(ip), settings.PORTAL_THROTTLE_COOLOFF_SECONDS
    )


def cooloff_minutes() -> int:
    return max(1, settings.PORTAL_THROTTLE_COOLOFF_SECONDS // 60)
