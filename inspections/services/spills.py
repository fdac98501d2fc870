"""Spill notifications (§ 132-12): the record, its three deadlines and the
written confirmation."""

import datetime as dt

from django.db import transaction

from cases.clocks import apply as apply_clocks
from cases.models import CaseKind, CaseSource
from cases.services import case_open
from kernel.humanize import human_long_date
from kernel.roles import Role, require_role
from kernel.workflow import Refused, run

from ..models import SpillNotification
from ._common import FIELD_WORK, local_date, not_future, record_on

SPILL_FIELDS = (
    "reported_by",
    "reporter_email",
    "reporter_phone",
    "known_at",
    "material",
    "quantity",
    "hazardous",
    "containment_steps",
    "cleanup_steps",
    "dispatch_called_at",
    "notice_method",
    "notice_at",
    "commercial_or_industrial",
)


def _validate(spill: SpillNotification) -> None:
    not_future(spill.known_at, "known_at", "The time the release became known")
    errors = {}
    if spill.hazardous:
        if spill.dispatch_called_at is None:
            errors["dispatch_called_at"] = (
                "A hazardous release must be reported at once via emergency "
                "dispatch (911): give when that call was made (R-SPL-2)."
            )
        elif spill.dispatch_called_at < spill.known_at:
            errors["dispatch_called_at"] = (
                "The 911 call cannot come before the release became known."
            )
    not_future(spill.dispatch_called_at, "dispatch_called_at", "The 911 call")
    if bool(spill.notice_method) != bool(spill.notice_at):
        errors["notice_at"] = (
            "Give both how and when the village was told, or neither (no notice)."
        )
    if spill.notice_at is not None:
        not_future(spill.notice_at, "notice_at", "The notice to the village")
        if spill.notice_at < spill.known_at:
            errors["notice_at"] = (
                "The village cannot be told before the release became known."
            )
    if errors:
        raise Refused.invalid(errors)


def spill_record(*, actor, premises, facility=None, case=None, **fields):
    """Record a spill notification and open its deadlines, in one transaction:
    R-SPL-3 (nonhazardous: next business day after the day it became known; met at
    once with the notice date, late if after), R-SPL-4 (in-person or telephone
    notice: written confirmation within three business days of the notice, the
    discharger's e-mail gets the reminders), R-SPL-5 (commercial or industrial
    source: on-site record kept at least three years). Who: SMO staff.
    Raises ValidationError with nothing saved."""
    require_role(actor, Role.SMO, doing=FIELD_WORK)
    if facility is not None and facility.premises_id != premises.pk:
        raise Refused.invalid({"facility": "That facility is on other premises."})
    spill = SpillNotification(
        premises=premises, facility=facility, case=case, recorded_by=actor
    )
    for name in SPILL_FIELDS:
        if name in fields:
            setattr(spill, name, fields[name])
    # R-SPL-5: a facility, or premises recorded as commercial or industrial, is
    # such an establishment whatever the form's box says.
    spill.commercial_or_industrial = bool(
        fields.get("commercial_or_industrial")
        or facility is not None
        or premises.is_commercial_or_industrial
    )
    _validate(spill)
    if spill.notice_at is not None:
        spill.notice_received_by = actor
    spill.full_clean(exclude=["status"])
    with transaction.atomic():
        spill.save()
        record_on(
            spill,
            actor=actor,
            kind="spill",
            to_status=spill.status,
            summary=f"Spill notification {spill.pk} recorded: {spill.material}"
            f" ({'hazardous' if spill.hazardous else 'nonhazardous'})",
            detail=f"Containment: {spill.containment_steps}\n"
            f"Cleanup: {spill.cleanup_steps}",
            rule_id="R-SPL-2" if spill.hazardous else "R-SPL-1",
        )
        # R-SPL-3, R-SPL-4, R-SPL-5: the clock table's row (cases.clocks).
        apply_clocks(spill, "record", actor=actor)
    return spill


