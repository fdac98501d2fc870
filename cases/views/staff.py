"""Staff pages of the case lifecycle: dashboard, triage, case list, case page and
the forms that change a case. Each view checks the role (kernel.roles), binds a
form, calls one service and turns domain errors into messages."""

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import FileResponse, Http404, HttpResponseNotAllowed
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods

from jobs import exports
from kernel import page_reads
from kernel.actions import attempt, refusal_html, step_custom, with_confirmation
from kernel.confirmations import confirm_text, is_binding
from kernel.paging import IdsFirstPaginator, OnePassPaginator, query_without_page
from kernel.roles import CASE_READERS, CASE_WRITERS, Role, has_role, role_required
from kernel.workflow import Refused, reasons_not

from .. import selectors, services
from ..exports import CASES
from ..forms import (
    TRANSITION_FORMS,
    AttachmentForm,
    CaseDetailsForm,
    CaseFilterForm,
    CaseOpenForm,
    NoteForm,
    PartyDetailsForm,
    PartyForm,
    ReferralOutcomeForm,
)
from ..models import Attachment, Case
from ..services import SAFE_INLINE_TYPES

PAGE_SIZE = 25


def _case_or_404(number: str) -> Case:
    try:
        return selectors.case_by_number(number)
    except Case.DoesNotExist:
        raise Http404(f"No case {number}") from None


def _case_url(case: Case) -> str:
    return reverse("cases:detail", args=[case.number])


def _refreshed(form_class, request, current: Case, **kwargs):
    """The user's input kept, with the hidden guards set to what the case is now,
    so a second submit is a deliberate decision on the current case."""
    data = request.POST.copy()
    data["expected_status"] = current.status
    data["expected_version"] = current.version
    return form_class(data, request.FILES or None, **kwargs)


@role_required(*Role)
def dashboard(request):
    context = selectors.dashboard_for(request.user)
    return render(request, "cases/dashboard.html", context)


@role_required(*CASE_WRITERS)
@require_http_methods(["GET", "POST"])
def case_new(request):
    form = CaseOpenForm(request.POST or None)
    if request.method == "POST":
        case = attempt(
            request,
            form,
            lambda: services.case_open(
                actor=request.user,
                source=form.cleaned_data["source"],
                **form.service_fields(),
            ),
        )
        if case is not None:
            messages.success(request, f"Case {case.number} opened.")
            return redirect(_case_url(case))
    return render(
        request, "cases/case_form.html", {"form": form, "title": "Open a case"}
    )


# --- list and page -------------------------------------------------------------------
def case_list_filtered(request):
    """The case list's filter form and the cases it selects, in the list's order:
    the one reading of the filters for the page and its exports. A malformed
    filter selects no filter (the form says what is wrong)."""
    form = CaseFilterForm(request.GET or None)
    filters = {}
    if form.is_valid():
        data = form.cleaned_data
        filters = {
            "q": data["q"],
            "status": data["status"],
            "kind": data["kind"],
            "officer": data["officer"],
            "opened_from": data["opened_from"],
            "opened_to": data["opened_to"],
        }
    return form, selectors.case_search(**filters)


@role_required(*CASE_READERS)
@require_http_methods(["GET"])
def case_list(request):
    form, cases = case_list_filtered(request)
    # Search text is matched over five tables: evaluated once for the count and
    # the page (kernel.paging.OnePassPaginator); plain filters are index-served.
    searched = form.is_valid() and form.cleaned_data["q"].strip()
    paginator = OnePassPaginator if searched else IdsFirstPaginator
    page = paginator(cases, PAGE_SIZE, rows=selectors.case_list_rows()).get_page(
        request.GET.get("page")
    )
    return render(
        request,
        "cases/case_list.html",
        {
            "form": form,
            "page": page,
            "query": query_without_page(request),
            "export_links": exports.export_links(request, "cases:export"),
        },
    )


def case_export_rows(request):
    form, cases = case_list_filtered(request)
    if form.is_bound and not form.is_valid():
        return None
    return cases


