"""Inspections and warrant applications (R-ACC-1 to R-ACC-4)."""

from django.contrib import messages
from django.http import FileResponse, Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html
from django.views.decorators.http import require_POST

from cases.models import Case
from cases.roles import Role, has_role

from .. import forms, selectors, services
from ..forms import smo_officers
from ..models import (
    Inspection,
    InspectionPhoto,
    WarrantApplication,
)
from ..services._common import available
from .common import (
    _attempt,
    _case_redirect,
    _form_page,
    _linked_initial,
    _simple_action,
    staff_page,
)


# --- inspections ------------------------------------------------------------
@staff_page
def index(request):
    status = request.GET.get("status") or ""
    return render(
        request,
        "inspections/index.html",
        {
            "upcoming": selectors.upcoming_inspections()[:50],
            "inspections": selectors.inspection_list(status=status or None)[:100],
            "status": status,
            "statuses": Inspection._meta.get_field("status").choices,
            "can_write": has_role(request.user, Role.SMO),
        },
    )


@staff_page
def calendar(request):
    officers = list(smo_officers())
    officer = request.user if has_role(request.user, Role.SMO) else None
    wanted = request.GET.get("officer")
    if wanted:
        officer = next((o for o in officers if str(o.pk) == wanted), None)
    rows = selectors.upcoming_inspections(officer=officer)
    days = {}
    for inspection in rows:
        days.setdefault(timezone.localtime(inspection.scheduled_for).date(), []).append(
            inspection
        )
    return render(
        request,
        "inspections/calendar.html",
        {"officers": officers, "officer": officer, "days": sorted(days.items())},
    )


@staff_page
def inspection_new(request):
    initial = _linked_initial(
        request, officer=request.user.pk if has_role(request.user, Role.SMO) else None
    )
    form = forms.InspectionScheduleForm(request.POST or None, initial=initial)
    _say_if_the_case_needs_premises(request, initial)
    if request.method == "POST":
        inspection = _attempt(
            request,
            form,
            lambda d: services.inspection_schedule(actor=request.user, **d),
            "Inspection scheduled.",
        )
        if inspection:
            return redirect("inspections:inspection_detail", inspection.pk)
    return _form_page(
        request, "inspections/form.html", form, title="Schedule an inspection"
    )


def _say_if_the_case_needs_premises(request, initial) -> None:
    """An inspection is of a premises (R-ACC-1): opened from a case that has none
    (a resident's report gives only a place), say so and link to where it is added."""
    case = Case.objects.filter(pk=initial.get("case") or None).first()
    if case is None or case.premises_id or initial.get("premises"):
        return
    messages.warning(
        request,
        format_html(
            "Case {} has no premises yet; an inspection is of a premises. "
            '<a href="{}">Add the premises to the case</a>, or choose one below.',
            case.number,
            reverse("cases:edit", args=[case.number]),
        ),
    )


def _inspection_context(request, inspection, **forms_given):
    context = {
        "inspection": inspection,
        "transitions": available(inspection, request.user),
        "record_form": forms.InspectionRecordForm(instance=inspection),
        "findings_form": forms.FindingsForm(initial={"findings": inspection.findings}),
        "cancel_form": forms.CancelForm(),
        "correction_form": forms.CorrectionForm(),
        "sample_form": forms.SampleForm(),
        "photo_form": forms.PhotoForm(),
        "can_write": has_role(request.user, Role.SMO),
        "samples": inspection.samples.all(),
        "photos": inspection.photos.all(),
        "corrections": inspection.corrections.select_related("created_by"),
        "warrants": inspection.warrant_applications.all(),
    }
    context.update(forms_given)
    return context


def _inspection(pk):
    return get_object_or_404(
        Inspection.objects.select_related("premises", "facility", "officer", "case"),
        pk=pk,
    )


@staff_page
def inspection_detail(request, pk):
    inspection = _inspection(pk)
    return render(
        request,
        "inspections/inspection_detail.html",
        _inspection_context(request, inspection),
    )


