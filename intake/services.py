"""Writes for resident reports: filing one (every channel), attaching it to a
case, and the opt-in status-change e-mails.

E-mails are outbox rows (outbox/services.py) written in the transaction of
the report or the status change: nothing is sent for one that was rolled back,
and the web request never talks to the mail server."""

import logging

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.template.loader import render_to_string
from django.urls import reverse

from kernel.idempotency import store_once
from kernel.workflow import Refused
from outbox.models import OutgoingMessage
from outbox.services import message_queue

from . import public_status
from .models import Report, ReportNotification, ReportPhoto
from .service_code import decided_service_code

logger = logging.getLogger(__name__)

STAFF_CHANNELS = {Report.Channel.PHONE, Report.Channel.WALK_IN, Report.Channel.EMAIL}


class ReportRefused(Refused):
    """The report cannot be filed as given; `str()` says why."""


def status_url(report: Report) -> str:
    return (
        f"{settings.VILLAGE['site_url']}{reverse('public:status')}"
        f"?code={report.tracking_code}"
    )


def report_submit(
    *,
    channel: str,
    fields: dict,
    pollutant_categories=(),
    photos=(),
    entered_by=None,
    api_client=None,
    service_code: str = "",
    client_key: str = "",
) -> Report:
    """File a report: the report and all its photos in one transaction (nothing
    half-saved), with the outbox row of the receipt (the tracking code) if an
    address was given. It lands in the triage queue (no case yet).

    `client_key`, the key the resident's phone made for this report, makes a
    resend of it one report (kernel.idempotency): the same key with the same
    contents returns the report stored the first time (no second receipt); with
    other contents it is refused (KeyReused).

    Who: anyone for WEB and OPEN311 (the view checks the API key); SMO staff for
    PHONE / WALK_IN / EMAIL (`entered_by` is required for those). `photos` are
    `kernel.uploads.ProcessedImage`s (already decoded and re-encoded).
    Raises ReportRefused or KeyReused."""
    if channel not in Report.Channel.values:
        raise ReportRefused(f"Unknown channel {channel!r}.")
    if channel in STAFF_CHANNELS and entered_by is None:
        raise ReportRefused("A phone, walk-in or e-mail report needs the staff member.")
    if channel == Report.Channel.OPEN311 and api_client is None:
        raise ReportRefused("An Open311 report needs its API client.")

    def file() -> Report:
        return _file_report(
            channel=channel,
            fields=fields,
            pollutant_categories=pollutant_categories,
            photos=photos,
            entered_by=entered_by,
            api_client=api_client,
            service_code=service_code,
        )

    if not client_key:
        return file()
    sent = {
        "channel": channel,
        "fields": fields,
        "categories": sorted(c.pk for c in pollutant_categories),
        "photos": [p.original_sha256 for p in photos],
        "service_code": service_code,
    }
    return store_once(scope="report", key=client_key, content=sent, create=file)


def _file_report(
    *,
    channel,
    fields,
    pollutant_categories,
    photos,
    entered_by,
    api_client,
    service_code,
) -> Report:
    with transaction.atomic():
        report = Report(
            channel=channel,
            entered_by=entered_by if channel in STAFF_CHANNELS else None,
            api_client=api_client,
            service_code=service_code,
            **fields,
        )
        try:
            report.full_clean(exclude=["pollutant_categories", "description"])
        except ValidationError as exc:
            raise ReportRefused("; ".join(exc.messages)) from exc
        report.save()
        if pollutant_categories:
            report.pollutant_categories.set(pollutant_categories)
        if not service_code:
            # Every report has its Open311 service, stored as the Open311 list
            # decides it (the first category ticked, or "other").
            report.service_code = decided_service_code(report)
            report.save(update_fields=["service_code"])
        for photo in photos:
            ReportPhoto.objects.create(
                report=report,
                original=photo.original,
                original_sha256=photo.original_sha256,
                original_name=photo.original_name,
                display=photo.display,
                width=photo.width,
                height=photo.height,
            )
        if report.reporter_email:
            _queue_receipt(report)
    return report


def _queue_receipt(report: Report) -> None:
    context = {
        "report": report,
        "status_url": status_url(report),
        "village": settings.VILLAGE,
    }
    message_queue(
        kind=OutgoingMessage.Kind.RECEIPT,
        source=report,
        recipient=report.reporter_email,
        cause=f"Receipt of report {report.tracking_code}",
        subject=f"Your stormwater report {report.tracking_code}",
        body=render_to_string("reports/email/receipt.txt", context),
        case=report.case,
    )


def notify_reporters_of_status_change(case) -> int:
    """E-mail every opted-in reporter of `case` (and of cases merged into it)
    whose public status changed, once per status.

    cases.services calls it after every transition and triage attachment,
    inside or outside the transaction: a ReportNotification row (unique on
    report + status) and its outbox row are written together, so a repeated
    call, a concurrent call or a rolled-back transition sends nothing twice.
    Returns how many e-mails were queued. Who: any service; no permission is
    needed."""
    scheduled = 0
    # The case's reports and those of the cases merged into it (they follow it).
    reports = Report.objects.filter(
        Q(case=case) | Q(case__merged_into=case), wants_updates=True
    ).exclude(reporter_email="")
    with transaction.atomic():
        for report in reports.select_related("case", "case__merged_into"):
            status = public_status.for_report(report)
            if status.key == public_status.RECEIVED.key:
                continue  # the receipt already said "received"
            try:
                with transaction.atomic():
                    notification = ReportNotification.objects.create(
                        report=report, status=status.key
                    )
                    _queue_status_change(report, notification, status)
            except IntegrityError:
                continue  # already told about this status
            scheduled += 1
    return scheduled


def _queue_status_change(report: Report, notification, status) -> None:
    context = {
        "report": report,
        "status": status,
        "status_words": public_status.words_for_report(report),
        "status_url": status_url(report),
        "village": settings.VILLAGE,
    }
    message_queue(
        kind=OutgoingMessage.Kind.STATUS_CHANGE,
        source=notification,
        recipient=report.reporter_email,
        cause=f"Report {report.tracking_code} is now “{status.label}”",
        subject=f"Update on your stormwater report {report.tracking_code}: "
        f"{status.label}",
        body=render_to_string("reports/email/status_change.txt", context),
        case=report.case,
    )