CASES_EXPORT = exports.ListExport(
    name="cases",
    title="Cases",
    columns=CASES,
    rows=case_export_rows,
    roles=CASE_READERS,
    list_url="cases:list",
)


@role_required(*CASES_EXPORT.roles)
@require_http_methods(["GET"])
def case_export(request, fmt):
    """Every case the filtered list shows (all its pages), as CSV or XLSX."""
    return exports.export_list(request, CASES_EXPORT, fmt)


@role_required(*CASE_READERS)
def case_detail(request, number):
    if request.method != "GET":
        if not has_role(request.user, *CASE_WRITERS):
            raise PermissionDenied("Your role can read cases but not change them.")
        return HttpResponseNotAllowed(["GET"])
    # A read-only page: its panels and guards share their reads of the case.
    case = page_reads.share(_case_or_404(number))
    can_write = has_role(request.user, *CASE_WRITERS)
    chronology = selectors.case_timeline_page(
        case, show_all=request.GET.get("chronology") == "all"
    )
    return render(
        request,
        "cases/case_detail.html",
        {
            "case": case,
            "can_write": can_write,
            "transitions": services.available_transitions(case, request.user),
            "chronology": chronology,
            "timeline": chronology["events"],
            "parties": selectors.case_parties(case),
            "reports": selectors.case_reports(case),
            "attachments": selectors.case_attachments(case),
            "notes_form": NoteForm() if can_write else None,
            "outcome_form": (
                ReferralOutcomeForm(initial={"expected_version": case.version})
                if can_write and case.awaiting_referral_outcome
                else None
            ),
        },
    )


# --- writes on one case ------------------------------------------------------------------
@role_required(*CASE_WRITERS)
@require_http_methods(["GET", "POST"])
def case_transition(request, number, transition):
    """One step of the case's state machine: its form, then the step."""
    case = _case_or_404(number)
    form_class = TRANSITION_FORMS.get(transition)
    if form_class is None:
        raise Http404("No such action.")
    custom = step_custom(case, transition)
    if is_binding(custom):  # the "I confirm: …" box, checked by the form
        form_class = with_confirmation(form_class, confirm_text(case, custom))
    offered = {a.name: a for a in services.available_transitions(case, request.user)}
    action = offered.get(transition)
    if request.method == "GET" and (action is None or not action.enabled):
        refusal = Refused(
            *reasons_not(case, transition, request.user, only_preconditions=True)
        )
        messages.error(request, refusal_html(refusal))
        return redirect(_case_url(case))
    form = form_class(request.POST or None, case=case, transition=transition)
    if request.method == "POST":
        changed = []
        done = attempt(
            request,
            form,
            lambda: form.perform(actor=request.user),
            on_changed=lambda: changed.append(True),
        )
        if changed:  # the user's input kept, the guards set to the case as it is now
            case = _case_or_404(number)
            form = _refreshed(
                form_class, request, case, case=case, transition=transition
            )
        if done is not None:
            case.refresh_from_db()
            messages.success(
                request,
                f"{action.label if action else transition}: case {case.number} "
                f"is now “{case.get_status_display()}”.",
            )
            return redirect(_case_url(case))
    label = action.label if action is not None else transition
    return render(
        request,
        "cases/transition_form.html",
        {"case": case, "form": form, "label": label, "transition": transition},
    )


@role_required(*CASE_WRITERS)
@require_http_methods(["GET", "POST"])
def case_edit(request, number):
    case = _case_or_404(number)
    form = CaseDetailsForm.for_case(case, request.POST or None)
    if request.method == "POST":

        def changed():
            nonlocal case, form
            case = _case_or_404(number)
            form = _refreshed(CaseDetailsForm, request, case)

        saved = attempt(
            request,
            form,
            lambda: services.case_update_details(
                case=case,
                actor=request.user,
                expected_version=form.cleaned_data["expected_version"],
                **form.service_fields(),
            ),
            on_changed=changed,
        )
        if saved is not None:
            messages.success(request, "Case details saved.")
            return redirect(_case_url(case))
    return render(
        request,
        "cases/case_form.html",
        {"form": form, "case": case, "title": f"Edit {case.number}"},
    )


