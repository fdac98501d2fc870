"""Shared helpers of the inspections services.

Every step of a field-work state machine goes through `kernel.workflow.run` (which
checks the role and the guards, fires, saves and writes the one chronology
event). What is not a step — a record created, a sample or photo added — is
written with `record_on`, on the chronology of the record's case and premises
(field work without a case is on the premises' record)."""

import datetime as dt

from django.utils import timezone

from kernel.humanize import human_long_date
from kernel.timeline import record_event
from kernel.workflow import Refused, chronology_links

# What the role check (kernel.roles.require_role) says a non-SMO actor may not do.
FIELD_WORK = "change field-work records"


def record_on(
    subject, *, actor, kind, summary, of=None, detail="", rule_id="", **extra
) -> None:
    """Write a chronology entry about `subject` (not a step: `run` writes those)
    on the case and premises of `of` (default: `subject` itself). Must run in the
    transaction of the change."""
    owner = of if of is not None else subject
    case, premises = chronology_links(owner)
    if premises is None and getattr(owner, "facility", None) is not None:
        premises = owner.facility.premises
    record_event(
        case=case,
        premises=premises,
        actor=actor,
        kind=kind,
        summary=summary,
        detail=detail,
        rule_id=rule_id,
        subject=subject,
        **extra,
    )


def not_future(value, field: str, what: str) -> None:
    """Refuse a date or datetime that has not happened yet."""
    if value is None:
        return
    if isinstance(value, dt.datetime):
        if value > timezone.now():
            raise Refused.invalid(
                {field: f"{what} is in the future; record it once it has happened."}
            )
    elif value > timezone.localdate():
        raise Refused.invalid(
            {
                field: f"{what} ({human_long_date(value)}) is after today; "
                "that is impossible."
            }
        )


def local_date(value: dt.datetime) -> dt.date:
    return timezone.localtime(value).date()
