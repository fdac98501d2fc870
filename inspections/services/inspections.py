"""Inspections (R-ACC-1), their samples, photos and corrections, the case an
obstructed access opens (R-ACC-3), and warrant applications (R-ACC-4)."""

import datetime as dt

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from cases.models import CaseKind, CaseSource
from cases.roles import Role, has_role
from cases.services import Refused, case_open
from cases.uploads import process_image_upload

from ..models import (
    Inspection,
    InspectionCorrection,
    InspectionPhoto,
    InspectionStatus,
    LockedRecordError,
    Sample,
    WarrantApplication,
)
from ._common import event, fire, local_date, not_future, require_smo

CORRECTABLE_FIELDS = {
    "performed_at": "When the visit took place",
    "attendees": "Who went",
    "access_outcome": "Access outcome",
    "access_notes": "Access notes",
    "findings": "Findings",
    "sample": "A sample",
    "other": "Something else",
}


def inspection_schedule(
    *,
    actor,
    kind: str,
    premises,
    officer,
    scheduled_for: dt.datetime,
    facility=None,
    case=None,
    purpose: str = "",
) -> Inspection:
    """Schedule a routine, complaint or follow-up inspection (R-ACC-1).
    Who: SMO staff. Raises ValidationError."""
    require_smo(actor)
    if facility is not None:
        premises = premises or facility.premises
        if facility.premises_id != premises.pk:
            raise ValidationError({"facility": "That facility is on other premises."})
    if premises is None:
        raise ValidationError({"premises": "Choose the premises or the facility."})
    if not has_role(officer, Role.SMO):
        raise ValidationError(
            {"officer": "The officer must be a member of the SMO staff."}
        )
    with transaction.atomic():
        inspection = Inspection.objects.create(
            kind=kind,
            premises=premises,
            facility=facility,
            case=case,
            officer=officer,
            scheduled_for=scheduled_for,
            purpose=purpose,
            created_by=actor,
        )
        event(
            case=case,
            actor=actor,
            kind="inspection",
            summary=f"{inspection.get_kind_display()} inspection scheduled for "
            f"{timezone.localtime(scheduled_for):%Y-%m-%d %H:%M} "
            f"({officer.get_full_name() or officer.username})",
            subject=inspection,
            rule_id="R-ACC-1",
        )
    return inspection


def inspection_record(
    *,
    actor,
    inspection,
    performed_at: dt.datetime,
    attendees: str,
    access_outcome: str,
    access_notes: str = "",
    findings: str = "",
) -> Inspection:
    """Record the visit: when, who went and the access outcome (R-ACC-1).
    Who: SMO staff. Raises ValidationError, Refused, CaseChangedError."""
    require_smo(actor)
    not_future(performed_at, "performed_at", "The visit time")
    if access_outcome not in Inspection.Access.values:
        raise ValidationError({"access_outcome": "Choose the access outcome."})
    if access_outcome != Inspection.Access.GRANTED and not access_notes.strip():
        raise ValidationError(
            {
                "access_notes": "Say who delayed or refused access and what was said "
                "(R-ACC-3)."
            }
        )
    with transaction.atomic():
        locked, from_status, meta = fire(
            Inspection,
            inspection,
            "record_visit",
            actor=actor,
            fields={
                "performed_at": performed_at,
                "attendees": attendees,
                "access_outcome": access_outcome,
                "access_notes": access_notes,
                "findings": findings,
            },
        )
        event(
            case=locked.case,
            actor=actor,
            kind="inspection",
            summary=f"Inspection recorded: {locked.get_access_outcome_display()}",
            detail=findings,
            subject=locked,
            rule_id="R-ACC-3" if locked.access_obstructed else "R-ACC-1",
            from_status=from_status,
            to_status=locked.status,
        )
    return locked


def inspection_update_findings(*, actor, inspection, findings: str) -> Inspection:
    """Change the findings of a recorded (not yet finalized) inspection.
    Who: SMO staff. Raises LockedRecordError once finalized."""
    require_smo(actor)
    with transaction.atomic():
        locked = Inspection.objects.select_for_update().get(pk=inspection.pk)
        if locked.status != InspectionStatus.RECORDED:
            raise LockedRecordError(
                "Findings can be edited only on a recorded inspection that is not "
                "finalized; add a correction instead."
            )
        locked.findings = findings
        locked.save()
        event(
            case=locked.case,
            actor=actor,
            kind="inspection",
            summary="Inspection findings edited (before finalizing)",
            detail=findings,
            subject=locked,
        )
    return locked