@role_required(*CASE_WRITERS)
@require_http_methods(["GET", "POST"])
def party_add(request, number):
    case = _case_or_404(number)
    # A page that asks for a party of one role links here with ?role=owner.
    form = PartyForm(request.POST or None, initial={"role": request.GET.get("role")})
    if request.method == "POST":
        added = attempt(
            request,
            form,
            lambda: services.case_add_party(
                case=case,
                actor=request.user,
                role=form.cleaned_data["role"],
                party=form.cleaned_data["party"],
                new_party=form.new_party(),
            ),
        )
        if added is not None:
            messages.success(request, "Party added.")
            return redirect(_case_url(case))
    return render(
        request,
        "cases/record_form.html",
        {"form": form, "case": case, "title": "Name a party"},
    )


@role_required(*CASE_WRITERS)
@require_http_methods(["GET", "POST"])
def party_edit(request, number, pk):
    """A named party's details (the mailing address a notice needs, R-NOV-1).
    `next`, a page of this site, is where to go back to (the notice that asked)."""
    case = _case_or_404(number)
    party = get_object_or_404(selectors.parties_of_case(case), pk=pk)
    title = f"Edit party: {party.name}"
    form = PartyDetailsForm(request.POST or None, instance=party)
    if request.method == "POST":
        saved = attempt(
            request,
            form,
            lambda: services.party_update_details(
                case=case, party=party, actor=request.user, **form.changed_fields()
            ),
        )
        if saved is not None:
            messages.success(request, f"Party details saved: {saved.name}.")
            back = request.GET.get("next", "")
            if not url_has_allowed_host_and_scheme(
                back, allowed_hosts={request.get_host()}, require_https=False
            ):
                back = _case_url(case)
            return redirect(back)
    return render(
        request,
        "cases/record_form.html",
        {"form": form, "case": case, "title": title},
    )


@role_required(*CASE_WRITERS)
@require_http_methods(["GET", "POST"])
def note_add(request, number):
    case = _case_or_404(number)
    form = NoteForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        services.note_add(
            case=case,
            actor=request.user,
            text=form.cleaned_data["text"],
            public=form.cleaned_data["public"],
        )
        messages.success(request, "Note added.")
        return redirect(_case_url(case))
    return render(
        request,
        "cases/record_form.html",
        {"form": form, "case": case, "title": "Add a note"},
    )


@role_required(*CASE_WRITERS)
@require_http_methods(["GET", "POST"])
def attachment_add(request, number):
    case = _case_or_404(number)
    form = AttachmentForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        services.attachment_add(
            case=case,
            actor=request.user,
            upload=form.cleaned_data["file"],
            description=form.cleaned_data["description"],
        )
        messages.success(request, "Attachment stored.")
        return redirect(_case_url(case))
    return render(
        request,
        "cases/record_form.html",
        {"form": form, "case": case, "title": "Add an attachment", "multipart": True},
    )


@role_required(*CASE_READERS)
@require_http_methods(["GET"])
def attachment_download(request, number, pk):
    attachment = get_object_or_404(
        Attachment.objects.select_related("case"), pk=pk, case__number__iexact=number
    )
    safe = attachment.content_type in SAFE_INLINE_TYPES
    response = FileResponse(
        attachment.file.open("rb"),
        as_attachment=not safe,
        filename=attachment.original_name,
        content_type=attachment.content_type if safe else "application/octet-stream",
    )
    response["X-Content-Type-Options"] = "nosniff"
    response["Cache-Control"] = "private, no-store"
    return response


@role_required(*CASE_WRITERS)
@require_http_methods(["POST"])
def referral_outcome(request, number):
    case = _case_or_404(number)
    form = ReferralOutcomeForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Describe what the agency did.")
        return redirect(_case_url(case))
    recorded = attempt(
        request,
        None,
        lambda: services.case_record_referral_outcome(
            case=case,
            actor=request.user,
            outcome=form.cleaned_data["outcome"],
            expected_version=form.cleaned_data["expected_version"],
        ),
    )
    if recorded is not None:
        messages.success(request, "Referral outcome recorded.")
    return redirect(_case_url(case))
