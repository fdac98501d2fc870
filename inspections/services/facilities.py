"""Facilities, proof of compliance, monitoring equipment and BMP requirements."""

import datetime as dt

from django.db import transaction
from django.utils import timezone

from cases.clocks import apply as apply_clocks
from kernel.humanize import human_long_date
from kernel.roles import Role, require_role
from kernel.workflow import Refused

from ..models import (
    BMPRequirement,
    Calibration,
    ComplianceProofRequest,
    Facility,
    MonitoringEquipment,
)
from ._common import FIELD_WORK, not_future, record_on

FACILITY_FIELDS = (
    "premises",
    "name",
    "operator",
    "contact_email",
    "permit_type",
    "permit_number",
    "permit_issued_on",
    "permit_expires_on",
    "disturbed_acres",
    "ms4_approval_on",
    "ms4_approval_reference",
    "notes",
)


def facility_save(*, actor, facility: Facility | None = None, **fields) -> Facility:
    """Create or update a facility with its SPDES permit (R-IND-1, R-PRO-5).
    Who: SMO staff. Raises ValidationError (e.g. a "construction" permit for less
    than 1/8 acre, R-DEF-1) with nothing saved."""
    require_role(actor, Role.SMO, doing=FIELD_WORK)
    facility = facility or Facility()
    for name in FACILITY_FIELDS:
        if name in fields:
            setattr(facility, name, fields[name])
    not_future(facility.ms4_approval_on, "ms4_approval_on", "The written approval")
    facility.full_clean()
    with transaction.atomic():
        facility.save()
    return facility


def proof_request_create(
    *, actor, facility, requested_on: dt.date, what_is_required: str, case=None
) -> ComplianceProofRequest:
    """Ask a permittee for proof of compliance with its permit (R-IND-1).
    Who: SMO staff. Raises ValidationError."""
    require_role(actor, Role.SMO, doing=FIELD_WORK)
    not_future(requested_on, "requested_on", "The request date")
    if not what_is_required.strip():
        raise Refused.invalid({"what_is_required": "Say what proof is required."})
    with transaction.atomic():
        req = ComplianceProofRequest.objects.create(
            facility=facility,
            case=case,
            requested_on=requested_on,
            requested_by=actor,
            what_is_required=what_is_required,
        )
        record_on(
            actor=actor,
            kind="inspection",
            summary=f"Proof of permit compliance requested from {facility.name}",
            detail=what_is_required,
            subject=req,
            rule_id="R-IND-1",
        )
    return req


def proof_record(
    *, actor, request, received_on: dt.date, description: str, accepted: bool
) -> ComplianceProofRequest:
    """File the proof of compliance received (R-IND-1). Who: SMO staff."""
    require_role(actor, Role.SMO, doing=FIELD_WORK)
    not_future(received_on, "proof_received_on", "The date received")
    if received_on < request.requested_on:
        raise Refused.invalid(
            {"proof_received_on": "The proof cannot arrive before it was requested."}
        )
    if not description.strip():
        raise Refused.invalid({"proof_description": "Describe the proof filed."})
    with transaction.atomic():
        req = ComplianceProofRequest.objects.select_for_update().get(pk=request.pk)
        if req.proof_received_on is not None:
            raise Refused.invalid("Proof was already filed for this request.")
        req.proof_received_on = received_on
        req.proof_description = description
        req.accepted = accepted
        req.save()
        record_on(
            actor=actor,
            kind="inspection",
            summary=f"Proof of permit compliance filed ({'accepted' if accepted else 'not accepted'})",
            subject=req,
            rule_id="R-IND-1",
        )
    return req


def equipment_create(*, actor, facility, **fields) -> MonitoringEquipment:
    """Register monitoring equipment on a facility (R-ACC-2). Who: SMO staff."""
    require_role(actor, Role.SMO, doing=FIELD_WORK)
    equipment = MonitoringEquipment(facility=facility, **fields)
    not_future(equipment.installed_on, "installed_on", "The installation date")
    if not equipment.calibration_interval_months:
        raise Refused.invalid(
            {"calibration_interval_months": "Give at least one month."}
        )
    equipment.full_clean()
    with transaction.atomic():
        equipment.save()
    return equipment


