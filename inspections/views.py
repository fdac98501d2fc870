"""Pages of the inspections app. SMO staff write; the Board clerk may read.

Each view checks the role, binds a form, calls one service and turns domain
errors into messages or form errors (the user's input is kept)."""

from functools import wraps

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import FileResponse, Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from cases.deadlines.services import deadlines_for
from cases.models import Outfall
from cases.roles import CASE_READERS, Role, has_role, role_required
from cases.services import CaseChangedError, TransitionRefused

from . import forms, selectors, services
from .forms import smo_officers
from .models import (
    BMPRequirement,
    ComplianceProofRequest,
    Facility,
    Inspection,
    InspectionPhoto,
    LockedRecordError,
    MonitoringEquipment,
    OutfallScreening,
    WarrantApplication,
)
from .services._common import available

DOMAIN_ERRORS = (TransitionRefused, CaseChangedError, LockedRecordError)


def staff_page(view):
    """GET for SMO staff and the clerk (read); any other method for SMO staff."""

    @role_required(*CASE_READERS)
    @wraps(view)
    def wrapped(request, *args, **kwargs):
        if request.method not in ("GET", "HEAD") and not has_role(
            request.user, Role.SMO
        ):
            raise PermissionDenied("Only SMO staff may change these records.")
        return view(request, *args, **kwargs)

    return wrapped


def _errors_to_form(form, exc: ValidationError) -> None:
    if hasattr(exc, "error_dict"):
        for field, errors in exc.error_dict.items():
            form.add_error(field if field in form.fields else None, errors)
    else:
        form.add_error(None, exc)


def _attempt(request, form, call, success: str):
    """Run `call()` when the form is valid. Returns the result, or None after
    putting the error on the form / in messages (nothing saved)."""
    if not form.is_valid():
        messages.error(request, "Please correct the errors below.")
        return None
    try:
        result = call(form.cleaned_data)
    except ValidationError as exc:
        _errors_to_form(form, exc)
        messages.error(request, "Please correct the errors below.")
        return None
    except DOMAIN_ERRORS as exc:
        messages.error(request, str(exc))
        return None
    messages.success(request, success)
    return result


def _simple_action(request, call, success: str):
    """A button with no form: run it, report the outcome."""
    try:
        result = call()
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
        return None
    except DOMAIN_ERRORS as exc:
        messages.error(request, str(exc))
        return None
    messages.success(request, success)
    return result


def _form_page(request, template, form, **context):
    return render(request, template, {"form": form, **context})


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
    initial = {"officer": request.user.pk if has_role(request.user, Role.SMO) else None}
    for key in ("premises", "facility", "case"):
        if request.GET.get(key):
            initial[key] = request.GET[key]
    form = forms.InspectionScheduleForm(request.POST or None, initial=initial)
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
        return back if case is None else _case_redirect(case, back)
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


def _case_redirect(case, fallback):
    try:
        return redirect(reverse("cases:detail", args=[case.pk]))
    except NoReverseMatch:  # the case page belongs to the case-lifecycle issue
        return fallback


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


# --- facilities, equipment, BMPs ------------------------------------------
@staff_page
def facility_list(request):
    return render(
        request,
        "inspections/facility_list.html",
        {
            "facilities": selectors.facility_list(),
            "can_write": has_role(request.user, Role.SMO),
        },
    )


@staff_page
def facility_edit(request, pk=None):
    facility = get_object_or_404(Facility, pk=pk) if pk else None
    form = forms.FacilityForm(request.POST or None, instance=facility)
    if request.method == "POST":
        saved = _attempt(
            request,
            form,
            lambda d: services.facility_save(
                actor=request.user, facility=facility, **d
            ),
            "Facility saved.",
        )
        if saved:
            return redirect("inspections:facility_detail", saved.pk)
    title = f"Edit {facility.name}" if facility else "New facility"
    return _form_page(request, "inspections/form.html", form, title=title)


@staff_page
def facility_detail(request, pk):
    facility = get_object_or_404(
        Facility.objects.select_related("premises", "operator"), pk=pk
    )
    proof_form = forms.ProofRequestForm(
        request.POST or None, initial={"requested_on": timezone.localdate()}
    )
    equipment_form = forms.EquipmentForm(request.POST or None)
    if request.method == "POST":
        action = request.POST.get("action")
        if action == "proof_request" and _attempt(
            request,
            proof_form,
            lambda d: services.proof_request_create(
                actor=request.user, facility=facility, **d
            ),
            "Proof of compliance requested (R-IND-1).",
        ):
            return redirect("inspections:facility_detail", pk)
        if action == "equipment" and _attempt(
            request,
            equipment_form,
            lambda d: services.equipment_create(
                actor=request.user, facility=facility, **d
            ),
            "Monitoring equipment added.",
        ):
            return redirect("inspections:facility_detail", pk)
    return render(
        request,
        "inspections/facility_detail.html",
        {
            "facility": facility,
            "proof_form": proof_form,
            "proof_record_form": forms.ProofRecordForm(),
            "equipment_form": equipment_form,
            "proof_requests": facility.proof_requests.all(),
            "equipment": facility.equipment.all(),
            "bmps": facility.bmp_requirements.all(),
            "inspections": facility.inspections.select_related("officer"),
            "spills": facility.spills.all(),
            "valid_industrial": facility.has_valid_industrial_permit(),
            "can_write": has_role(request.user, Role.SMO),
        },
    )


