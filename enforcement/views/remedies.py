"""Remedy screens (corrective measures, nuisance abatement, injunction referral,
suspension, termination, alternative remedies) and the sign-off list.

A remedy's page offers the steps its state machine allows this user
(`kernel.actions.action_forms`); a step that is refused re-renders the page
with the user's input and the reasons."""

from django.contrib import messages
from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from cases.models import Case
from kernel.actions import (
    action_forms,
    attempt,
    step_data,
    take_step,
    with_confirmation,
)
from kernel.citations import UnknownCitation, citations
from kernel.confirmations import confirm_text
from kernel.humanize import human_date
from kernel.models import CaseEvent
from kernel.roles import Role, has_role, role_required
from kernel.workflow import reasons_not, transitions_of

from .. import charges, selectors
from ..documents.corrective import UNPAID_WORDS
from ..forms import (
    CREATE_FORMS,
    REMEDY_STEP_FORMS,
    CostItemForm,
    ItemCompleteForm,
    ReinstatementForm,
)
from ..models import AlternativeRemedyItem
from ..selectors import REMEDY_MODELS
from ..services import remedies as svc
from .common import READERS, SMO_ONLY

SIGNERS = (Role.ATTORNEY, Role.BUILDING_INSPECTOR)
# flow → the confirmation builder of starting it, where starting it is binding.
BINDING_STARTS = {"suspension": "suspension_start"}

# flow → (what the page is, the rules it applies: their sections name it)
TITLES = {
    "corrective": ("Corrective measures", ("R-COR-1", "R-COR-2")),
    "nuisance": ("Summary abatement of a nuisance", ("R-NUI-1",)),
    "injunction": ("Referral for an injunction", ("R-INJ-1",)),
    "suspension": ("Emergency suspension of MS4 access", ("R-SUS-1",)),
    "termination": ("Termination of MS4 access", ("R-SUS-2",)),
    "alternative": ("Alternative remedies", ("R-ALT-1", "R-ALT-2")),
}


def _title(flow) -> str:
    words, rule_ids = TITLES[flow]
    try:
        found = citations(*rule_ids)
    except UnknownCitation:
        return words
    return f"{words} ({', '.join(found[r].section for r in rule_ids)})"


def _model(flow):
    try:
        return REMEDY_MODELS[flow]
    except KeyError:
        raise Http404("No such remedy.") from None


def _readers(flow):
    # The attorney and the building inspector read what their sign-off needs.
    return READERS + SIGNERS if flow == "alternative" else READERS


def _require_reader(user, flow):
    if not has_role(user, *_readers(flow)):
        raise PermissionDenied("Your role does not give access to this page.")


