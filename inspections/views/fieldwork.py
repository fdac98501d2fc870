"""Inspections and warrant applications (R-ACC-1 to R-ACC-4)."""

from django.contrib import messages
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from cases.models import Case, Premises
from jobs import exports
from kernel.actions import attempt, confirmation_form, take_step
from kernel.humanize import human_date, human_datetime
from kernel.roles import CASE_READERS, Role, has_role
from kernel.uploads import display_response

from .. import forms, selectors, services
from ..exports import INSPECTIONS
from ..forms import INSPECTION_STEP_FORMS, WARRANT_STEP_FORMS, smo_officers
from ..models import (
    Inspection,
    InspectionPhoto,
    WarrantApplication,
)
from .common import (
    _case_redirect,
    _form_page,
    _linked_initial,
    can_write,
    staff_page,
    steps,
)


# --- inspections ------------------------------------------------------------
def inspection_list_filtered(request):
    """The "All inspections" list's status filter, the message when it is not a
    status (then no filter), and the inspections it selects, newest first: the
    one reading of the filter for the page and its exports."""
    status = request.GET.get("status") or ""
    known = dict(Inspection._meta.get_field("status").choices)
    error = ""
    if status and status not in known:
        error = (
            f"“{status[:40]}” is not a status of an inspection; choose one from "
            "the list."
        )
        status = ""
    return status, error, selectors.inspection_list(status=status or None)


@staff_page
def index(request):
    status, error, inspections = inspection_list_filtered(request)
    if error:
        messages.error(request, error)
    return render(
        request,
        "inspections/index.html",
        {
            "upcoming": selectors.upcoming_inspections()[:50],
            "inspections": inspections[:100],
            "status": status,
            "statuses": Inspection._meta.get_field("status").choices,
            "can_write": can_write(request),
            "export_links": exports.export_links(request, "inspections:export"),
            "export_scope": "all inspections, not only the first 100",
        },
    )


def inspection_export_rows(request):
    _status, error, inspections = inspection_list_filtered(request)
    return None if error else inspections


INSPECTIONS_EXPORT = exports.ListExport(
    name="inspections",
    title="Inspections",
    columns=INSPECTIONS,
    rows=inspection_export_rows,
    roles=CASE_READERS,  # staff_page: GET for the readers of cases
    list_url="inspections:index",
)


@staff_page
def inspection_export(request, fmt):
    """Every inspection of the "All inspections" list with its filter, as CSV or
    XLSX."""
    return exports.export_list(request, INSPECTIONS_EXPORT, fmt)


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


def _schedule_initial(request) -> dict:
    """The schedule form opened from a case, premises or facility: those linked,
    and the case's premises when it has them."""
    initial = _linked_initial(
        request, officer=request.user.pk if has_role(request.user, Role.SMO) else None
    )
    case_pk = initial.get("case")
    if case_pk and "premises" not in initial and "facility" not in initial:
        case = Case.objects.filter(pk=case_pk).only("premises_id").first()
        if case is not None and case.premises_id:
            initial["premises"] = case.premises_id
    return initial


@staff_page
def inspection_new(request):
    form = forms.InspectionScheduleForm(
        request.POST or None, initial=_schedule_initial(request)
    )
    if request.method == "POST":
        inspection = attempt(
            request,
            form,
            lambda: services.inspection_schedule(
                actor=request.user, **form.cleaned_data
            ),
        )
        if inspection:
            when = timezone.localtime(inspection.scheduled_for)
            messages.success(
                request,
                f"Inspection {inspection.pk} of {inspection.premises} scheduled for "
                f"{human_datetime(when)}.",
            )
            return redirect(inspection.get_absolute_url())
    return _form_page(
        request, "inspections/form.html", form, title="Schedule an inspection"
    )


