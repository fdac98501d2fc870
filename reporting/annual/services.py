"""Freezing, publishing and finishing the annual report; recording comments.

Every write goes through here: a report is frozen from `selectors.annual_counts`
(its counts and the ids of their records, as of a moment), its PDF issued
through the document pipeline (a new version at each step, superseding the
last), its status changed only by its state machine through the workflow
kernel (`kernel.workflow.run`, which writes the chronology event)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from kernel.humanize import human_datetime, human_long_date
from kernel.models import CaseEvent
from kernel.roles import Role, require_role
from kernel.workflow import Reason, Refused, refusal_text, run

from ..document_kinds import ReportingDocument
from .models import AnnualReport, AnnualReportComment, AnnualReportStatus
from .selectors import AnnualCounts, annual_counts
from .year import ReportingYear

COMMENT_MAX = 4000


def count_lines(report: AnnualReport) -> list[dict]:
    """The frozen counts of `report` with their words (the words are today's
    definitions; the numbers are as frozen)."""
    from .selectors import Count

    template = annual_counts_template(ReportingYear(report.year))
    lines = []
    for count in template:
        value = report.counts.get(count.key)
        ids = report.record_ids.get(count.key, [])
        shown = Count(
            count.key,
            count.section,
            count.label,
            count.definition,
            count.model,
            source=list(ids),
            value=_restore(value, count),
            unit=count.unit,
        ).shown_text
        lines.append(
            {
                "key": count.key,
                "section": count.section,
                "label": count.label,
                "definition": count.definition,
                "shown": shown,
                "value": len(ids) if value is None else value,
            }
        )
    return lines


def _restore(value, count):
    from decimal import Decimal

    if value is None:
        return None
    if isinstance(count.value, Decimal):
        return Decimal(str(value))
    if isinstance(count.value, float):
        return float(value)
    return value


_TEMPLATE_CACHE: dict = {}


def annual_counts_template(year: ReportingYear):
    """The counts' keys and words (computed over an empty moment: the year
    before anything was recorded), in report order."""
    return annual_counts(year, as_of=year.start - dt.timedelta(seconds=1)).counts


# --- freezing -----------------------------------------------------------------------


def annual_freeze(*, year: ReportingYear, actor, as_of: dt.datetime | None = None):
    """Freeze the report of `year` as computed now (or at `as_of`): a new version
    with its counts and record ids, and its PDF issued. Who: SMO staff.
    Raises Refused."""
    require_role(actor, Role.SMO, doing="freeze the annual report")
    if annual_final_of(year) is not None:
        raise Refused(
            f"The report of {year} is final: it is not frozen again.",
        )
    as_of = as_of or timezone.now()
    computed = annual_counts(year, as_of)
    values, ids = computed.frozen()
    with transaction.atomic():
        # one version at a time per year (the row lock of the year's last version)
        last = (
            AnnualReport.objects.select_for_update()
            .filter(year=year.start_year)
            .aggregate(v=Max("version"))["v"]
        )
        report = AnnualReport.objects.create(
            year=year.start_year,
            version=(last or 0) + 1,
            as_of=as_of,
            counts=values,
            record_ids=ids,
            per_month=computed.per_month,
            elimination_days=computed.elimination_days,
            created_by=actor,
        )
        _record(report, actor, f"Annual report {year} frozen as of {_when(as_of)}")
        annual_issue_document(report=report, actor=actor)
    return report


def annual_final_of(year: ReportingYear) -> AnnualReport | None:
    """The final version of `year`'s report, if one was made final."""
    return AnnualReport.objects.filter(
        year=year.start_year, status=AnnualReportStatus.FINAL
    ).first()


def _when(moment) -> str:
    return human_datetime(moment)


def _record(report, actor, summary: str, *, by=CaseEvent.ActorKind.SYSTEM) -> None:
    from kernel.timeline import record_event

    record_event(
        case=None,
        actor=actor,
        by=by,
        kind="document",
        summary=summary,
        subject=report,
    )


def annual_issue_document(*, report: AnnualReport, actor):
    """Issue the PDF of `report` as it stands (frozen, published or final): a new
    version of the document superseding the last one. Who: SMO staff."""
    from documents import services as documents
    from documents.selectors import latest_document

    latest = latest_document(report, ReportingDocument.ANNUAL_REPORT)
    if latest is not None and not latest.is_issued:
        raise documents.DocumentError(
            "The PDF of the report's last step is still being made; try again in "
            "a minute."
        )
    return documents.document_issue(
        kind=ReportingDocument.ANNUAL_REPORT,
        facts=_facts(report),
        case=None,
        source=report,
        actor=actor,
        supersedes=latest if latest is not None and latest.is_issued else None,
    )


