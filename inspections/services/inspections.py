"""Inspections (R-ACC-1), their samples, photos and corrections, the case an
obstructed access opens (R-ACC-3), and warrant applications (R-ACC-4).

Every step of an inspection or a warrant application runs through
`kernel.workflow.run`; what is not a step is written with `record_on`."""

import datetime as dt

from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from cases.models import CaseKind, CaseSource
from cases.services import case_open
from kernel.humanize import human_datetime, human_long_date, human_short_date
from kernel.roles import Role, has_role, require_role
from kernel.uploads import process_image_upload
from kernel.workflow import Reason, Refused, run

from ..models import (
    Inspection,
    InspectionCorrection,
    InspectionPhoto,
    InspectionStatus,
    LockedRecordError,
    Sample,
    WarrantApplication,
)
from ._common import FIELD_WORK, local_date, not_future, record_on

CORRECTABLE_FIELDS = {
    "performed_at": "When the visit took place",
    "attendees": "Who went",
    "access_outcome": "Access outcome",
    "access_notes": "Access notes",
    "findings": "Findings",
    "sample": "A sample",
    "other": "Something else",
}


def _premises_for(*, premises, facility, case):
    """The premises an inspection is scheduled at: given, the facility's, or the
    case's. A case without premises is refused with the way to add them."""
    if facility is not None:
        premises = premises or facility.premises
        if facility.premises_id != premises.pk:
            raise Refused.invalid({"facility": "That facility is on other premises."})
    if premises is None and case is not None:
        if case.premises is None:
            raise Refused(
                Reason(
                    f"case {case.number} has no premises yet: an inspection is of "
                    "a premises, so add the premises to the case first",
                    rule_id="R-ACC-1",
                    url=reverse("cases:edit", args=[case.number]),
                    link_text="Add the premises",
                ),
                lead="Not scheduled:",
            )
        premises = case.premises
    if premises is None:
        raise Refused.invalid({"premises": "Choose the premises or the facility."})
    return premises


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
    """Schedule a routine, complaint or follow-up inspection (R-ACC-1) of the
    premises given, the facility's or the case's. Who: SMO staff. Raises
    ValidationError, Refused (a case without premises: with the link to add them)."""
    require_role(actor, Role.SMO, doing=FIELD_WORK)
    premises = _premises_for(premises=premises, facility=facility, case=case)
    if not has_role(officer, Role.SMO):
        raise Refused.invalid(
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
        record_on(
            inspection,
            actor=actor,
            kind="inspection",
            summary=f"{inspection.get_kind_display()} inspection scheduled for "
            f"{human_datetime(scheduled_for)} "
            f"({officer.get_full_name() or officer.username})",
            rule_id="R-ACC-1",
            to_status=inspection.status,
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
    expected_status: str | None = None,
    provenance: str = "",
) -> Inspection:
    """Record the visit: when, who went and the access outcome (R-ACC-1).
    `provenance` is added to the chronology's entry (a record made offline on a
    phone says when it was made and received). Who: SMO staff. Raises
    ValidationError, Refused, CaseChangedError."""
    require_role(actor, Role.SMO, doing=FIELD_WORK)
    not_future(performed_at, "performed_at", "The visit time")
    if access_outcome not in Inspection.Access.values:
        raise Refused.invalid({"access_outcome": "Choose the access outcome."})
    if access_outcome != Inspection.Access.GRANTED and not access_notes.strip():
        raise Refused.invalid(
            {
                "access_notes": "Say who delayed or refused access and what was said "
                "(R-ACC-3)."
            }
        )
    outcome = Inspection.Access(access_outcome).label
    when = timezone.localtime(performed_at) if performed_at else None
    return run(
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
        expected_status=expected_status,
        event_kind="inspection",
        summary=lambda label, was, now: (
            f"Inspection {inspection.pk} recorded: "
            f"{outcome}"
            + (f" ({human_datetime(when)})" if when else "")
            + (f"; {provenance}" if provenance else "")
        ),
        detail="\n\n".join(t for t in (access_notes, findings) if t),
    )


def inspection_update_findings(*, actor, inspection, findings: str) -> Inspection:
    """Change the findings of a recorded (not yet finalized) inspection.
    Who: SMO staff. Raises LockedRecordError once finalized."""
    require_role(actor, Role.SMO, doing=FIELD_WORK)
    with transaction.atomic():
        locked = Inspection.objects.select_for_update().get(pk=inspection.pk)
        if not locked.takes_findings_edits:
            raise LockedRecordError(
                "Findings can be edited only on a recorded inspection that is not "
                "finalized; add a correction instead."
            )
        locked.findings = findings
        locked.save()
        record_on(
            locked,
            actor=actor,
            kind="inspection",
            summary=f"Inspection {locked.pk} findings edited (before finalizing)",
            detail=findings,
        )
    return locked


def inspection_finalize(
    *, actor, inspection, expected_status: str | None = None
) -> Inspection:
    """Finalize and lock the inspection. Who: SMO staff. Raises Refused."""
    require_role(actor, Role.SMO, doing=FIELD_WORK)
    return run(
        inspection,
        "finalize",
        actor=actor,
        fields={"finalized_by": actor},
        expected_status=expected_status,
        event_kind="inspection",
        summary=lambda label, was, now: (
            f"Inspection {inspection.pk} finalized and locked"
        ),
    )


def inspection_cancel(
    *, actor, inspection, reason: str, expected_status: str | None = None
) -> Inspection:
    """Cancel a scheduled inspection. Who: SMO staff. Raises Refused."""
    require_role(actor, Role.SMO, doing=FIELD_WORK)
    return run(
        inspection,
        "cancel",
        actor=actor,
        fields={"cancelled_reason": reason},
        expected_status=expected_status,
        event_kind="inspection",
        summary=lambda label, was, now: f"Inspection {inspection.pk} cancelled",
        detail=reason,
    )


def inspection_add_correction(
    *, actor, inspection, field_name: str, corrected_text: str, reason: str
) -> InspectionCorrection:
    """Add a correction beside a finalized inspection (the inspection itself never
    changes). Who: SMO staff. Raises ValidationError."""
    require_role(actor, Role.SMO, doing=FIELD_WORK)
    if field_name not in CORRECTABLE_FIELDS:
        raise Refused.invalid({"field_name": "Choose what is corrected."})
    if not corrected_text.strip() or not reason.strip():
        raise Refused.invalid("Give the correct information and the reason.")
    with transaction.atomic():
        locked = Inspection.objects.select_for_update().get(pk=inspection.pk)
        if locked.status != InspectionStatus.FINALIZED:
            raise Refused.invalid(
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
        record_on(
            correction,
            of=locked,
            actor=actor,
            kind="inspection",
            summary=f"Correction added to inspection {locked.pk}: "
            f"{CORRECTABLE_FIELDS[field_name]}",
            detail=f"{corrected_text}\n\nReason: {reason}",
        )
    return correction


def sample_add(*, actor, inspection, **fields) -> Sample:
    """Record a sample taken on the inspection. Who: SMO staff. Raises
    ValidationError (a sample date after today is refused), LockedRecordError."""
    require_role(actor, Role.SMO, doing=FIELD_WORK)
    not_future(fields.get("sampled_on"), "sampled_on", "The sampling date")
    if not str(fields.get("chain_of_custody_number", "")).strip():
        raise Refused.invalid(
            {"chain_of_custody_number": "Give the chain-of-custody number."}
        )
    with transaction.atomic():
        locked = Inspection.objects.select_for_update().get(pk=inspection.pk)
        if locked.performed_at and fields["sampled_on"] < local_date(
            locked.performed_at
        ):
            raise Refused.invalid(
                {"sampled_on": "The sample cannot be taken before the visit."}
            )
        sample = Sample(inspection=locked, recorded_by=actor, **fields)
        sample.full_clean()
        sample.save()
        record_on(
            sample,
            of=locked,
            actor=actor,
            kind="inspection",
            summary=f"Sample recorded on inspection {locked.pk}: {sample}",
            rule_id="R-ACC-1",
        )
    return sample


def photo_add(
    *, actor, inspection, upload, caption: str = "", taken_by=None
) -> InspectionPhoto:
    """Attach a photo: decoded, re-encoded without metadata, original kept
    privately with its SHA-256; `taken_by` (default: `actor`) is who took it,
    when another staff member places it. Who: SMO staff. Raises ValidationError."""
    require_role(actor, Role.SMO, doing=FIELD_WORK)
    processed = process_image_upload(upload)
    with transaction.atomic():
        locked = Inspection.objects.select_for_update().get(pk=inspection.pk)
        photo = InspectionPhoto.of(
            processed,
            inspection=locked,
            caption=caption,
            uploaded_by=taken_by or actor,
        )
        photo.save()
        record_on(
            photo,
            of=locked,
            actor=actor,
            kind="inspection",
            summary=f"Inspection {locked.pk} photo added ({processed.original_name})",
            detail=f"SHA-256 {processed.original_sha256}",
        )
    return photo


def inspection_open_case(*, actor, inspection):
    """Open an access-obstruction case (R-ACC-3) from a delayed or refused
    inspection and link it. Who: SMO staff. Raises ValidationError."""
    require_role(actor, Role.SMO, doing=FIELD_WORK)
    with transaction.atomic():
        locked = Inspection.objects.select_for_update().get(pk=inspection.pk)
        if not locked.access_obstructed:
            raise Refused.invalid(
                "Only a delayed or refused access opens an access case (R-ACC-3)."
            )
        if locked.case_id is not None:
            raise Refused.invalid(
                f"This inspection already belongs to case {locked.case.number}."
            )
        when = timezone.localtime(locked.performed_at)
        case = case_open(
            actor=actor,
            source=CaseSource.INSPECTION,
            kind=CaseKind.ACCESS_OBSTRUCTION,
            summary=f"{locked.get_access_outcome_display()} at {locked.premises} "
            f"on {human_short_date(when)}",
            description=locked.access_notes,
            premises=locked.premises,
            assigned_officer=locked.officer,
        )
        locked.case = case  # fills an empty link: allowed even when finalized
        locked.save()
        record_on(
            locked,
            actor=actor,
            kind="inspection",
            summary=f"Inspection {locked.pk} ({human_datetime(when)}): "
            f"{locked.get_access_outcome_display()}",
            detail=locked.access_notes,
            rule_id="R-ACC-3",
        )
    return case


def warrant_start(
    *, actor, inspection, probable_cause: str = "", court: str = ""
) -> WarrantApplication:
    """Start a search-warrant application after access was refused (R-ACC-4).
    Who: SMO staff. Raises ValidationError when access was not refused."""
    require_role(actor, Role.SMO, doing=FIELD_WORK)
    with transaction.atomic():
        locked = Inspection.objects.select_for_update().get(pk=inspection.pk)
        if not locked.access_refused:
            raise Refused.invalid(
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
        record_on(
            warrant,
            actor=actor,
            kind="inspection",
            summary=f"Search-warrant application {warrant.pk} started after "
            f"inspection {locked.pk} (access refused)",
            rule_id="R-ACC-4",
            to_status=warrant.status,
        )
    return warrant


def warrant_update_draft(
    *, actor, warrant, probable_cause: str, court: str
) -> WarrantApplication:
    """Edit a draft application. Who: SMO staff."""
    require_role(actor, Role.SMO, doing=FIELD_WORK)
    with transaction.atomic():
        locked = WarrantApplication.objects.select_for_update().get(pk=warrant.pk)
        if not locked.is_draft:
            raise Refused.invalid("Only a draft application can be edited.")
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

# The steps of a warrant application a page may take (each with its date).
WARRANT_STEPS = tuple(WARRANT_DATE_FIELD)

# How the chronology words each step of a warrant application.
WARRANT_WORDS = {
    "file": "filed with the court",
    "record_issued": "search warrant issued",
    "record_denied": "search warrant denied",
    "record_executed": "search warrant executed",
}


def warrant_advance(
    *,
    actor,
    warrant,
    transition: str,
    on: dt.date | None,
    notes: str = "",
    probable_cause: str | None = None,
    court: str | None = None,
    expected_status: str | None = None,
) -> WarrantApplication:
    """File the application, record the court's decision, or its execution
    (R-ACC-4). `on` is the date of that step; filing may also give the
    probable-cause statement and the court. Who: SMO staff. Raises
    ValidationError for an impossible date, Refused, CaseChangedError."""
    require_role(actor, Role.SMO, doing=FIELD_WORK)
    if transition not in WARRANT_DATE_FIELD:
        raise Refused(f"There is no step “{transition}” for a warrant application.")
    field = WARRANT_DATE_FIELD[transition]
    not_future(on, field, "That date")
    fields = {field: on}
    if transition == "file":
        if probable_cause is not None:
            fields["probable_cause"] = probable_cause
        if court is not None:
            fields["court"] = court

    def after_the_previous_step(locked):
        performed = locked.inspection.performed_at
        earlier = {
            "filed_on": local_date(performed) if performed else None,
            "issued_on": locked.filed_on,
            "denied_on": locked.filed_on,
            "executed_on": locked.issued_on,
        }[field]
        if on is not None and earlier is not None and on < earlier:
            raise Refused.invalid(
                {
                    field: "This date is before the previous step "
                    f"({human_long_date(earlier)})."
                }
            )
        if notes:
            locked.outcome_notes = (locked.outcome_notes + "\n" + notes).strip()

    def words(label, was, now):
        court_name = fields.get("court") or warrant.court
        text = f"Warrant application {warrant.pk}: {WARRANT_WORDS[transition]}"
        if on is not None:
            text += f" on {human_long_date(on)}"
        return text + (f" — {court_name}" if court_name else "")

    return run(
        warrant,
        transition,
        actor=actor,
        fields=fields,
        expected_status=expected_status,
        event_kind="inspection",
        summary=words,
        detail=notes,
        before=after_the_previous_step,
    )
