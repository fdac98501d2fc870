"""Reads of the outbox: what the SMO's page and the dashboard show."""

import functools

from django.db.models import Count, F, Q, QuerySet, Window
from django.db.models.functions import RowNumber

from kernel.compiled import CompiledQuery

from .models import OutgoingMessage

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


@functools.cache
def _heads(limit: int) -> CompiledQuery:
    by_status = {"partition_by": F("status")}
    return CompiledQuery(
        lambda: (
            _rows()
            .filter(status__in=[Status.FAILED, Status.PENDING])
            .annotate(
                place=Window(RowNumber(), order_by=["created_at", "id"], **by_status),
                of_status=Window(Count("pk"), **by_status),
            )
            .filter(place__lte=limit)
        )
    )


def delivery_heads(limit: int) -> dict:
    """The dashboard's outbox: {"failed": first `limit` failed rows, "pending":
    first `limit` pending rows, "counts": {"failed": n, "pending": m}}, oldest
    first, in one query (each status numbered and counted before the limit;
    compiled once, kernel.compiled)."""
    heads = {"failed": [], "pending": [], "counts": {"failed": 0, "pending": 0}}
    for row in _heads(limit).rows():
        heads[row.status].append(row)
        heads["counts"][row.status] = row.of_status
    return heads


def delivery_counts() -> dict:
    """{"failed": n, "pending": m}, in one query."""
    return OutgoingMessage.objects.aggregate(
        failed=Count("pk", filter=Q(status=Status.FAILED)),
        pending=Count("pk", filter=Q(status=Status.PENDING)),
    )
