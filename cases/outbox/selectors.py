"""Reads of the outbox: what the SMO's page and the dashboard show."""

from django.db.models import Count, Q, QuerySet

from ..models import OutgoingMessage

Status = OutgoingMessage.Status
PAGE_LIMIT = 200


def _rows() -> QuerySet[OutgoingMessage]:
    return OutgoingMessage.objects.select_related("case").order_by("created_at", "id")


def failed_messages(limit: int = PAGE_LIMIT) -> list[OutgoingMessage]:
    """Failed deliveries, oldest first (the longest-waiting resident first)."""
    return list(_rows().filter(status=Status.FAILED)[:limit])


def pending_messages(limit: int = PAGE_LIMIT) -> list[OutgoingMessage]:
    """Deliveries not made yet (queued, or waiting to retry), oldest first."""
    return list(_rows().filter(status=Status.PENDING)[:limit])


def delivery_counts() -> dict:
    """{"failed": n, "pending": m}, in one query."""
    return OutgoingMessage.objects.aggregate(
        failed=Count("pk", filter=Q(status=Status.FAILED)),
        pending=Count("pk", filter=Q(status=Status.PENDING)),
    )
