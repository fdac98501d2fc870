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
