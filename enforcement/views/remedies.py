"""Remedy screens (corrective measures, nuisance abatement, injunction referral,
suspension, termination, alternative remedies) and the sign-off list."""

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from cases.models import Case
from cases.roles import Role, has_role, role_required

from .. import selectors
from ..forms import (
    CREATE_FORMS,
    CostItemForm,
    ItemCompleteForm,
    ReinstatementForm,
    step_form_class,
)
from ..models import AlternativeRemedyItem, CorrectiveAction, NuisanceAbatement
from ..selectors import REMEDY_MODELS
from ..services import remedies as svc
from .common import READERS, SMO_ONLY, attempt, require_step_permission, step_key

SIGNERS = (Role.ATTORNEY, Role.BUILDING_INSPECTOR)
TITLES = {
    "corrective": "Corrective measures (§ 132-15)",
    "nuisance": "Summary abatement of a nuisance (§ 132-18)",
    "injunction": "Referral for an injunction (§ 132-16)",
    "suspension": "Emergency suspension of MS4 access (§ 132-9 A)",
    "termination": "Termination of MS4 access (§ 132-9 B)",
    "alternative": "Alternative remedies (§ 132-17)",
}


def _model(flow):
    try:
        return REMEDY_MODELS[flow]
    except KeyError:
        raise Http404("No such remedy.") from None


def _readers(flow):
    # The attorney and the building inspector read what their sign-off needs.
    return READERS + SIGNERS if flow == "alternative" else READERS


def _create(flow, case, user, d):
    if flow == "corrective":
        return svc.corrective_request_access(
            notice=d["notice"], actor=user, request_letter_on=d["request_letter_on"]
        )
    if flow == "nuisance":
        return svc.nuisance_declare(case=case, actor=user, **d)
    if flow == "injunction":
        return svc.injunction_refer(case=case, actor=user, **d)
    if flow == "suspension":
        return svc.suspension_start(case=case, actor=user, **d)
    if flow == "termination":
        return svc.termination_propose(case=case, actor=user, **d)
    details = d.pop("details", "")
    kinds = [(k, details) for k in d.pop("kinds")]
    return svc.alternative_propose(case=case, actor=user, kinds=kinds, **d)


@role_required(*SMO_ONLY)
def remedy_create(request, case_pk, flow):
    model = _model(flow)
    case = get_object_or_404(Case, pk=case_pk)
    form_class = CREATE_FORMS[flow]
    form = form_class(request.POST or None, case=case)
    if request.method == "POST" and form.is_valid():
        d = dict(form.cleaned_data)
        remedy = attempt(
            request,
            form,
            lambda: _create(flow, case, request.user, d),
            success="Recorded.",
        )
        if remedy is not None:
            return redirect("enforcement:remedy_detail", flow=flow, pk=remedy.pk)
    return render(
        request,
        "enforcement/simple_form.html",
        {
            "form": form,
            "title": TITLES[flow],
            "case": case,
            "model": model,
            "multipart": False,
        },
    )


@role_required(*READERS, *SIGNERS)
def remedy_detail(request, flow, pk):
    if not has_role(request.user, *_readers(flow)):
        raise PermissionDenied("Your role does not give access to this page.")
    model = _model(flow)
    remedy = get_object_or_404(model.objects.select_related("case"), pk=pk)
    actions = [
        (t, step_form_class(model, t.custom.get("form", "plain"))(prefix=t.name))
        for t in remedy.user_actions(request.user)
    ]
    is_smo = has_role(request.user, Role.SMO)
    context = {
        "flow": flow,
        "title": TITLES[flow],
        "remedy": remedy,
        "case": remedy.case,
        "actions": actions,
        "deadlines": selectors.key_dates(remedy),
        "show_case_link": has_role(request.user, *READERS),
        "cost_form": CostItemForm()
        if is_smo
        and isinstance(remedy, CorrectiveAction | NuisanceAbatement)
        and remedy.status not in ("invoiced", "paid")
        else None,
        "item_form": ItemCompleteForm() if is_smo and flow == "alternative" else None,
        "reinstatement_form": ReinstatementForm()
        if is_smo and flow == "termination" and remedy.access_is_terminated
        else None,
    }
    return render(request, "enforcement/remedy_detail.html", context)


@require_POST
@role_required(*READERS, *SIGNERS)
def remedy_step(request, flow, pk, transition):
    model = _model(flow)
    remedy = get_object_or_404(model, pk=pk)
    require_step_permission(remedy, transition, request.user)
    form = step_form_class(model, step_key(remedy, transition))(
        request.POST, prefix=transition
    )
    if not form.is_valid():
        for field, errors in form.errors.items():
            messages.error(request, f"{field.replace('_', ' ')}: {' '.join(errors)}")
        return redirect("enforcement:remedy_detail", flow=flow, pk=pk)
    attempt(
        request,
        None,
        lambda: svc.remedy_step(
            obj=remedy,
            transition=transition,
            actor=request.user,
            expected_status=request.POST.get("expected_status") or None,
            **form.cleaned_data,
        ),
        success="Done.",
    )
    return redirect("enforcement:remedy_detail", flow=flow, pk=pk)


@require_POST
@role_required(*SMO_ONLY)
def cost_add(request, flow, pk):
    if flow not in ("corrective", "nuisance"):
        raise Http404("No costs here.")
    remedy = get_object_or_404(_model(flow), pk=pk)
    form = CostItemForm(request.POST)
    if form.is_valid():
        attempt(
            request,
            None,
            lambda: svc.cost_item_add(
                remedy=remedy, actor=request.user, **form.cleaned_data
            ),
            success="Cost added.",
        )
    else:
        for field, errors in form.errors.items():
            messages.error(request, f"{field.replace('_', ' ')}: {' '.join(errors)}")
    return redirect("enforcement:remedy_detail", flow=flow, pk=pk)


@require_POST
@role_required(*SMO_ONLY)
def alternative_item_complete(request, pk):
    item = get_object_or_404(AlternativeRemedyItem, pk=pk)
    form = ItemCompleteForm(request.POST)
    if form.is_valid():
        attempt(
            request,
            None,
            lambda: svc.alternative_item_complete(
                item=item,
                actor=request.user,
                completed_on=form.cleaned_data["completed_on"],
                note=form.cleaned_data["note"],
            ),
            success="Completion recorded.",
        )
    return redirect("enforcement:remedy_detail", flow="alternative", pk=item.remedy_id)


@require_POST
@role_required(*SMO_ONLY)
def termination_reinstatement(request, pk):
    termination = get_object_or_404(REMEDY_MODELS["termination"], pk=pk)
    form = ReinstatementForm(request.POST)
    if form.is_valid():
        record = attempt(
            request,
            None,
            lambda: svc.termination_record_unauthorized_reinstatement(
                termination=termination, actor=request.user, **form.cleaned_data
            ),
        )
        if record is not None:
            messages.warning(
                request,
                f"Offense recorded: new case {record.new_case.number} opened.",
            )
    return redirect("enforcement:remedy_detail", flow="termination", pk=pk)


@role_required(*SIGNERS)
def signoff_list(request):
    return render(
        request,
        "enforcement/signoff_list.html",
        {
            "awaiting": selectors.signoffs_awaiting(request.user),
            "done": selectors.signoffs_done(request.user),
        },
    )