def _inspection_context(request, inspection, *, bound=None, **forms_given):
    context = {
        "inspection": inspection,
        **steps(request, inspection, INSPECTION_STEP_FORMS, bound=bound),
        "action_base": reverse("inspections:inspection_detail", args=[inspection.pk])
        + "step/",
        "findings_form": forms.FindingsForm(initial={"findings": inspection.findings}),
        "correction_form": forms.CorrectionForm(),
        "sample_form": forms.SampleForm(),
        "photo_form": forms.PhotoForm(),
        "can_write": can_write(request),
        "samples": inspection.samples.all(),
        "photos": inspection.photos.all(),
        "corrections": inspection.corrections.select_related("created_by"),
        "warrants": inspection.warrant_applications.all(),
        # starting a warrant application is binding: "I confirm: …" (issue 26)
        "warrant_form": confirmation_form(
            inspection, "warrant_start", prefix="warrant"
        ),
        "chronology": selectors.chronology_of(
            inspection,
            inspection.samples.all(),
            inspection.photos.all(),
            inspection.corrections.all(),
        ),
    }
    context.update(forms_given)
    return context


def _inspection(pk):
    return get_object_or_404(
        Inspection.objects.select_related("premises", "facility", "officer", "case"),
        pk=pk,
    )


def _inspection_page(request, pk, *, status=200, bound=None, **forms_given):
    return render(
        request,
        "inspections/inspection_detail.html",
        _inspection_context(request, _inspection(pk), bound=bound, **forms_given),
        status=status,
    )


@staff_page
def inspection_detail(request, pk):
    return _inspection_page(request, pk)


def _visit_words(inspection) -> str:
    words = (
        f"Inspection {inspection.pk}: visit recorded — "
        f"{inspection.get_access_outcome_display()}."
    )
    if inspection.access_refused:
        words += " You may open a case or start a search-warrant application."
    elif inspection.access_obstructed:
        words += " You may open a case for the delay."
    return words


def _inspection_steps(request, inspection) -> dict:
    """What each step of the inspection does with its form's data."""
    user = request.user

    def record_visit(d, seen):
        done = services.inspection_record(
            actor=user, inspection=inspection, expected_status=seen, **d
        )
        return done, _visit_words(done)

    def cancel(d, seen):
        done = services.inspection_cancel(
            actor=user, inspection=inspection, reason=d["reason"], expected_status=seen
        )
        return done, f"Inspection {done.pk} cancelled."

    def finalize(d, seen):
        done = services.inspection_finalize(
            actor=user, inspection=inspection, expected_status=seen
        )
        return done, (
            f"Inspection {done.pk} finalized and locked; later changes are added "
            "as corrections."
        )

    return {"record_visit": record_visit, "cancel": cancel, "finalize": finalize}


@staff_page
@require_POST
def inspection_step(request, pk, name):
    """One step of the inspection's state machine (record the visit, cancel,
    finalize): its form, then the service; refused → the page with the form."""
    inspection = _inspection(pk)
    return take_step(
        request,
        inspection,
        name,
        INSPECTION_STEP_FORMS,
        _inspection_steps(request, inspection),
        lambda bound: _inspection_page(request, pk, bound=bound),
        form_kwargs={"record": inspection},
    )


