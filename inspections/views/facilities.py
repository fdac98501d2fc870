"""Facilities and permits, monitoring equipment, BMP requirements (R-IND-1, R-ACC-2, R-BMP-1)."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from deadlines.services import deadlines_for
from kernel.actions import attempt
from kernel.roles import Role, has_role

from .. import forms, selectors, services
from ..models import (
    BMPRequirement,
    ComplianceProofRequest,
    Facility,
    MonitoringEquipment,
)
from .common import (
    _form_page,
    _linked_initial,
    staff_page,
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
        saved = attempt(
            request,
            form,
            lambda: services.facility_save(
                actor=request.user, facility=facility, **form.cleaned_data
            ),
            success="Facility saved.",
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
        if action == "proof_request" and attempt(
            request,
            proof_form,
            lambda: services.proof_request_create(
                actor=request.user, facility=facility, **proof_form.cleaned_data
            ),
            success="Proof of compliance requested (R-IND-1).",
        ):
            return redirect("inspections:facility_detail", pk)
        if action == "equipment" and attempt(
            request,
            equipment_form,
            lambda: services.equipment_create(
                actor=request.user, facility=facility, **equipment_form.cleaned_data
            ),
            success="Monitoring equipment added.",
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
    attempt(
        request,
        form,
        lambda: services.proof_record(
            actor=request.user,
            request=req,
            received_on=form.cleaned_data["proof_received_on"],
            description=form.cleaned_data["proof_description"],
            accepted=form.cleaned_data["accepted"],
        ),
        success="Proof of compliance filed.",
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
    if request.method == "POST" and attempt(
        request,
        form,
        lambda: services.calibration_record(
            actor=request.user, equipment=equipment, **form.cleaned_data
        ),
        success="Calibration recorded; next recalibration deadline opened (R-ACC-2).",
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
    initial = _linked_initial(
        request, required_on=timezone.localdate(), days_to_implement=30
    )
    form = forms.BMPForm(request.POST or None, initial=initial)
    if request.method == "POST":
        bmp = attempt(
            request,
            form,
            lambda: services.bmp_require(actor=request.user, **form.cleaned_data),
            success="BMP requirement recorded (R-BMP-1).",
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
            attempt(
                request,
                None,
                lambda: services.bmp_mark_satisfied_by_permit(
                    actor=request.user, bmp=bmp
                ),
                success="Marked satisfied by the facility's industrial SPDES permit.",
            )
            return redirect("inspections:bmp_detail", pk)
        if attempt(
            request,
            form,
            lambda: services.bmp_verify(
                actor=request.user, bmp=bmp, **form.cleaned_data
            ),
            success="BMPs verified.",
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