def calibration_record(
    *, actor, equipment, calibrated_on: dt.date, calibrated_by: str, notes: str = ""
) -> Calibration:
    """Record a calibration (R-ACC-2): meets the open recalibration deadline and
    opens the next one, `calibration_interval_months` later. Who: SMO staff.
    Raises ValidationError for a date in the future or before the last calibration."""
    require_role(actor, Role.SMO, doing=FIELD_WORK)
    not_future(calibrated_on, "calibrated_on", "The calibration date")
    if not calibrated_by.strip():
        raise Refused.invalid({"calibrated_by": "Say who calibrated it."})
    with transaction.atomic():
        equipment = MonitoringEquipment.objects.select_for_update().get(pk=equipment.pk)
        last = equipment.calibrations.order_by("-calibrated_on").first()
        if last is not None and calibrated_on < last.calibrated_on:
            raise Refused.invalid(
                {
                    "calibrated_on": "A later calibration "
                    f"({human_long_date(last.calibrated_on)}) is already recorded; this date "
                    "is earlier."
                }
            )
        calibration = Calibration.objects.create(
            equipment=equipment,
            calibrated_on=calibrated_on,
            calibrated_by=calibrated_by,
            notes=notes,
            recorded_by=actor,
        )
        # R-ACC-2 met and the next one started: the clock table (cases.clocks).
        apply_clocks(calibration, "record", actor=actor)
    return calibration


def bmp_require(
    *,
    actor,
    premises,
    practice_type: str,
    description: str,
    required_on: dt.date,
    days_to_implement: int = 30,
    at_persons_expense: bool = True,
    facility=None,
    case=None,
    responsible_party=None,
) -> BMPRequirement:
    """Require best management practices of a person (R-BMP-1) and open the
    implementation deadline (`days_to_implement` calendar days). Who: SMO staff."""
    require_role(actor, Role.SMO, doing=FIELD_WORK)
    not_future(required_on, "required_on", "The requirement date")
    if not days_to_implement or days_to_implement < 1:
        raise Refused.invalid({"days_to_implement": "Give at least one day."})
    if facility is not None and facility.premises_id != premises.pk:
        raise Refused.invalid({"facility": "That facility is on other premises."})
    with transaction.atomic():
        bmp = BMPRequirement(
            premises=premises,
            facility=facility,
            case=case,
            responsible_party=responsible_party,
            practice_type=practice_type,
            description=description,
            at_persons_expense=at_persons_expense,
            required_on=required_on,
            days_to_implement=days_to_implement,
            created_by=actor,
        )
        bmp.full_clean()
        bmp.save()
        record_on(
            actor=actor,
            kind="inspection",
            summary=f"{bmp.get_practice_type_display()} BMPs required at {premises}",
            detail=description,
            subject=bmp,
            rule_id="R-BMP-1",
        )
        apply_clocks(bmp, "require", actor=actor)  # R-BMP-1 (cases.clocks)
    return bmp


def bmp_verify(*, actor, bmp, verified_on: dt.date, notes: str) -> BMPRequirement:
    """Record that the BMPs were verified in place; meets the R-BMP-1 deadline
    (late if after it). Who: SMO staff."""
    require_role(actor, Role.SMO, doing=FIELD_WORK)
    not_future(verified_on, "verified_on", "The verification date")
    if verified_on < bmp.required_on:
        raise Refused.invalid(
            {"verified_on": "Verification cannot come before the requirement."}
        )
    with transaction.atomic():
        bmp = BMPRequirement.objects.select_for_update().get(pk=bmp.pk)
        if bmp.is_satisfied:
            raise Refused.invalid("This requirement is already satisfied.")
        bmp.verified_on = verified_on
        bmp.verification_notes = notes
        bmp.save()
        apply_clocks(bmp, "verify", actor=actor)  # R-BMP-1 met (cases.clocks)
        record_on(
            actor=actor,
            kind="inspection",
            summary=f"BMPs verified on {human_long_date(verified_on)}",
            detail=notes,
            subject=bmp,
            rule_id="R-BMP-1",
        )
    return bmp


def bmp_mark_satisfied_by_permit(*, actor, bmp) -> BMPRequirement:
    """§ 132-8: a valid industrial SPDES permit of the facility counts as compliance
    with the BMP requirement; the deadline is waived. Who: SMO staff. Raises
    ValidationError when the facility holds no valid industrial permit today."""
    require_role(actor, Role.SMO, doing=FIELD_WORK)
    with transaction.atomic():
        bmp = BMPRequirement.objects.select_for_update().get(pk=bmp.pk)
        facility = bmp.facility
        if facility is None or not facility.has_valid_industrial_permit(
            timezone.localdate()
        ):
            raise Refused.invalid(
                "Only a valid industrial SPDES permit of the facility satisfies a "
                "BMP requirement (R-BMP-1); this facility holds none today."
            )
        if bmp.is_satisfied:
            raise Refused.invalid("This requirement is already satisfied.")
        bmp.satisfied_by_permit = True
        bmp.save()
        apply_clocks(bmp, "satisfy_by_permit", actor=actor)  # R-BMP-1 ends
        record_on(
            actor=actor,
            kind="inspection",
            summary=f"BMP requirement satisfied by SPDES permit {facility.permit_number}",
            subject=bmp,
            rule_id="R-BMP-1",
        )
    return bmp
