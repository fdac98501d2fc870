"""Reads for reports: the tracking-code lookup, the public updates of a report,
the triage queue and the Open311 listing (constant query count)."""

import re
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from django.db.models import Exists, OuterRef, Q, QuerySet

from . import public_status
from .models import Report
from .public_status import PublicUpdate
from .service_code import service_code_expression

_CODE_CHARS = re.compile(r"[^A-Z0-9]")


def normalize_tracking_code(raw: str) -> str:
    """ "pq 7k3m 9xtr", "PQ7K3M9XTR" and "PQ-7K3M-9XTR" are the same code."""
    body = _CODE_CHARS.sub("", (raw or "").upper())
    if body.startswith("PQ"):
        body = body[2:]
    if len(body) != 8:
        return ""
    return f"PQ-{body[:4]}-{body[4:]}"


def report_by_tracking_code(raw: str) -> Report | None:
    """The report with this code, or None. Always runs the same query, whatever
    the input, so a wrong code answers like a well-formed unknown one."""
    code = normalize_tracking_code(raw) or "PQ-NONE-NONE"
    return (
        Report.objects.select_related(
            "case",
            "case__exempt_category",
            "case__merged_into",
            "case__merged_into__exempt_category",
        )
        .prefetch_related("pollutant_categories")
        .filter(tracking_code=code)
        .first()
    )


def public_updates(report: Report) -> list[PublicUpdate]:
    """What the resident may read: the receipt, then what the followed case
    shares (public_status.CaseProgress.updates: status changes with the reason
    only where staff chose to share it, public notes). Never the case number,
    names, contacts, other reports or staff-only entries."""
    updates = [PublicUpdate(report.received_at, "Report received")]
    case = public_status.effective_case(report.case)
    if case is None:
        return updates
    updates += public_status.case_progress().updates(case, report)
    updates.sort(key=lambda u: u.at)
    return updates


def reports_in_triage() -> QuerySet[Report]:
    """Reports from every channel not yet turned into or attached to a case."""
    return (
        Report.objects.filter(case__isnull=True)
        .select_related("entered_by", "api_client")
        .prefetch_related("pollutant_categories", "photos")
        .order_by("received_at")
    )


def report_for_staff(pk: int) -> Report | None:
    return (
        Report.objects.select_related("case", "entered_by", "api_client")
        .prefetch_related("pollutant_categories", "photos")
        .filter(pk=pk)
        .first()
    )


# --- Open311 -----------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Open311Row:
    """A report's public facts, as the Open311 list reads them: plain values,
    not model instances (1,000 reports with their cases, categories and notes
    were ~2,000 models and most of the list's time; bench/)."""

    pk: int
    service_code: str  # service_code.service_code_expression, as the filter reads it
    received_at: datetime
    attached_at: datetime | None
    address: str
    latitude: Decimal | None
    longitude: Decimal | None
    status: public_status.PublicStatus
    closed_at: datetime | None  # of the case the resident follows
    public_notes: tuple[tuple[str, datetime], ...]  # (text, created_at), oldest first


_OPEN311_FIELDS = (
    "pk",
    "open311_code",
    "received_at",
    "attached_at",
    "address",
    "latitude",
    "longitude",
    "case_id",
    "case__status",
    "case__closed_at",
    "case__merged_into_id",
    "case__merged_into__status",
    "case__merged_into__closed_at",
)


def open311_requests(
    *,
    ids: list[int] | None = None,
    received_since: datetime | None = None,
    own_client=None,
    service_codes: list[str] | None = None,
    start: datetime | None = None,
    end: datetime | None = None,
    statuses: list[str] | None = None,
    limit: int = 1000,
    offset: int = 0,
) -> list[Open311Row]:
    """Reports as Open311 service requests, newest first: two queries whatever
    the number of rows (reports with their cases and service codes, public
    notes). With `ids`, only those received since `received_since`, except the
    ones `own_client` (an ApiKey) sent itself. `service_codes` finds a report
    under the code it is listed with (service_code.service_code_expression) and
    under each of its categories' codes.
    `offset`/`limit` page the list (the caller asks one more row than it shows to
    know whether a next page exists)."""
    qs = Report.objects.annotate(open311_code=service_code_expression())
    if ids is not None:
        qs = qs.filter(pk__in=ids)
        if received_since is not None:
            recent = Q(received_at__gte=received_since)
            if own_client is not None:
                recent |= Q(api_client=own_client)
            qs = qs.filter(recent)
    else:
        if service_codes:
            # Listed under one code, found under each of its categories too (a
            # web report may name two kinds of discharge; issue 29).
            qs = qs.filter(
                Q(open311_code__in=service_codes)
                | Exists(
                    Report.pollutant_categories.through.objects.filter(
                        report_id=OuterRef("pk"),
                        pollutantcategory__code__in=service_codes,
                    )
                )
            )
        if start is not None:
            qs = qs.filter(received_at__gte=start)
        if end is not None:
            qs = qs.filter(received_at__lte=end)
        if statuses and set(statuses) != {"open", "closed"}:
            closed = closed_q()
            qs = qs.filter(closed if "closed" in statuses else ~closed)
    reports = list(
        qs.order_by("-received_at", "-pk").values(*_OPEN311_FIELDS)[
            offset : offset + limit
        ]
    )
    # A duplicate follows the case it was merged into (public_status.effective_case).
    merged = {
        r["pk"]
        for r in reports
        if public_status.follows_merged(r["case__status"], r["case__merged_into_id"])
    }
    followed = {
        r["pk"]: r["case__merged_into_id"] if r["pk"] in merged else r["case_id"]
        for r in reports
    }
    case_ids = {pk for pk in followed.values() if pk is not None}
    notes = public_status.case_progress().public_notes(case_ids) if case_ids else {}
    rows = []
    for r in reports:
        into = r["pk"] in merged
        rows.append(
            Open311Row(
                pk=r["pk"],
                service_code=r["open311_code"],
                received_at=r["received_at"],
                attached_at=r["attached_at"],
                address=r["address"],
                latitude=r["latitude"],
                longitude=r["longitude"],
                status=public_status.for_case_status(
                    r["case__merged_into__status"] if into else r["case__status"]
                ),
                closed_at=r[
                    "case__merged_into__closed_at" if into else "case__closed_at"
                ],
                public_notes=tuple(notes.get(followed[r["pk"]], ())),
            )
        )
    return rows


def closed_q() -> Q:
    """Reports whose public status is "closed" (public_status.effective_case)."""
    progress = public_status.case_progress()
    finally_closed = progress.closed - {progress.merged}
    return (
        Q(case__status__in=finally_closed)
        | Q(
            case__status=progress.merged,
            case__merged_into__status__in=finally_closed,
        )
        | Q(case__status=progress.merged, case__merged_into__isnull=True)
    )