@staff_page
@require_POST
def proof_record(request, pk):
    req = get_object_or_404(ComplianceProofRequest, pk=pk)
    form = forms.ProofRecordForm(request.POST)
    _attempt(
        request,
        form,
        lambda d: services.proof_record(
            actor=request.user,
            request=req,
            received_on=d["proof_received_on"],
            description=d["proof_description"],
            accepted=d["accepted"],
        ),
        "Proof of compliance filed.",
    )
    for error in form.errors.values():
        messages.error(request, " ".join(error))
    return redirect("inspections:facility_detail", req.facility_id)


@staff_page
def equipment_detail(request, pk):
    equipment = get_object_or_404(
        MonitoringEquipment.objects.select_related("facility"), pk=pk
    )
    form = forms.CalibrationForm(request.POST or None)
    if request.method == "POST" and _attempt(
        request,
        form,
        lambda d: services.calibration_record(
            actor=request.user, equipment=equipment, **d
        ),
        "Calibration recorded; next recalibration deadline opened (R-ACC-2).",
    ):
        return redirect("inspections:equipment_detail", pk)
    return render(
        request,
        "inspections/equipment_detail.html",
        {
            "equipment": equipment,
            "form": form,
            "calibrations": equipment.calibrations.all(),
            "deadlines": deadlines_for(equipment),
            "can_write": has_role(request.user, Role.SMO),
        },
    )


@staff_page
def bmp_new(request):
    initial = {"required_on": timezone.localdate(), "days_to_implement": 30}
    for key in ("premises", "facility", "case"):
        if request.GET.get(key):
            initial[key] = request.GET[key]
    form = forms.BMPForm(request.POST or None, initial=initial)
    if request.method == "POST":
        bmp = _attempt(
            request,
            form,
            lambda d: services.bmp_require(actor=request.user, **d),
            "BMP requirement recorded (R-BMP-1).",
        )
        if bmp:
            return redirect("inspections:bmp_detail", bmp.pk)
    return _form_page(request, "inspections/form.html", form, title="Require BMPs")


@staff_page
def bmp_detail(request, pk):
    bmp = get_object_or_404(
        BMPRequirement.objects.select_related("premises", "facility", "case"), pk=pk
    )
    form = forms.BMPVerifyForm(request.POST or None)
    if request.method == "POST":
        if request.POST.get("action") == "permit":
            _simple_action(
                request,
                lambda: services.bmp_mark_satisfied_by_permit(
                    actor=request.user, bmp=bmp
                ),
                "Marked satisfied by the facility's industrial SPDES permit.",
            )
            return redirect("inspections:bmp_detail", pk)
        if _attempt(
            request,
            form,
            lambda d: services.bmp_verify(actor=request.user, bmp=bmp, **d),
            "BMPs verified.",
        ):
            return redirect("inspections:bmp_detail", pk)
    return render(
        request,
        "inspections/bmp_detail.html",
        {
            "bmp": bmp,
            "form": form,
            "deadlines": deadlines_for(bmp),
            "can_write": has_role(request.user, Role.SMO),
        },
    )


# --- outfalls ---------------------------------------------------------------
@staff_page
def outfall_list(request):
    return render(
        request,
        "inspections/outfall_list.html",
        {
            "outfalls": selectors.outfall_list(),
            "can_write": has_role(request.user, Role.SMO),
        },
    )


@staff_page
def outfall_edit(request, pk=None):
    outfall = get_object_or_404(Outfall, pk=pk) if pk else None
    form = forms.OutfallForm(request.POST or None, instance=outfall)
    if request.method == "POST":
        saved = _attempt(
            request,
            form,
            lambda d: services.outfall_save(actor=request.user, outfall=outfall, **d),
            "Outfall saved.",
        )
        if saved:
            return redirect("inspections:outfall_detail", saved.pk)
    title = f"Edit outfall {outfall.code}" if outfall else "New outfall"
    return _form_page(request, "inspections/form.html", form, title=title)


@staff_page
def outfall_detail(request, pk):
    outfall = get_object_or_404(Outfall, pk=pk)
    return render(
        request,
        "inspections/outfall_detail.html",
        {
            "outfall": outfall,
            **selectors.outfall_history(outfall),
            "can_write": has_role(request.user, Role.SMO),
        },
    )