def _create(flow, case, user, d):
    if flow == "corrective":
        return svc.corrective_request_access(
            notice=d["notice"],
            actor=user,
            request_letter_on=d["request_letter_on"],
            owner=d["owner"],
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


def _corrective_waits(case, form, user):
    """Corrective measures follow a notice not complied with (R-COR-1). When the
    case has none yet, the page says so: each notice with why "Record not
    complied" cannot be taken now and the date its correction is due; None when
    there is a notice to choose."""
    if form.fields["notice"].queryset.exists():
        return None
    return [
        (
            notice,
            reasons_not(notice, "record_noncompliance", user),
            notice.compliance_deadline(),
        )
        for notice in case.notices.order_by("pk")
    ]


def _corrective_waits_for_appeal(form):
    """The notices not complied with that corrective measures must still wait
    for, because the respondent may appeal them or an appeal is pending
    (NoticeOfViolation.appeal_open_or_pending): each with why and until when."""
    return [
        (notice, notice.appeal_wait_words())
        for notice in form.fields["notice"].queryset.order_by("pk")
        if notice.appeal_open_or_pending()
    ]


@role_required(*SMO_ONLY)
def remedy_create(request, case_pk, flow):
    _model(flow)
    case = get_object_or_404(Case, pk=case_pk)
    form_class = CREATE_FORMS[flow]
    if flow in BINDING_STARTS:
        # Starting it is legally binding (issue 16): "I confirm: …" what it
        # does and the deadline it starts (kernel.confirmations).
        form_class = with_confirmation(
            form_class, confirm_text(case, {"confirm": BINDING_STARTS[flow]})
        )
    form = form_class(request.POST or None, case=case)
    if request.method == "POST":
        remedy = attempt(
            request,
            form,
            lambda: _create(flow, case, request.user, step_data(form)),
        )
        if remedy is not None:
            messages.success(request, svc.created_words(remedy))
            return redirect(remedy.get_absolute_url())
    return render(
        request,
        "enforcement/simple_form.html",
        {
            "form": form,
            "title": _title(flow),
            "case": case,
            "multipart": False,
            "corrective_waits": (
                _corrective_waits(case, form, request.user)
                if flow == "corrective"
                else None
            ),
            # What must be done first (the case's guards): the button is shown
            # disabled with the reasons and their links.
            "blocked_by": (
                svc.corrective_refusals(case) if flow == "corrective" else []
            ),
            "corrective_appeal_waits": (
                _corrective_waits_for_appeal(form) if flow == "corrective" else ()
            ),
        },
    )


def _chronology(remedy):
    """The chronology entries about this remedy and its costs or chosen items,
    oldest first."""
    subjects = Q(
        content_type=ContentType.objects.get_for_model(remedy), object_id=remedy.pk
    )
    for related in ("cost_items", "items"):
        manager = getattr(remedy, related, None)
        if manager is not None and manager.exists():
            subjects |= Q(
                content_type=ContentType.objects.get_for_model(manager.model),
                object_id__in=manager.values("pk"),
            )
    return (
        CaseEvent.objects.filter(subjects).select_related("actor").order_by("at", "pk")
    )


def _invoice_context(remedy, steps) -> dict:
    """The invoice of a remedy's costs: its payments and what remains due (once
    issued), or whether "Issue the invoice" can be taken now."""
    if not hasattr(remedy, "invoice_amount"):
        return {}
    if remedy.invoice_amount is None:
        ready = any(a.name == "invoice" and a.enabled for a, _ in steps)
        return {"invoice": None, "invoice_ready": ready}
    paid = remedy.amount_paid()
    return {
        "invoice": {
            # On the ledger (issue 27): its charge's page records payments.
            "payments": charges.remedy_payments(remedy),
            "charge": charges.remedy_charge(remedy),
            "paid": paid,
            "balance": remedy.balance_due(),
            "unpaid": UNPAID_WORDS,
        },
        "invoice_ready": False,
    }


def _detail(
    request,
    flow,
    pk,
    *,
    bound=None,
    cost_form=None,
    item_form=None,
    reinstatement_form=None,
):
    """The remedy's page: its facts, key dates, costs, documents and the steps
    this user may take (with `bound` — a refused step's form — in place)."""
    user = request.user
    model = _model(flow)
    remedy = get_object_or_404(model.objects.select_related("case"), pk=pk)
    is_smo = has_role(user, Role.SMO)
    may_add_costs = is_smo and getattr(remedy, "costs_may_change", False)
    items = []
    if hasattr(remedy, "items"):
        may_complete = is_smo and remedy.items_may_be_completed
        for item in remedy.items.all():
            form = None
            if may_complete and item.completed_on is None:
                if item_form is not None and item_form.item == item:
                    form = item_form
                else:
                    form = ItemCompleteForm(item=item)
            items.append((item, form))
    reinstatement = None
    if is_smo and getattr(remedy, "access_is_terminated", False):
        reinstatement = reinstatement_form or ReinstatementForm()
    steps = action_forms(remedy, user, REMEDY_STEP_FORMS[flow], bound=bound)
    for _, form in steps:
        # A step's form may offer what the record already says (the date its
        # document was issued); never over what the user typed.
        initial_from = getattr(form, "initial_from", None)
        if initial_from is not None and not form.is_bound:
            form.initial.update(initial_from(remedy))
    context = {
        **_invoice_context(remedy, steps),
        "flow": flow,
        "title": _title(flow),
        "remedy": remedy,
        "case": remedy.case,
        "actions": steps,
        "deadlines": selectors.key_dates(remedy),
        "show_case_link": has_role(user, *READERS),
        "has_costs": hasattr(remedy, "cost_items"),
        "cost_form": (cost_form or CostItemForm()) if may_add_costs else None,
        "items": items,
        "reinstatement_form": reinstatement,
        "chronology": _chronology(remedy),
    }
    return render(request, "enforcement/remedy_detail.html", context)


@role_required(*READERS, *SIGNERS)
def remedy_detail(request, flow, pk):
    _model(flow)
    _require_reader(request.user, flow)
    return _detail(request, flow, pk)


@require_POST
@role_required(*READERS, *SIGNERS)
def remedy_step(request, flow, pk, transition):
    """Take one step of a remedy with what its form recorded; refused → the page
    again with the form, the user's input and the reasons."""
    model = _model(flow)
    _require_reader(request.user, flow)
    remedy = get_object_or_404(model, pk=pk)

    def step(name):
        def take(data, seen):
            done = svc.remedy_step(
                obj=remedy,
                transition=name,
                actor=request.user,
                expected_status=seen,
                **data,
            )
            return done, f"{svc.step_words(done, name)}."

        return take

    return take_step(
        request,
        remedy,
        transition,
        REMEDY_STEP_FORMS[flow],
        {name: step(name) for name in transitions_of(model)},
        lambda bound: _detail(request, flow, pk, bound=bound),
    )


@require_POST
@role_required(*SMO_ONLY)
def cost_add(request, flow, pk):
    if flow not in ("corrective", "nuisance"):
        raise Http404("No costs here.")
    remedy = get_object_or_404(_model(flow), pk=pk)
    form = CostItemForm(request.POST)
    item = attempt(
        request,
        form,
        lambda: svc.cost_item_add(
            remedy=remedy, actor=request.user, **form.cleaned_data
        ),
    )
    if item is None:
        return _detail(request, flow, pk, cost_form=form)
    messages.success(
        request,
        f"Cost of ${item.amount:,.2f} ({item.description}) added; the costs now "
        f"total ${remedy.total_cost():,.2f}.",
    )
    return redirect(f"{remedy.get_absolute_url()}#costs")


@require_POST
@role_required(*SMO_ONLY)
def alternative_item_complete(request, pk):
    item = get_object_or_404(AlternativeRemedyItem, pk=pk)
    form = ItemCompleteForm(request.POST, item=item)
    done = attempt(
        request,
        form,
        lambda: svc.alternative_item_complete(
            item=item,
            actor=request.user,
            completed_on=form.cleaned_data["completed_on"],
            note=form.cleaned_data["note"],
        ),
    )
    if done is None:
        return _detail(request, "alternative", item.remedy_id, item_form=form)
    messages.success(
        request,
        f"{done.get_kind_display()}: completed on {human_date(done.completed_on)}.",
    )
    return redirect(f"{done.remedy.get_absolute_url()}#remedies")


@require_POST
@role_required(*SMO_ONLY)
def termination_reinstatement(request, pk):
    termination = get_object_or_404(REMEDY_MODELS["termination"], pk=pk)
    form = ReinstatementForm(request.POST)
    record = attempt(
        request,
        form,
        lambda: svc.termination_record_unauthorized_reinstatement(
            termination=termination, actor=request.user, **form.cleaned_data
        ),
    )
    if record is None:
        return _detail(request, "termination", pk, reinstatement_form=form)
    messages.warning(
        request,
        f"Offense recorded: access reinstated without approval, found "
        f"{human_date(record.observed_on)}; new case {record.new_case.number} opened.",
    )
    return redirect(termination.get_absolute_url())


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
