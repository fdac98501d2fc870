"""The triage queue: turn reports into a case, add them to one, or close a report
without investigating it (unfounded, exempt, referred, duplicate: cases.triage).
The report's own staff page (`report_detail`) offers the same closing forms."""

from dataclasses import dataclass, field

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import (
    require_GET,
    require_http_methods,
    require_POST,
)

from intake import public_status
from intake import selectors as report_selectors
from intake.models import Report
from kernel.actions import attempt
from kernel.roles import (
    CASE_READERS,
    CASE_WRITERS,
    Role,
    has_role,
    may_read_originals,
    role_required,
)

from .. import selectors, services
from ..forms import (
    TRIAGE_CLOSE_FORMS,
    TriageDuplicateForm,
    TriageExemptForm,
    TriageForm,
)
from ..models import Case

PAGE_SIZE = 25
BACK_TO_REPORT = "report"


@dataclass
class TriageRow:
    """A queued report as the triage page and the report page show it: its
    duplicate suggestions and one closing form per outcome (`open`: the one the
    user just sent with a mistake, shown unfolded)."""

    report: Report
    suggestions: list
    forms: dict = field(default_factory=dict)
    open: str = ""

    @property
    def close_forms(self) -> list:
        return list(self.forms.values())


def triage_row(report, suggestions, candidates, categories, *, bound=None) -> TriageRow:
    """The closing forms of `report` (no query: `candidates` and `categories`
    are read once per page); `bound`, a bound form of it, replaces its outcome's
    unbound one (the user's input and the errors kept)."""
    row = TriageRow(report, suggestions)
    for outcome, form_class in TRIAGE_CLOSE_FORMS.items():
        if bound is not None and bound.outcome == outcome:
            row.forms[outcome] = bound
            row.open = outcome
            continue
        row.forms[outcome] = form_class(
            **_form_kwargs(form_class, report, suggestions, candidates, categories)
        )
    return row


def _form_kwargs(form_class, report, suggestions, candidates, categories) -> dict:
    kwargs = {"report": report}
    if form_class is TriageDuplicateForm:
        kwargs["choices"] = selectors.duplicate_choices(suggestions, candidates)
    if form_class is TriageExemptForm:
        kwargs["categories"] = categories
    return kwargs


def _triage_page(request, *, form=None, bound=None, status=200):
    form = form or TriageForm()
    page = Paginator(selectors.triage_queue(), PAGE_SIZE).get_page(
        request.GET.get("page") or request.POST.get("page")
    )
    candidates = selectors.duplicate_candidates()
    categories = TriageExemptForm.page_categories()
    rows = []
    for report in page.object_list:
        suggestions = selectors.duplicate_suggestions(report, candidates)
        mine = bound if bound is not None and bound.report.pk == report.pk else None
        rows.append(triage_row(report, suggestions, candidates, categories, bound=mine))
    return render(
        request,
        "cases/triage.html",
        {
            "form": form,
            "page": page,
            "rows": rows,
            "selected": {str(pk) for pk in request.POST.getlist("reports")},
        },
        status=status,
    )


@role_required(*CASE_WRITERS)
@require_http_methods(["GET", "POST"])
def triage(request):
    form = TriageForm(request.POST or None)
    if request.method == "POST":

        def file_the_reports():
            data = form.cleaned_data
            if data["action"] == "new":
                case = services.case_open_from_reports(
                    reports=list(data["reports"]),
                    actor=request.user,
                    summary=data["summary"],
                    kind=data["kind"] or Case._meta.get_field("kind").default,
                )
                return case, f"Case {case.number} opened."
            case = services.case_attach_reports(
                case=data["case"], reports=list(data["reports"]), actor=request.user
            )
            return case, f"Reports added to {case.number}."

        done = attempt(request, form, file_the_reports)
        if done is not None:
            case, words = done
            messages.success(request, words)
            return redirect(case.get_absolute_url())
    return _triage_page(request, form=form)


@role_required(*CASE_READERS)
@require_GET
def report_detail(request, pk):
    """A report's own staff page (reports:detail)."""
    report = report_selectors.report_for_staff(pk)
    if report is None:
        raise Http404("No such report.")
    return report_page(request, report)


def report_page(request, report, *, bound=None, status=200):
    """A report's own staff page; while it waits in the queue, SMO staff get the
    triage page's closing forms for it and a way back to the queue."""
    is_smo = has_role(request.user, Role.SMO)
    row = None
    if is_smo and report.in_triage_queue:
        candidates = selectors.duplicate_candidates()
        suggestions = selectors.duplicate_suggestions(report, candidates)
        categories = TriageExemptForm.page_categories()
        row = triage_row(report, suggestions, candidates, categories, bound=bound)
    return render(
        request,
        "reports/staff_detail.html",
        {
            "report": report,
            "status": public_status.for_report(report),
            "status_words": public_status.words_for_report(report),
            "can_see_originals": may_read_originals(request.user),
            "row": row,
            "back": BACK_TO_REPORT,
        },
        status=status,
    )


CLOSED_WORDS = {
    "unfounded": "closed as unfounded",
    "exempt": "closed as an exempt discharge",
    "referred": "referred to {agency}",
    "duplicate": "closed as a duplicate of {target}",
}


@role_required(Role.SMO)
@require_POST
def triage_close(request, pk, outcome):
    """Close one report at triage; from the triage page or the report's own page
    (`back`), answered on the same page: the form's mistakes on its fields with
    the input kept, or back to where the user was with what was done."""
    form_class = TRIAGE_CLOSE_FORMS.get(outcome)
    report = report_selectors.report_for_staff(pk)
    if form_class is None or report is None:
        raise Http404("No such report or outcome.")
    back_to_report = request.POST.get("back") == BACK_TO_REPORT
    report_url = reverse("reports:detail", args=[report.pk])
    if not report.in_triage_queue:
        messages.error(
            request,
            f"Report {report.tracking_code} is no longer in the triage queue "
            "(someone else triaged it).",
        )
        return redirect(report_url)
    candidates = selectors.duplicate_candidates()
    form = form_class(
        request.POST,
        **_form_kwargs(
            form_class,
            report,
            selectors.duplicate_suggestions(report, candidates),
            candidates,
            TriageExemptForm.page_categories(),
        ),
    )
    case = attempt(request, form, lambda: form.perform(actor=request.user))
    if case is not None:
        words = CLOSED_WORDS[outcome].format(
            agency=case.referred_to,
            target=getattr(case.merged_into, "number", ""),
        )
        messages.success(
            request,
            f"Report {report.tracking_code} {words} (recorded on case {case.number}).",
        )
        return redirect(report_url if back_to_report else reverse("cases:triage"))
    if back_to_report:
        return report_page(request, report, bound=form, status=400)
    return _triage_page(request, bound=form, status=400)
