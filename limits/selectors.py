"""Reads of the attempt counters."""

from django.utils import timezone

from .models import Counter


def counter_value(*, key: str) -> int:
    """The attempts counted against `key` in its current window (0 if none)."""
    count = (
        Counter.objects.filter(key=Counter.key_for(key), expires_at__gt=timezone.now())
        .values_list("count", flat=True)
        .first()
    )
    return count or 0


def counter_seconds_left(*, key: str) -> float | None:
    """Seconds until the current window of `key` ends (None: no window open)."""
    now = timezone.now()
    expires_at = (
        Counter.objects.filter(key=Counter.key_for(key), expires_at__gt=now)
        .values_list("expires_at", flat=True)
        .first()
    )
    return None if expires_at is None else (expires_at - now).total_seconds()