def _facts(report):
    from .documents import annual_facts

    return annual_facts(report)


# --- publishing and finishing ---------------------------------------------------------


def annual_publish(
    *, report: AnnualReport, actor, opens_on: dt.date, closes_on: dt.date, seen=None
) -> AnnualReport:
    """Publish a frozen report as the draft for public comment, with its comment
    period; the public site lists it. Who: SMO staff. Raises Refused."""
    with transaction.atomic():
        published = run(
            report,
            "publish",
            actor=actor,
            fields={"comment_opens_on": opens_on, "comment_closes_on": closes_on},
            expected_status=seen,
            event_kind="document",
        )
        annual_issue_document(report=published, actor=actor)
    return published


def annual_finalize(
    *, report: AnnualReport, actor, comment_summary: str, seen=None
) -> AnnualReport:
    """Make a published draft final, with the summary of the comments received:
    only once its comment period has closed and its reporting year has ended.
    Who: SMO staff. Raises Refused (saying from which day it becomes possible)."""
    try:
        with transaction.atomic():
            final = run(
                report,
                "finalize",
                actor=actor,
                fields={"comment_summary": comment_summary.strip()},
                expected_status=seen,
                event_kind="document",
            )
            annual_issue_document(report=final, actor=actor)
    except Refused as exc:
        raise _with_first_day(exc, report) from exc
    return final


def _with_first_day(exc: Refused, report: AnnualReport) -> Refused:
    """The refusal, with the day the report may be made final when waiting is
    what stops it."""
    waiting = {
        refusal_text(AnnualReport.comment_period_closed),
        refusal_text(AnnualReport.reporting_year_ended),
    }
    first_day = report.may_be_final_from()
    if first_day is None or not waiting & {r.text for r in exc.reasons}:
        return exc
    return Refused(
        *exc.reasons,
        Reason(f"it can be made final from {human_long_date(first_day)}"),
        lead=exc.lead,
    )


def annual_comment_record(
    *,
    report: AnnualReport,
    actor,
    received_on: dt.date,
    text: str,
    commenter: str = "",
    channel: str = AnnualReportComment.Channel.STAFF,
) -> AnnualReportComment:
    """Record a comment received on a published draft, with the date received.
    Who: SMO staff, or a member of the public through the public form (`actor`
    None, channel public_form) while the comment period is open.
    Raises ValidationError."""
    if channel == AnnualReportComment.Channel.STAFF:
        require_role(actor, Role.SMO, doing="record a comment")
    text = (text or "").strip()
    problems = {}
    if not text:
        problems["text"] = "Write the comment."
    elif len(text) > COMMENT_MAX:
        problems["text"] = f"A comment is at most {COMMENT_MAX} characters."
    if not report.is_public:
        problems["__all__"] = "Comments are taken on a published draft only."
    today = timezone.localdate()
    if received_on is None or received_on > today:
        problems["received_on"] = (
            "Give the day the comment was received (not later than today)."
        )
    if channel == AnnualReportComment.Channel.PUBLIC_FORM and not (
        report.takes_comments(today)
    ):
        problems["__all__"] = "The comment period of this draft is not open."
    if problems:
        raise Refused.invalid(problems)
    with transaction.atomic():
        comment = AnnualReportComment.objects.create(
            report=report,
            received_on=received_on,
            text=text,
            commenter=(commenter or "").strip()[:120],
            channel=channel,
            recorded_by=actor if getattr(actor, "is_authenticated", False) else None,
        )
        _record(
            report,
            actor,
            f"Comment of {human_long_date(received_on)} recorded on {report}",
            by=CaseEvent.ActorKind.PUBLIC,
        )
    return comment


# --- what changed since ------------------------------------------------------------------


@dataclass
class Difference:
    key: str
    label: str
    was: object
    now: object
    added: list[int]
    removed: list[int]
    model: str


def annual_differences(
    report: AnnualReport, computed: AnnualCounts | None = None
) -> list[Difference]:
    """Each count whose value or records differ between the frozen `report`
    and the report computed again now (or `computed`): the records added to and
    removed from the count (a record of that year corrected, or recorded late)."""
    computed = computed or annual_counts(ReportingYear(report.year))
    out = []
    for count in computed.counts:
        was_ids = set(report.record_ids.get(count.key, []))
        now_ids = set(count.ids)
        was_value = report.counts.get(count.key)
        now_value = count.as_json()["value"]
        if was_ids == now_ids and was_value == now_value:
            continue
        out.append(
            Difference(
                key=count.key,
                label=count.label,
                was=len(was_ids) if was_value is None else was_value,
                now=len(now_ids) if now_value is None else now_value,
                added=sorted(now_ids - was_ids),
                removed=sorted(was_ids - now_ids),
                model=count.model,
            )
        )
    return out