def inspection_finalize(*, actor, inspection) -> Inspection:
    """Finalize and lock the inspection. Who: SMO staff. Raises Refused."""
    require_smo(actor)
    with transaction.atomic():
        locked, from_status, meta = fire(
            Inspection,
            inspection,
            "finalize",
            actor=actor,
            fields={"finalized_by": actor},
        )
        event(
            case=locked.case,
            actor=actor,
            kind="inspection",
            summary="Inspection finalized and locked",
            subject=locked,
            rule_id="R-ACC-1",
            from_status=from_status,
            to_status=locked.status,
        )
    return locked


def inspection_cancel(*, actor, inspection, reason: str) -> Inspection:
    """Cancel a scheduled inspection. Who: SMO staff. Raises Refused."""
    require_smo(actor)
    with transaction.atomic():
        locked, from_status, meta = fire(
            Inspection,
            inspection,
            "cancel",
            actor=actor,
            fields={"cancelled_reason": reason},
        )
        event(
            case=locked.case,
            actor=actor,
            kind="inspection",
            summary="Inspection cancelled",
            detail=reason,
            subject=locked,
            from_status=from_status,
            to_status=locked.status,
        )
    return locked


def inspection_add_correction(
    *, actor, inspection, field_name: str, corrected_text: str, reason: str
) -> InspectionCorrection:
    """Add a correction beside a finalized inspection (the inspection itself never
    changes). Who: SMO staff. Raises ValidationError."""
    require_smo(actor)
    if field_name not in CORRECTABLE_FIELDS:
        raise ValidationError({"field_name": "Choose what is corrected."})
    if not corrected_text.strip() or not reason.strip():
        raise ValidationError("Give the correct information and the reason.")
    with transaction.atomic():
        locked = Inspection.objects.select_for_update().get(pk=inspection.pk)
        if locked.status != InspectionStatus.FINALIZED:
            raise ValidationError(
                "Corrections are for finalized inspections; this one can still be "
                "edited."
            )
        correction = InspectionCorrection.objects.create(
            inspection=locked,
            field_name=field_name,
            corrected_text=corrected_text,
            reason=reason,
            created_by=actor,
        )
        event(
            case=locked.case,
            actor=actor,
            kind="inspection",
            summary=f"Correction added to inspection {locked.pk}: "
            f"{CORRECTABLE_FIELDS[field_name]}",
            detail=f"{corrected_text}\n\nReason: {reason}",
            subject=correction,
        )
    return correction


def sample_add(*, actor, inspection, **fields) -> Sample:
    """Record a sample taken on the inspection. Who: SMO staff. Raises
    ValidationError (a sample date after today is refused), LockedRecordError."""
    require_smo(actor)
    not_future(fields.get("sampled_on"), "sampled_on", "The sampling date")
    if not str(fields.get("chain_of_custody_number", "")).strip():
        raise ValidationError(
            {"chain_of_custody_number": "Give the chain-of-custody number."}
        )
    with transaction.atomic():
        locked = Inspection.objects.select_for_update().get(pk=inspection.pk)
        if locked.performed_at and fields["sampled_on"] < local_date(
            locked.performed_at
        ):
            raise ValidationError(
                {"sampled_on": "The sample cannot be taken before the visit."}
            )
        sample = Sample(inspection=locked, recorded_by=actor, **fields)
        sample.full_clean()
        sample.save()
        event(
            case=locked.case,
            actor=actor,
            kind="inspection",
            summary=f"Sample recorded: {sample}",
            subject=sample,
            rule_id="R-ACC-1",
        )
    return sample


def photo_add(*, actor, inspection, upload, caption: str = "") -> InspectionPhoto:
    """Attach a photo: decoded, re-encoded without metadata, original kept
    privately with its SHA-256. Who: SMO staff. Raises ValidationError."""
    require_smo(actor)
    processed = process_image_upload(upload)
    with transaction.atomic():
        locked = Inspection.objects.select_for_update().get(pk=inspection.pk)
        photo = InspectionPhoto(
            inspection=locked,
            caption=caption,
            original=processed.original,
            original_sha256=processed.original_sha256,
            original_name=processed.original_name,
            display=processed.display,
            width=processed.width,
            height=processed.height,
            uploaded_by=actor,
        )
        photo.save()
        event(
            case=locked.case,
            actor=actor,
            kind="inspection",
            summary=f"Inspection photo added ({processed.original_name})",
            detail=f"SHA-256 {processed.original_sha256}",
            subject=photo,
        )
    return photo