@staff_page
@require_POST
def inspection_action(request, pk, action):
    """What is added to an inspection besides its steps: findings, a correction,
    a sample, a photo, the case or the warrant application it leads to."""
    inspection = _inspection(pk)
    user = request.user
    back = redirect(inspection.get_absolute_url())
    actions = {
        "findings": (
            forms.FindingsForm,
            lambda d: services.inspection_update_findings(
                actor=user, inspection=inspection, **d
            ),
            "Findings saved.",
            "findings_form",
        ),
        "correction": (
            forms.CorrectionForm,
            lambda d: services.inspection_add_correction(
                actor=user, inspection=inspection, **d
            ),
            "Correction added beside the locked inspection.",
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
    if action == "open_case":
        case = attempt(
            request,
            None,
            lambda: services.inspection_open_case(actor=user, inspection=inspection),
        )
        if case is None:
            return back
        messages.success(
            request,
            f"Access case {case.number} opened (R-ACC-3); the inspection is on it.",
        )
        return _case_redirect(case)
    if action == "warrant":
        form = confirmation_form(
            inspection, "warrant_start", request.POST, prefix="warrant"
        )
        warrant = attempt(
            request,
            form,
            lambda: services.warrant_start(actor=user, inspection=inspection),
        )
        if warrant is None:
            return _inspection_page(request, pk, status=400, warrant_form=form)
        messages.success(
            request,
            f"Search-warrant application {warrant.pk} started (R-ACC-4): give the "
            "probable-cause statement and the court, then file it.",
        )
        return redirect(warrant.get_absolute_url())
    if action not in actions:
        raise Http404("No such action.")
    form_class, call, success, name = actions[action]
    form = form_class(request.POST, request.FILES)
    if attempt(request, form, lambda: call(form.cleaned_data), success=success):
        return back
    return _inspection_page(request, pk, status=400, **{name: form})


@staff_page
def inspection_photo(request, pk):
    """The re-encoded display copy (no metadata), only for staff who may read."""
    return display_response(get_object_or_404(InspectionPhoto, pk=pk))


# --- warrants ---------------------------------------------------------------
def _warrant(pk):
    return get_object_or_404(
        WarrantApplication.objects.select_related(
            "inspection__premises", "inspection__case", "case"
        ),
        pk=pk,
    )


def _warrant_page(request, pk, *, bound=None, draft_form=None):
    warrant = _warrant(pk)
    inspection = warrant.inspection
    follow_up = (
        reverse("inspections:inspection_new")
        + f"?premises={inspection.premises_id}&kind=follow_up"
        + (f"&facility={inspection.facility_id}" if inspection.facility_id else "")
        + (f"&case={warrant.case_id}" if warrant.case_id else "")
    )
    return render(
        request,
        "inspections/warrant_detail.html",
        {
            "warrant": warrant,
            "draft_form": draft_form
            or forms.WarrantDraftForm(
                initial={
                    "probable_cause": warrant.probable_cause,
                    "court": warrant.court,
                }
            ),
            **steps(request, warrant, WARRANT_STEP_FORMS, bound=bound),
            "action_base": reverse("inspections:warrant_detail", args=[pk]) + "step/",
            "follow_up_url": follow_up,
            "can_write": can_write(request),
            "chronology": selectors.chronology_of(warrant),
        },
    )


@staff_page
def warrant_detail(request, pk):
    """The application, its steps and its chronology; POST saves the draft."""
    if request.method == "POST":
        warrant = _warrant(pk)
        draft_form = forms.WarrantDraftForm(request.POST)
        if attempt(
            request,
            draft_form,
            lambda: services.warrant_update_draft(
                actor=request.user, warrant=warrant, **draft_form.cleaned_data
            ),
            success=f"Draft of warrant application {pk} saved.",
        ):
            return redirect(warrant.get_absolute_url())
        return _warrant_page(request, pk, draft_form=draft_form)
    return _warrant_page(request, pk)


def _warrant_words(warrant, name) -> str:
    if name == "file":
        court = f" ({warrant.court})" if warrant.court else ""
        return (
            f"Warrant application {warrant.pk} filed with the court{court} on "
            f"{human_date(warrant.filed_on)}; record the court's decision when it comes."
        )
    if name == "record_issued":
        return (
            f"Search warrant issued on {human_date(warrant.issued_on)}; record its "
            "execution once the entry is made."
        )
    if name == "record_denied":
        return f"Search warrant denied on {human_date(warrant.denied_on)}."
    return (
        f"Search warrant executed on {human_date(warrant.executed_on)}; schedule and "
        "record the inspection it allowed."
    )


@staff_page
@require_POST
def warrant_step(request, pk, name):
    """One step of the warrant application: file it, the court's decision, its
    execution (R-ACC-4)."""
    warrant = _warrant(pk)

    def advance(transition):
        def step(d, seen):
            done = services.warrant_advance(
                actor=request.user,
                warrant=warrant,
                transition=transition,
                on=d.get("on"),
                notes=d.get("notes", ""),
                probable_cause=d.get("probable_cause"),
                court=d.get("court"),
                expected_status=seen,
            )
            return done, _warrant_words(done, transition)

        return step

    return take_step(
        request,
        warrant,
        name,
        WARRANT_STEP_FORMS,
        {t: advance(t) for t in services.WARRANT_STEPS},
        lambda bound: _warrant_page(request, pk, bound=bound),
        form_kwargs={"record": warrant},
    )


# --- premises ---------------------------------------------------------------
@staff_page
def premises_detail(request, pk):
    """A premises: its details, facilities, inspections, spills and cases, and
    its whole chronology (field work with or without a case)."""
    premises = get_object_or_404(Premises, pk=pk)
    return render(
        request,
        "inspections/premises_detail.html",
        {
            "premises": premises,
            **selectors.premises_records(premises),
            "can_write": can_write(request),
        },
    )
