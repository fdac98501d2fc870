"""The annual report's pages: staff (SMO writes; the Board clerk reads) and the
public draft for comment (counts and charts only: no personal data)."""

from __future__ import annotations

from django.contrib import messages
from django.http import FileResponse, Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from documents.selectors import documents_of, latest_document
from documents.services import document_verify
from jobs.exports import Column, csv_lines
from kernel.actions import action_forms, attempt, take_step
from kernel.roles import CASE_READERS, CASE_WRITERS, has_role, role_required

from ..document_kinds import ReportingDocument
from . import services
from .charts import report_charts
from .forms import STEP_FORMS, PublicCommentForm, StaffCommentForm
from .models import AnnualReport
from .selectors import SECTIONS, annual_counts, records_of
from .year import ReportingYear, UnknownYear

DRILLDOWN_LIMIT = 2000


def _year_or_page(request, text):
    """(year, None) or (None, the 400 page saying what is wrong)."""
    try:
        return ReportingYear.parse(text), None
    except UnknownYear as exc:
        return None, render(
            request,
            "annual/bad_year.html",
            {"message": str(exc), "current": ReportingYear.current()},
            status=400,
        )


def _charts(computed_or_report, *, frozen: bool):
    if frozen:
        report = computed_or_report
        ids = report.record_ids
        return report_charts(
            report.per_month,
            report.elimination_days,
            len(ids.get("deadlines_met", [])),
            len(ids.get("deadlines_missed", [])),
        )
    counts = computed_or_report.by_key()
    return report_charts(
        computed_or_report.per_month,
        computed_or_report.elimination_days,
        counts["deadlines_met"].number,
        counts["deadlines_missed"].number,
    )


def _years(current: ReportingYear, chosen: ReportingYear) -> list[dict]:
    return [
        {
            "year": y,
            "url": reverse("annual:year", args=[y.start_year]),
            "chosen": y == chosen,
        }
        for y in (ReportingYear(current.start_year - n) for n in range(6))
    ]


@role_required(*CASE_READERS)
def index(request):
    """The current reporting year (or the year chosen in the form)."""
    chosen = request.GET.get("year")
    if chosen is not None:
        year, page = _year_or_page(request, chosen)
        if page is not None:
            return page
        return redirect("annual:year", year.start_year)
    return _year_page(request, ReportingYear.current())


@role_required(*CASE_READERS)
def year_page(request, year):
    year, page = _year_or_page(request, year)
    return page or _year_page(request, year)


def _year_page(request, year: ReportingYear):
    computed = annual_counts(year)
    return render(
        request,
        "annual/report.html",
        {
            "year": year,
            "computed": computed,
            "sections": computed.sections(),
            "charts": _charts(computed, frozen=False),
            "years": _years(ReportingYear.current(), year),
            "frozen": AnnualReport.objects.filter(year=year.start_year),
            "final": services.annual_final_of(year),
            "may_write": has_role(request.user, *CASE_WRITERS),
            "drill": True,
        },
    )


@role_required(*CASE_READERS)
def drilldown(request, year, metric):
    year, page = _year_or_page(request, year)
    if page is not None:
        return page
    computed = annual_counts(year)
    count = computed.by_key().get(metric)
    if count is None:
        raise Http404("There is no such count in the annual report.")
    return render(
        request,
        "annual/drilldown.html",
        {
            "year": year,
            "count": count,
            "records": records_of(count, limit=DRILLDOWN_LIMIT),
            "limit": DRILLDOWN_LIMIT,
            "as_of": computed.as_of,
        },
    )


# One line per count: its section, the metric's name, its value (a number a
# spreadsheet can add up) and its definition; written by the one export writer.
ANNUAL_CSV_COLUMNS = (
    Column("section", lambda line: line[0]),
    Column("metric", lambda line: line[1]),
    Column("value", lambda line: line[2]),
    Column("definition", lambda line: line[3]),
)