def spill_record_confirmation(
    *,
    actor,
    spill,
    mailed_on: dt.date,
    received_on: dt.date | None = None,
    expected_status: str | None = None,
) -> SpillNotification:
    """Record the written confirmation of an in-person or telephone notice
    (R-SPL-4). The ordinance asks that it be *mailed* within three business days,
    so the postmark date meets the deadline (late if after). Who: SMO staff.
    Raises ValidationError, Refused, CaseChangedError."""
    require_role(actor, Role.SMO, doing=FIELD_WORK)
    not_future(mailed_on, "confirmation_mailed_on", "The mailing date")
    not_future(received_on, "confirmation_received_on", "The date received")
    if spill.notice_at and mailed_on and mailed_on < local_date(spill.notice_at):
        raise Refused.invalid(
            {
                "confirmation_mailed_on": "The confirmation cannot be mailed before "
                "the notice it confirms."
            }
        )
    if received_on and mailed_on and received_on < mailed_on:
        raise Refused.invalid(
            {"confirmation_received_on": "It cannot arrive before it was mailed."}
        )
    due = spill.confirmation_deadline
    late = due is not None and mailed_on is not None and mailed_on > due.due_date

    return run(
        spill,
        "record_confirmation",
        actor=actor,
        fields={
            "confirmation_mailed_on": mailed_on,
            "confirmation_received_on": received_on,
        },
        expected_status=expected_status,
        event_kind="spill",
        summary=lambda label, was, now: (
            f"Written confirmation of spill {spill.pk} "
            f"mailed {human_long_date(mailed_on)}"
            + (" — late" if late else " — on time")
        ),
    )


def spill_mark_confirmation_missing(
    *, actor, spill, expected_status: str | None = None
) -> SpillNotification:
    """Mark the written confirmation missing once its deadline has passed.
    Who: SMO staff. Raises Refused before the due date."""
    require_role(actor, Role.SMO, doing=FIELD_WORK)
    due = spill.confirmation_deadline
    return run(
        spill,
        "mark_confirmation_missing",
        actor=actor,
        expected_status=expected_status,
        event_kind="spill",
        summary=lambda label, was, now: (
            f"Written confirmation of spill {spill.pk} "
            "missing" + (f" after {human_long_date(due.due_date)}" if due else "")
        ),
    )


def spill_close(
    *, actor, spill, notes: str = "", expected_status: str | None = None
) -> SpillNotification:
    """Close the spill record (the retention deadline stays open: the facility
    still keeps its record). Who: SMO staff. Raises Refused."""
    require_role(actor, Role.SMO, doing=FIELD_WORK)
    return run(
        spill,
        "close",
        actor=actor,
        fields={"closing_notes": notes},
        expected_status=expected_status,
        event_kind="spill",
        summary=lambda label, was, now: f"Spill notification {spill.pk} closed",
        detail=notes,
    )


def spill_open_case(*, actor, spill):
    """Open a spill case (R-SPL-1) when the notice was late or missing, or the
    written confirmation late or missing. Who: SMO staff. Raises ValidationError."""
    require_role(actor, Role.SMO, doing=FIELD_WORK)
    with transaction.atomic():
        locked = (
            SpillNotification.objects.select_for_update(of=("self",))
            .select_related("notice_deadline", "confirmation_deadline")
            .get(pk=spill.pk)
        )
        if locked.case_id is not None:
            raise Refused.invalid(
                f"This spill already belongs to case {locked.case.number}."
            )
        if not locked.needs_case:
            raise Refused.invalid(
                "The notice and the written confirmation are on time; a case is "
                "opened from a late or missing one."
            )
        reasons = []
        if locked.notice_late:
            reasons.append("notice to the village late (R-SPL-3)")
        if locked.notice_missing:
            reasons.append("no notice to the village (R-SPL-3)")
        if locked.confirmation_late:
            reasons.append("written confirmation late (R-SPL-4)")
        if locked.confirmation_missing:
            reasons.append("written confirmation missing (R-SPL-4)")
        case = case_open(
            actor=actor,
            source=CaseSource.SPILL_NOTIFICATION,
            kind=CaseKind.SPILL,
            summary=f"Spill of {locked.material} at {locked.premises}: "
            + "; ".join(reasons),
            description=f"Containment: {locked.containment_steps}\n"
            f"Cleanup: {locked.cleanup_steps}",
            premises=locked.premises,
        )
        locked.case = case
        locked.save(update_fields=["case"])
        record_on(
            locked,
            actor=actor,
            kind="spill",
            summary=f"Spill notification {locked.pk} linked: " + "; ".join(reasons),
            rule_id="R-SPL-3"
            if locked.notice_late or locked.notice_missing
            else "R-SPL-4",
        )
    return case
