"""Deadline records: the only way a legal date is created, met, waived or corrected.

Every app creates its deadlines here, from a rule id of RULES.md; the date and its
explanation come from cases.deadlines.engine and are stored on the row."""

import datetime as dt

from django.contrib.contenttypes.models import ContentType
from django.db import transaction

from ..models import Deadline, OfficeClosure
from ..timeline import record_event
from .calendar import BusinessCalendar
from .engine import RULES, Computation, compute


def office_calendar() -> BusinessCalendar:
    """The business calendar with the village office's closures."""
    return BusinessCalendar(dict(OfficeClosure.objects.values_list("day", "reason")))


def compute_due(rule_id: str, event_date: dt.date, **params) -> Computation:
    """compute() on the office calendar (the public calculator and forms use it)."""
    return compute(rule_id, event_date, calendar=office_calendar(), **params)


def open_deadline(
    *,
    rule_id: str,
    event_date: dt.date,
    source,
    actor=None,
    case=None,
    purpose: str = "",
    label: str = "",
    responsible: str = "",
    assigned_to=None,
    notify_email: str = "",
    **params,
) -> Deadline:
    """Create the open deadline that `rule_id` sets for `source` (the record the
    period belongs to: a spill notice, a notice of violation, an appeal…).

    Runs in the caller's transaction and writes a timeline event on `case`.
    Raises engine.UnknownRule / ValueError for a bad rule or parameter."""
    computation = compute_due(rule_id, event_date, **params)
    spec = RULES[rule_id]
    with transaction.atomic():
        deadline = Deadline.objects.create(
            case=case,
            rule_id=rule_id,
            label=label or spec.label,
            counts_from=spec.counts_from,
            event_date=event_date,
            due_date=computation.due,
            explanation=computation.explanation,
            method=computation.method,
            params=params,
            responsible=responsible or spec.actor.value,
            assigned_to=assigned_to,
            notify_email=notify_email,
            content_type=ContentType.objects.get_for_model(source),
            object_id=source.pk,
            purpose=purpose,
            created_by=actor if getattr(actor, "is_authenticated", False) else None,
        )
        if case is not None:
            record_event(
                case=case,
                actor=actor,
                kind="deadline",
                summary=f"Deadline set: {deadline.label}, due {deadline.due_date:%A %Y-%m-%d}",
                detail=deadline.explanation,
                rule_id=rule_id,
                subject=deadline,
            )
    return deadline


def deadlines_for(source):
    """All deadlines of one record, oldest first."""
    return Deadline.objects.filter(
        content_type=ContentType.objects.get_for_model(source), object_id=source.pk
    ).order_by("due_date", "id")


def open_deadline_for(source, rule_id: str, purpose: str = "") -> Deadline | None:
    return (
        deadlines_for(source)
        .filter(rule_id=rule_id, purpose=purpose, status=Deadline.Status.OPEN)
        .first()
    )


def meet_deadline(deadline: Deadline, *, on: dt.date, actor=None) -> Deadline:
    """Record that the duty was done on `on` (late if after the due date)."""
    with transaction.atomic():
        deadline = Deadline.objects.select_for_update().get(pk=deadline.pk)
        if not deadline.is_open:
            return deadline
        deadline.status = (
            Deadline.Status.MET if on <= deadline.due_date else Deadline.Status.MISSED
        )
        deadline.met_on = on
        deadline.closed_by = (
            actor if getattr(actor, "is_authenticated", False) else None
        )
        deadline.save(update_fields=["status", "met_on", "closed_by"])
        if deadline.case_id:
            late = "" if deadline.status == Deadline.Status.MET else " (late)"
            record_event(
                case=deadline.case,
                actor=actor,
                kind="deadline",
                summary=f"Deadline met{late}: {deadline.label} on {on:%Y-%m-%d}, "
                f"due {deadline.due_date:%Y-%m-%d}",
                rule_id=deadline.rule_id,
                subject=deadline,
            )
    return deadline


def waive_deadline(deadline: Deadline, *, reason: str, actor) -> Deadline:
    """Close an open deadline that no longer applies (e.g. the notice was withdrawn)."""
    if not reason.strip():
        raise ValueError("A reason is required to waive a deadline.")
    with transaction.atomic():
        deadline = Deadline.objects.select_for_update().get(pk=deadline.pk)
        if not deadline.is_open:
            return deadline
        deadline.status = Deadline.Status.WAIVED
        deadline.waived_reason = reason
        deadline.closed_by = (
            actor if getattr(actor, "is_authenticated", False) else None
        )
        deadline.save(update_fields=["status", "waived_reason", "closed_by"])
        if deadline.case_id:
            record_event(
                case=deadline.case,
                actor=actor,
                kind="deadline",
                summary=f"Deadline waived: {deadline.label}",
                detail=reason,
                rule_id=deadline.rule_id,
                subject=deadline,
            )
    return deadline