def inspection_open_case(*, actor, inspection):
    """Open an access-obstruction case (R-ACC-3) from a delayed or refused
    inspection and link it. Who: SMO staff. Raises ValidationError."""
    require_smo(actor)
    with transaction.atomic():
        locked = Inspection.objects.select_for_update().get(pk=inspection.pk)
        if not locked.access_obstructed:
            raise ValidationError(
                "Only a delayed or refused access opens an access case (R-ACC-3)."
            )
        if locked.case_id is not None:
            raise ValidationError(
                f"This inspection already belongs to case {locked.case.number}."
            )
        when = timezone.localtime(locked.performed_at)
        case = case_open(
            actor=actor,
            source=CaseSource.INSPECTION,
            kind=CaseKind.ACCESS_OBSTRUCTION,
            summary=f"{locked.get_access_outcome_display()} at {locked.premises} "
            f"on {when:%Y-%m-%d}",
            description=locked.access_notes,
            premises=locked.premises,
            assigned_officer=locked.officer,
        )
        locked.case = case  # fills an empty link: allowed even when finalized
        locked.save()
        event(
            case=case,
            actor=actor,
            kind="inspection",
            summary=f"Inspection {locked.pk} ({when:%Y-%m-%d %H:%M}): "
            f"{locked.get_access_outcome_display()}",
            detail=locked.access_notes,
            subject=locked,
            rule_id="R-ACC-3",
        )
    return case


def warrant_start(
    *, actor, inspection, probable_cause: str = "", court: str = ""
) -> WarrantApplication:
    """Start a search-warrant application after access was refused (R-ACC-4).
    Who: SMO staff. Raises ValidationError when access was not refused."""
    require_smo(actor)
    with transaction.atomic():
        locked = Inspection.objects.select_for_update().get(pk=inspection.pk)
        if not locked.access_refused:
            raise ValidationError(
                "A search warrant may be sought only after access was refused "
                "(R-ACC-4). Record the refusal on the inspection first."
            )
        warrant = WarrantApplication.objects.create(
            inspection=locked,
            case=locked.case,
            probable_cause=probable_cause,
            court=court,
            prepared_by=actor,
        )
        event(
            case=locked.case,
            actor=actor,
            kind="inspection",
            summary="Search-warrant application started",
            subject=warrant,
            rule_id="R-ACC-4",
            to_status=warrant.status,
        )
    return warrant


def warrant_update_draft(
    *, actor, warrant, probable_cause: str, court: str
) -> WarrantApplication:
    """Edit a draft application. Who: SMO staff."""
    require_smo(actor)
    with transaction.atomic():
        locked = WarrantApplication.objects.select_for_update().get(pk=warrant.pk)
        if locked.status != locked._meta.get_field("status").default:
            raise ValidationError("Only a draft application can be edited.")
        locked.probable_cause = probable_cause
        locked.court = court
        locked.save()
    return locked


WARRANT_DATE_FIELD = {
    "file": "filed_on",
    "record_issued": "issued_on",
    "record_denied": "denied_on",
    "record_executed": "executed_on",
}


def warrant_advance(
    *, actor, warrant, transition: str, on: dt.date | None, notes: str = ""
) -> WarrantApplication:
    """File the application, record the court's decision, or its execution
    (R-ACC-4). `on` is the date of that step. Who: SMO staff. Raises
    ValidationError for an impossible date, Refused."""
    require_smo(actor)
    if transition not in WARRANT_DATE_FIELD:
        raise Refused(f"Unknown action {transition!r}.")
    field = WARRANT_DATE_FIELD[transition]
    not_future(on, field, "That date")
    with transaction.atomic():
        current = WarrantApplication.objects.select_for_update().get(pk=warrant.pk)
        earlier = {
            "filed_on": local_date(current.inspection.performed_at)
            if current.inspection.performed_at
            else None,
            "issued_on": current.filed_on,
            "denied_on": current.filed_on,
            "executed_on": current.issued_on,
        }[field]
        if on is not None and earlier is not None and on < earlier:
            raise ValidationError(
                {field: f"This date is before the previous step ({earlier:%Y-%m-%d})."}
            )
        fields = {field: on}
        if notes:
            fields["outcome_notes"] = (current.outcome_notes + "\n" + notes).strip()
        locked, from_status, meta = fire(
            WarrantApplication, current, transition, actor=actor, fields=fields
        )
        event(
            case=locked.case or locked.inspection.case,
            actor=actor,
            kind="inspection",
            summary=f"Warrant application: {meta.custom['label']} "
            f"({on:%Y-%m-%d})" + (f" — {locked.court}" if locked.court else ""),
            detail=notes,
            subject=locked,
            rule_id="R-ACC-4",
            from_status=from_status,
            to_status=locked.status,
        )
    return locked