def _csv_response(filename: str, rows) -> HttpResponse:
    """`rows` of (section, metric, value, definition) as a CSV download."""
    body = "".join(csv_lines(ANNUAL_CSV_COLUMNS, rows, str))
    response = HttpResponse(body, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@role_required(*CASE_READERS)
def year_csv(request, year):
    year, page = _year_or_page(request, year)
    if page is not None:
        return page
    computed = annual_counts(year)
    return _csv_response(
        f"annual-report-{year}-live.csv",
        ((c.section, c.label, c.shown, c.definition) for c in computed.counts),
    )


@require_POST
@role_required(*CASE_WRITERS)
def freeze(request, year):
    year, page = _year_or_page(request, year)
    if page is not None:
        return page
    report = attempt(
        request,
        None,
        lambda: services.annual_freeze(year=year, actor=request.user),
        success=f"The report of {year} is frozen as of now; its PDF is being made.",
    )
    if report is None:
        return redirect("annual:year", year.start_year)
    return redirect(report.get_absolute_url())


# --- a frozen report ---------------------------------------------------------------


def _frozen_page(request, report, *, bound=None, comment_form=None, status=200):
    differences = services.annual_differences(report)
    documents = documents_of(report, ReportingDocument.ANNUAL_REPORT).order_by(
        "-version"
    )
    return render(
        request,
        "annual/frozen.html",
        {
            "report": report,
            "year": ReportingYear(report.year),
            "lines": services.count_lines(report),
            "section_titles": SECTIONS,
            "charts": _charts(report, frozen=True),
            "differences": differences,
            "documents": documents,
            "actions": action_forms(report, request.user, STEP_FORMS, bound=bound),
            "action_base": reverse("annual:frozen", args=[report.pk]) + "step/",
            "status": report.status,
            "comments": report.comments.all(),
            "may_write": has_role(request.user, *CASE_WRITERS),
            "may_comment": report.is_public and not report.is_final,
            "final_from": _final_from(report),
            "comment_form": comment_form or StaffCommentForm(),
        },
        status=status,
    )


def _final_from(report):
    """The day a published draft may be made final, while that is still ahead."""
    if not report.is_public or report.is_final:  # only a published draft
        return None
    if report.comment_period_closed() and report.reporting_year_ended():
        return None
    return report.may_be_final_from()


@role_required(*CASE_READERS)
def frozen(request, pk):
    return _frozen_page(request, get_object_or_404(AnnualReport, pk=pk))


@role_required(*CASE_READERS)
def frozen_csv(request, pk):
    report = get_object_or_404(AnnualReport, pk=pk)
    return _csv_response(
        f"annual-report-{report.year}-v{report.version}.csv",
        (
            (line["section"], line["label"], line["value"], line["definition"])
            for line in services.count_lines(report)
        ),
    )


def _published(report, user, data, seen):
    done = services.annual_publish(
        report=report,
        actor=user,
        opens_on=data["comment_opens_on"],
        closes_on=data["comment_closes_on"],
        seen=seen,
    )
    return done, "The draft is published for public comment on the public site."


def _finalized(report, user, data, seen):
    done = services.annual_finalize(
        report=report, actor=user, comment_summary=data["comment_summary"], seen=seen
    )
    return done, "The report is final; its PDF lists the summary of the comments."


STEP_SERVICES = {"publish": _published, "finalize": _finalized}


@require_POST
@role_required(*CASE_WRITERS)
def frozen_step(request, pk, transition):
    report = get_object_or_404(AnnualReport, pk=pk)
    return take_step(
        request,
        report,
        transition,
        STEP_FORMS,
        {
            name: lambda data, seen, call=call: call(report, request.user, data, seen)
            for name, call in STEP_SERVICES.items()
        },
        lambda bound: _frozen_page(request, report, bound=bound),
    )


@require_POST
@role_required(*CASE_WRITERS)
def comment_add(request, pk):
    report = get_object_or_404(AnnualReport, pk=pk)
    form = StaffCommentForm(request.POST)
    done = attempt(
        request,
        form,
        lambda: services.annual_comment_record(
            report=report,
            actor=request.user,
            received_on=form.cleaned_data["received_on"],
            text=form.cleaned_data["text"],
            commenter=form.cleaned_data["commenter"],
        ),
        success="Comment recorded.",
    )
    if done is None:
        return _frozen_page(request, report, comment_form=form)
    return redirect(report.get_absolute_url())


# --- the public pages -------------------------------------------------------------------


def _public_reports():
    return [
        r for r in AnnualReport.objects.order_by("-year", "-version") if r.is_public
    ]


def public_list(request):
    return render(request, "annual/public_list.html", {"reports": _public_reports()})


def _public_report(pk) -> AnnualReport:
    report = get_object_or_404(AnnualReport, pk=pk)
    if not report.is_public:
        raise Http404("No such published report.")
    return report


def public_detail(request, pk, *, form=None, status=200):
    report = _public_report(pk)
    return render(
        request,
        "annual/public_detail.html",
        {
            "report": report,
            "year": ReportingYear(report.year),
            "lines": services.count_lines(report),
            "section_titles": SECTIONS,
            "charts": _charts(report, frozen=True),
            "takes_comments": report.takes_comments(),
            "form": form or PublicCommentForm(),
            "has_pdf": _public_pdf(report) is not None,
        },
        status=status,
    )


def _public_pdf(report):
    document = latest_document(report, ReportingDocument.ANNUAL_REPORT)
    if document is None or not document.is_issued:
        return None
    return document


def public_pdf(request, pk):
    report = _public_report(pk)
    document = _public_pdf(report)
    if document is None:
        raise Http404("The PDF is being made; try again in a minute.")
    matches, _ = document_verify(document)
    if not matches:
        raise Http404("The PDF is not available.")
    response = FileResponse(
        document.pdf.open("rb"),
        as_attachment=False,
        filename=f"annual-report-{report.year}.pdf",
        content_type="application/pdf",
    )
    response["X-Document-SHA256"] = document.sha256
    return response


@require_POST
def public_comment(request, pk):
    from limits import ratelimit

    report = _public_report(pk)
    form = PublicCommentForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Please correct the errors below.")
        return public_detail(request, pk, form=form, status=400)
    if form.cleaned_data.get("website"):
        # a robot filled the field no person sees: thanked, nothing stored
        messages.success(request, "Thank you: your comment was received.")
        return redirect("public_annual:detail", pk)
    if not ratelimit.hit(ratelimit.REPORT_SUBMIT, request, subject="annual-comment"):
        messages.error(request, "Too many comments from here; please try again later.")
        return public_detail(request, pk, form=form, status=429)
    done = attempt(
        request,
        form,
        lambda: services.annual_comment_record(
            report=report,
            actor=None,
            received_on=timezone.localdate(),
            text=form.cleaned_data["text"],
            channel="public_form",
        ),
        success="Thank you: your comment was received and will be considered.",
    )
    if done is None:
        return public_detail(request, pk, form=form, status=400)
    return redirect("public_annual:detail", pk)
