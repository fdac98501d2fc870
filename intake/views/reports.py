"""Resident reports: the public form and status page, staff entry of phone and
walk-in reports, the triage list and the photo views (the only way any uploaded
report photo is ever served). A report's own staff page is triage's
(cases.views.triage.report_detail)."""

from django.conf import settings
from django.contrib import messages
from django.http import FileResponse, Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods

from jobs import exports
from kernel.actions import attempt
from kernel.idempotency import is_key
from kernel.roles import CASE_READERS, ORIGINAL_READERS, Role, role_required
from kernel.uploads import display_response
from limits import ratelimit

from .. import public_status, selectors
from ..exports import REPORTS
from ..forms import BOUNDS, CENTRE, ReportForm, StaffReportForm
from ..models import Report, ReportPhoto
from ..services import report_submit

SESSION_LAST_CODE = "reports.last_tracking_code"


def _client_key(request) -> str:
    """The key the phone made for this report (static/js/report-form.js), or
    "" (no script ran, or what came is not a key: the report is stored without)."""
    raw = request.POST.get("client_key", "")
    return raw if is_key(raw) else ""


def _form_context(form, *, client_key="", **extra):
    return {
        "form": form,
        # Echoed while nothing was stored, so pressing "Send" again is the same
        # report; empty after a refusal (the page makes a new one).
        "client_key": client_key,
        "hazard_selected": form.hazard_selected,
        "map": {
            "tile_url": settings.MAP_TILE_URL,
            "centre": CENTRE,
            "bounds": BOUNDS,
        },
        **extra,
    }


def _submit(request, form, *, channel, client_key, entered_by=None):
    """Call the service; a refusal becomes a form error with the input kept."""
    return attempt(
        request,
        form,
        lambda: report_submit(
            channel=channel,
            fields=form.report_fields(),
            pollutant_categories=form.cleaned_data["pollutant_categories"],
            photos=form.cleaned_data["photos"],
            entered_by=entered_by,
            client_key=client_key,
        ),
    )


@require_http_methods(["GET", "POST"])
def report_new(request):
    """The resident's report form (no account)."""
    if request.method == "GET":
        return render(request, "public/report_form.html", _form_context(ReportForm()))
    form = ReportForm(request.POST, request.FILES)
    key = _client_key(request)
    if not ratelimit.hit(ratelimit.REPORT_SUBMIT, request):
        form.is_valid()  # keep and show the input as typed
        form.errors.clear()
        form.add_error(
            None,
            "Too many reports have come from your connection in a short time. "
            f"Please wait about {ratelimit.REPORT_SUBMIT.minutes} minutes, or call "
            f"the office at {settings.VILLAGE['smo_phone']}.",
        )
        return render(
            request,
            "public/report_form.html",
            _form_context(form, client_key=key, rate_limited=True),
            status=429,
        )
    if form.is_valid():
        report = _submit(request, form, channel=Report.Channel.WEB, client_key=key)
        if report is not None:
            request.session[SESSION_LAST_CODE] = report.tracking_code
            return redirect("public:report_done")
        key = ""  # refused: the next sending is a new report
    return render(
        request,
        "public/report_form.html",
        _form_context(form, client_key=key),
        status=400,
    )


@require_GET
def report_service_worker(request):
    """The report form's service worker: it sends the reports kept on the
    phone when the signal returns with the form closed (background sync).
    Public: it names only static files and the form's address."""
    response = render(
        request,
        "public/report_sw.js",
        {"form_url": reverse("public:report")},
        content_type="text/javascript; charset=utf-8",
    )
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def report_done(request):
    """The tracking code and what happens next (code kept out of the URL)."""
    code = request.session.get(SESSION_LAST_CODE)
    report = selectors.report_by_tracking_code(code) if code else None
    if report is None:
        return redirect("public:report")
    return render(request, "public/report_done.html", {"report": report})


@require_GET
def status(request):
    """The public status page: plain-language status and shared notes only."""
    raw = request.GET.get("code", "").strip()
    context = {"code": raw[:40]}
    if not raw:
        return render(request, "public/status.html", context)
    if not ratelimit.hit(ratelimit.STATUS_LOOKUP, request):
        context["rate_limited"] = True
        return render(request, "public/status.html", context, status=429)
    report = selectors.report_by_tracking_code(raw)
    if report is None:
        context["not_found"] = True
        return render(request, "public/status.html", context, status=404)
    context.update(
        report=report,
        status=public_status.for_report(report),
        status_words=public_status.words_for_report(report),
        updates=selectors.public_updates(report),
        categories=[c.plain_name for c in report.pollutant_categories.all()],
    )
    return render(request, "public/status.html", context)


# --- staff ---------------------------------------------------------------------
@role_required(Role.SMO)
@require_http_methods(["GET", "POST"])
def staff_report_new(request):
    """SMO staff enter a phone, walk-in or e-mail report on a caller's behalf."""
    key = ""
    if request.method == "POST":
        form = StaffReportForm(request.POST, request.FILES)
        key = _client_key(request)
        if form.is_valid():
            report = _submit(
                request,
                form,
                channel=form.cleaned_data["channel"],
                client_key=key,
                entered_by=request.user,
            )
            if report is not None:
                messages.success(
                    request,
                    f"Report {report.tracking_code} entered; it is in the triage "
                    "queue. Give the caller the tracking code.",
                )
                return redirect("reports:detail", pk=report.pk)
            key = ""  # refused: the next sending is a new report
        status_code = 400
    else:
        form = StaffReportForm()
        status_code = 200
    return render(
        request,
        "reports/staff_entry.html",
        _form_context(form, client_key=key),
        status=status_code,
    )


@role_required(Role.SMO)
@require_GET
def staff_report_list(request):
    """Reports waiting in the triage queue, from every channel."""
    return render(
        request,
        "reports/staff_list.html",
        {
            "reports": selectors.reports_in_triage(),
            "export_links": exports.export_links(request, "reports:export"),
        },
    )


REPORTS_EXPORT = exports.ListExport(
    name="reports-awaiting-triage",
    title="Reports awaiting triage",
    columns=REPORTS,
    rows=lambda request: selectors.reports_in_triage(),
    roles=(Role.SMO,),
)


@role_required(*REPORTS_EXPORT.roles)
@require_GET
def staff_report_export(request, fmt):
    """The reports awaiting triage, as the list shows them, as CSV or XLSX."""
    return exports.export_list(request, REPORTS_EXPORT, fmt)


@role_required(*CASE_READERS)
@require_GET
def photo_display(request, pk):
    """The re-encoded copy (no metadata) for staff who may read cases."""
    photo = ReportPhoto.objects.filter(pk=pk).first()
    if photo is None:
        raise Http404("No such photo.")
    return display_response(photo)


@role_required(*ORIGINAL_READERS)
@require_GET
def photo_original(request, pk):
    """The original bytes as evidence, for SMO staff only; always a download
    (never rendered by the browser), whatever the file contains."""
    photo = ReportPhoto.objects.filter(pk=pk).first()
    if photo is None:
        raise Http404("No such photo.")
    response = FileResponse(
        photo.original.open("rb"),
        content_type="application/octet-stream",
        as_attachment=True,
        filename=f"report-{photo.report_id}-photo-{photo.pk}-original",
    )
    response["Cache-Control"] = "private, no-store"
    response["X-Original-SHA256"] = photo.original_sha256
    return response