@staff_page
@require_POST
def inspection_action(request, pk, action):
    """One endpoint per inspection action; the form named by `action` is bound."""
    inspection = _inspection(pk)
    user = request.user
    back = redirect("inspections:inspection_detail", pk)
    actions = {
        "record": (
            forms.InspectionRecordForm,
            lambda d: services.inspection_record(
                actor=user, inspection=inspection, **d
            ),
            "Visit recorded.",
            "record_form",
        ),
        "findings": (
            forms.FindingsForm,
            lambda d: services.inspection_update_findings(
                actor=user, inspection=inspection, **d
            ),
            "Findings saved.",
            "findings_form",
        ),
        "cancel": (
            forms.CancelForm,
            lambda d: services.inspection_cancel(
                actor=user, inspection=inspection, reason=d["reason"]
            ),
            "Inspection cancelled.",
            "cancel_form",
        ),
        "correction": (
            forms.CorrectionForm,
            lambda d: services.inspection_add_correction(
                actor=user, inspection=inspection, **d
            ),
            "Correction added.",
            "correction_form",
        ),
        "sample": (
            forms.SampleForm,
            lambda d: services.sample_add(actor=user, inspection=inspection, **d),
            "Sample recorded.",
            "sample_form",
        ),
        "photo": (
            forms.PhotoForm,
            lambda d: services.photo_add(
                actor=user,
                inspection=inspection,
                upload=d["photo"],
                caption=d["caption"],
            ),
            "Photo added.",
            "photo_form",
        ),
    }
    if action == "finalize":
        _simple_action(
            request,
            lambda: services.inspection_finalize(actor=user, inspection=inspection),
            "Inspection finalized and locked.",
        )
        return back
    if action == "open_case":
        case = _simple_action(
            request,
            lambda: services.inspection_open_case(actor=user, inspection=inspection),
            "Access case opened (R-ACC-3).",
        )
        return back if case is None else _case_redirect(case)
    if action == "warrant":
        warrant = _simple_action(
            request,
            lambda: services.warrant_start(actor=user, inspection=inspection),
            "Warrant application started (R-ACC-4).",
        )
        return (
            back
            if warrant is None
            else redirect("inspections:warrant_detail", warrant.pk)
        )
    if action not in actions:
        raise Http404("No such action.")
    form_class, call, success, name = actions[action]
    if form_class is forms.InspectionRecordForm:
        form = form_class(request.POST, instance=_inspection(pk))
    else:
        form = form_class(request.POST, request.FILES)
    if _attempt(request, form, call, success) is not None:
        return back
    return render(
        request,
        "inspections/inspection_detail.html",
        _inspection_context(request, _inspection(pk), **{name: form}),
        status=400,
    )


@staff_page
def inspection_photo(request, pk):
    """The re-encoded display copy (no metadata), only for staff who may read."""
    photo = get_object_or_404(InspectionPhoto, pk=pk)
    return FileResponse(photo.display.open("rb"), content_type="image/jpeg")


# --- warrants ---------------------------------------------------------------
@staff_page
def warrant_detail(request, pk):
    warrant = get_object_or_404(
        WarrantApplication.objects.select_related("inspection__premises", "case"), pk=pk
    )
    draft_form = forms.WarrantDraftForm(
        request.POST or None,
        initial={"probable_cause": warrant.probable_cause, "court": warrant.court},
    )
    step_form = forms.WarrantStepForm(request.POST or None)
    if request.method == "POST":
        action = request.POST.get("action", "")
        if action == "save":
            if _attempt(
                request,
                draft_form,
                lambda d: services.warrant_update_draft(
                    actor=request.user, warrant=warrant, **d
                ),
                "Draft saved.",
            ):
                return redirect("inspections:warrant_detail", pk)
        elif _attempt(
            request,
            step_form,
            lambda d: services.warrant_advance(
                actor=request.user,
                warrant=warrant,
                transition=action,
                on=d["on"],
                notes=d["notes"],
            ),
            "Warrant application updated.",
        ):
            return redirect("inspections:warrant_detail", pk)
        warrant.refresh_from_db()
    return render(
        request,
        "inspections/warrant_detail.html",
        {
            "warrant": warrant,
            "draft_form": draft_form,
            "step_form": step_form,
            "transitions": available(warrant, request.user),
            "can_write": has_role(request.user, Role.SMO),
        },
    )