@staff_page
def screening_new(request, pk):
    outfall = get_object_or_404(Outfall, pk=pk)
    form = forms.ScreeningForm(
        request.POST or None, initial={"screened_at": timezone.localtime()}
    )
    if request.method == "POST":
        screening = _attempt(
            request,
            form,
            lambda d: services.screening_record(
                actor=request.user, outfall=outfall, **d
            ),
            "Screening recorded.",
        )
        if screening:
            return redirect("inspections:screening_detail", screening.pk)
    return _form_page(
        request,
        "inspections/form.html",
        form,
        title=f"Dry-weather screening of outfall {outfall.code}",
    )


@staff_page
def screening_detail(request, pk):
    screening = get_object_or_404(
        OutfallScreening.objects.select_related("outfall", "case", "screened_by"), pk=pk
    )
    if request.method == "POST":
        case = _simple_action(
            request,
            lambda: services.screening_open_case(
                actor=request.user, screening=screening
            ),
            "Case opened from the screening.",
        )
        back = redirect("inspections:screening_detail", pk)
        return back if case is None else _case_redirect(case, back)
    return render(
        request,
        "inspections/screening_detail.html",
        {"screening": screening, "can_write": has_role(request.user, Role.SMO)},
    )


# --- spills -----------------------------------------------------------------
@staff_page
def spill_list(request):
    return render(
        request,
        "inspections/spill_list.html",
        {
            "spills": selectors.spill_list(),
            "can_write": has_role(request.user, Role.SMO),
        },
    )


@staff_page
def spill_new(request):
    form = forms.SpillForm(request.POST or None)
    if request.method == "POST":
        spill = _attempt(
            request,
            form,
            lambda d: services.spill_record(actor=request.user, **d),
            "Spill notification recorded.",
        )
        if spill:
            return redirect("inspections:spill_detail", spill.pk)
    return _form_page(
        request,
        "inspections/spill_form.html",
        form,
        title="Record a spill notification",
    )


def _spill(pk):
    return get_object_or_404(selectors.spill_list(), pk=pk)


@staff_page
def spill_detail(request, pk):
    spill = _spill(pk)
    confirm_form = forms.SpillConfirmationForm(request.POST or None)
    close_form = forms.SpillCloseForm(request.POST or None)
    if request.method == "POST":
        action = request.POST.get("action")
        user = request.user
        back = redirect("inspections:spill_detail", pk)
        if action == "record_confirmation":
            if _attempt(
                request,
                confirm_form,
                lambda d: services.spill_record_confirmation(
                    actor=user,
                    spill=spill,
                    mailed_on=d["confirmation_mailed_on"],
                    received_on=d["confirmation_received_on"],
                ),
                "Written confirmation recorded.",
            ):
                return back
        elif action == "mark_confirmation_missing":
            _simple_action(
                request,
                lambda: services.spill_mark_confirmation_missing(
                    actor=user, spill=spill
                ),
                "Written confirmation marked missing.",
            )
            return back
        elif action == "close":
            if _attempt(
                request,
                close_form,
                lambda d: services.spill_close(actor=user, spill=spill, **d),
                "Spill notification closed.",
            ):
                return back
        elif action == "open_case":
            case = _simple_action(
                request,
                lambda: services.spill_open_case(actor=user, spill=spill),
                "Spill case opened.",
            )
            return back if case is None else _case_redirect(case, back)
        else:
            messages.error(request, "Unknown action.")
            return back
        spill = _spill(pk)
    return render(
        request,
        "inspections/spill_detail.html",
        {
            "spill": spill,
            "confirm_form": confirm_form,
            "close_form": close_form,
            "transitions": available(spill, request.user),
            "deadlines": deadlines_for(spill),
            "can_write": has_role(request.user, Role.SMO),
        },
    )


# --- dye tests and discharge approvals --------------------------------------
@staff_page
def dyetest_list(request):
    form = forms.DyeTestForm(request.POST or None)
    if request.method == "POST" and _attempt(
        request,
        form,
        lambda d: services.dye_test_record(actor=request.user, **d),
        "Dye-test notice recorded.",
    ):
        return redirect("inspections:dyetest_list")
    return render(
        request,
        "inspections/dyetest_list.html",
        {
            "notices": selectors.dye_test_list(),
            "form": form,
            "can_write": has_role(request.user, Role.SMO),
        },
    )


@staff_page
def approval_list(request):
    form = forms.ApprovalForm(
        request.POST or None, initial={"approved_on": timezone.localdate()}
    )
    if request.method == "POST" and _attempt(
        request,
        form,
        lambda d: services.approval_record(actor=request.user, **d),
        "Discharge approval recorded (R-PRO-3).",
    ):
        return redirect("inspections:approval_list")
    today = timezone.localdate()
    return render(
        request,
        "inspections/approval_list.html",
        {
            "approvals": selectors.approval_list(),
            "in_force": set(
                selectors.approvals_in_force(on=today).values_list("pk", flat=True)
            ),
            "form": form,
            "can_write": has_role(request.user, Role.SMO),
        },
    )
