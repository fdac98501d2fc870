"""Wrong access codes: a cool-off per address and per the code's first four
characters (cases.throttle's buckets; never a permanent lock-out). Fails open,
logged, when the cache does not answer, as the staff sign-in does."""

from django.conf import settings

from .. import throttle
from .codes import prefix_of

SCOPE = "respondent-code"


def _buckets(code: str, ip: str):
    return (
        (("portal-ip", ip), settings.PORTAL_THROTTLE_PER_IP),
        (("portal-prefix", prefix_of(code)), settings.PORTAL_THROTTLE_PER_PREFIX),
    )


def is_throttled(code: str, ip: str) -> bool:
    return throttle.bucket_throttled(SCOPE, _buckets(code, ip))


def record_failure(code: str, ip: str) -> None:
    throttle.bucket_record_failure(
        SCOPE, _buckets(code, ip), settings.PORTAL_THROTTLE_COOLOFF_SECONDS
    )


def cooloff_minutes() -> int:
    return max(1, settings.PORTAL_THROTTLE_COOLOFF_SECONDS // 60)
