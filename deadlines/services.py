"""Deadline records: the only way a legal date is created, met, waived or corrected.

Every app creates its deadlines here, from a rule id of RULES.md; the date and its
explanation come from deadlines.engine and are stored on the row."""

import datetime as dt
from collections.abc import Iterable

from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from django.db import transaction

from kernel.humanize import human_long_date
from kernel.timeline import record_event
from kernel.workflow import Refused, fire_locked, run
from outbox.models import OutgoingMessage

from .business_days import BusinessCalendar
from .engine import RULES, Computation, compute
from .models import Deadline, OfficeClosure, Reminder
from .words import people_explanation


def office_calendar() -> BusinessCalendar:
    """The business calendar with the village office's closures."""
    return BusinessCalendar(dict(OfficeClosure.objects.values_list("day", "reason")))


def _village_params(rule_id: str, params: dict) -> dict:
    """The village's setting for a period the ordinance leaves open (R-SUS-1)."""
    if rule_id == "R-SUS-1" and "business_days" not in params:
        return {**params, "business_days": settings.SUSPENSION_NOTICE_BUSINESS_DAYS}
    return params


def compute_due(
    rule_id: str,
    event_date: dt.date,
    *,
    calendar: BusinessCalendar | None = None,
    **params,
) -> Computation:
    """compute() on the office calendar (the public calculator and forms use it)."""
    return compute(
        rule_id,
        event_date,
        calendar=calendar if calendar is not None else office_calendar(),
        **_village_params(rule_id, params),
    )


def explain_to_people(computation: Computation, *, calendar=None, **params) -> str:
    """How `computation` counted its date, in the words a resident reads (no
    rule id, no ISO date): deadlines.words on the office calendar, with
    the village's setting for an open period (the public calculator)."""
    return people_explanation(
        computation.rule_id,
        computation.event_date,
        computation.due,
        calendar=calendar if calendar is not None else office_calendar(),
        params=_village_params(computation.rule_id, params),
    )


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
                summary=f"Deadline set: {deadline.label}, due "
                f"{human_long_date(deadline.due_date)}",
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


def meet_deadline(
    deadline: Deadline, *, on: dt.date, actor=None, by_clock: bool = False
) -> Deadline:
    """Record that the duty was done on `on` (late, "missed", if after the due
    date), through the kernel: one chronology event, its queued reminders
    cancelled.

    Who: the SMO, or the clerk for a Board or clerk duty ("Record met" on the
    deadline page; Refused for another role or a deadline no longer open); the
    clock table (`by_clock`: a step of its record did the duty, whoever took
    it; a deadline closed meanwhile is left as it is)."""
    late = on > deadline.due_date
    if by_clock:
        name = "record_missed" if late else "record_met"
    else:
        name = "meet_late" if late else "meet"

    def summary(label, from_label, to_label):
        word = " (late)" if late else ""
        return (
            f"Deadline met{word}: {deadline.label} on {human_long_date(on)}, "
            f"due {human_long_date(deadline.due_date)}"
        )

    return _step(
        deadline,
        name,
        actor=actor,
        fields={"met_on": on, "closed_by": _staff(actor)},
        summary=summary,
        reason=None,
        why="the duty was done",
        quiet=by_clock,
    )


def waive_deadline(deadline: Deadline, *, reason: str, actor) -> Deadline:
    """Close an open deadline the SMO decided no longer applies, with a reason.
    Who: the SMO, or the clerk for a Board or clerk duty. Raises Refused (no
    reason, another role, or the deadline is no longer open)."""
    return _close(deadline, "waive", reason=reason or "", actor=actor)


def end_deadline(deadline: Deadline, *, reason: str, actor) -> Deadline:
    """The deadline no longer runs because its record reached an end (the case
    resolved, the notice withdrawn or complied with, the appeal withdrawn).
    Applied by the clock table (cases.clocks), never by hand."""
    return _close(deadline, "end", reason=reason, actor=actor, quiet=True)


def replace_deadline(
    deadline: Deadline, *, by: Deadline | None, reason: str, actor
) -> Deadline:
    """`by` takes the place of `deadline` (one current date per obligation).
    Applied by the clock table (cases.clocks), never by hand."""
    return _close(
        deadline, "replace", reason=reason, actor=actor, replaced_by=by, quiet=True
    )


_CLOSED_WORDS = {
    "waive": "Deadline waived",
    "end": "Deadline no longer running",
    "replace": "Deadline replaced",
}


def _staff(actor):
    return actor if getattr(actor, "is_authenticated", False) else None


def _close(deadline, name, *, reason, actor, replaced_by=None, quiet=False):
    """Waive, end or replace an open deadline: its status, the reason, one
    chronology event, and its queued reminders cancelled (never sent)."""

    def summary(label, from_label, to_label):
        text = f"{_CLOSED_WORDS[name]}: {deadline.label}"
        if replaced_by is not None:
            text += (
                f", due {human_long_date(deadline.due_date)} → "
                f"{human_long_date(replaced_by.due_date)}"
            )
        return text

    return _step(
        deadline,
        name,
        actor=actor,
        fields={
            "waived_reason": reason,
            "replaced_by": replaced_by,
            "closed_by": _staff(actor),
        },
        summary=summary,
        reason=reason,
        why=reason,
        quiet=quiet,
    )


def _step(deadline, name, *, actor, fields, summary, reason, why, quiet):
    """Fire step `name` of the deadline through the kernel (kernel.workflow.run:
    lock, role, guards, save, one chronology event on its case) and cancel its
    queued reminders in the same transaction. `quiet` (the clock table's steps):
    a deadline closed meanwhile is returned as it is, not refused."""
    try:
        return run(
            deadline,
            name,
            actor=actor,
            fields=fields,
            event_kind="deadline",
            summary=summary,
            detail=reason or "",
            rule_id=deadline.rule_id,
            after=lambda locked: cancel_queued_reminders(locked, why=why),
        )
    except Refused:
        if quiet:
            current = Deadline.objects.get(pk=deadline.pk)
            if not current.is_open:
                return current
        raise


def cancel_queued_reminders(deadline: Deadline, *, why: str) -> int:
    """Mark every reminder of `deadline` still waiting in the outbox as not
    needed (the outbox shows it cancelled, with `why`); returns how many."""
    reminder_type = ContentType.objects.get_for_model(Reminder)
    waiting = OutgoingMessage.objects.select_for_update().filter(
        status=OutgoingMessage.Status.PENDING,
        content_type=reminder_type,
        object_id__in=Reminder.objects.filter(deadline=deadline).values("pk"),
    )
    cancelled = 0
    for message in waiting:
        reason = f"Cancelled: the deadline no longer runs ({why})"
        fire_locked(
            message,
            "mark_skipped",
            reason,
            event=bool(message.case_id),
            summary=lambda *_, m=message: f"Reminder not sent: {m.subject}",
            detail=reason,
        )
        cancelled += 1
    return cancelled


# --- corrections and office closures: one function recomputes -----------------


def recompute_deadline(
    deadline: Deadline,
    *,
    actor,
    reason: str,
    event_date: dt.date | None = None,
    calendar: BusinessCalendar | None = None,
) -> bool:
    """Recompute one open deadline (from `event_date` if given, else its own) on
    the office calendar, store the new date and explanation, and, if the due date
    changed, say "old → new" on its case's timeline. The one recomputation that
    corrections and office closures both use.

    Who: the services below (SMO staff). Returns True if the due date changed;
    a closed deadline is left alone (its date is history). Runs in the caller's
    transaction."""
    with transaction.atomic():
        deadline = Deadline.objects.select_for_update().get(pk=deadline.pk)
        if not deadline.is_open:
            return False
        new_event = event_date or deadline.event_date
        computation = compute(
            deadline.rule_id,
            new_event,
            calendar=calendar if calendar is not None else office_calendar(),
            **_village_params(deadline.rule_id, dict(deadline.params)),
        )
        old_due, old_event = deadline.due_date, deadline.event_date
        if (computation.due, computation.explanation, new_event) == (
            old_due,
            deadline.explanation,
            old_event,
        ):
            return False
        deadline.event_date = new_event
        deadline.due_date = computation.due
        deadline.explanation = computation.explanation
        deadline.save(update_fields=["event_date", "due_date", "explanation"])
        changed = old_due != computation.due
        if deadline.case_id and (changed or old_event != new_event):
            moved = (
                f"due {human_long_date(old_due)} → {human_long_date(computation.due)}"
                if changed
                else f"due date unchanged, {human_long_date(old_due)}"
            )
            record_event(
                case=deadline.case,
                actor=actor,
                kind="deadline",
                summary=f"Deadline recomputed: {deadline.label}, {moved}",
                detail=f"{reason}\n\n{computation.explanation}",
                rule_id=deadline.rule_id,
                subject=deadline,
            )
    return changed


def correct_event_date(
    target,
    *,
    new_date: dt.date,
    actor,
    reason: str,
    rule_ids: Iterable[str] | None = None,
) -> list[Deadline]:
    """The date of an event was recorded wrongly: recompute the open deadlines
    that count from it, each with an "old → new due date" timeline event.

    `target` is a Deadline (that one) or the source record (its open deadlines,
    optionally only those of `rule_ids`). Who: SMO staff. Raises ValueError
    without a reason. Returns the deadlines recomputed."""
    if not reason.strip():
        raise ValueError("A reason is required to correct an event date.")
    if isinstance(target, Deadline):
        deadlines = [target]
    else:
        qs = deadlines_for(target).filter(status=Deadline.Status.OPEN)
        if rule_ids is not None:
            qs = qs.filter(rule_id__in=list(rule_ids))
        deadlines = list(qs)
    why = f"Event date corrected to {human_long_date(new_date)}: {reason}"
    with transaction.atomic():
        calendar = office_calendar()
        for deadline in deadlines:
            recompute_deadline(
                deadline,
                actor=actor,
                reason=why,
                event_date=new_date,
                calendar=calendar,
            )
    return deadlines


def _recompute_spanning(day: dt.date, *, actor, reason: str) -> list[Deadline]:
    """Open deadlines whose period (after the event, up to the due date) includes
    `day`: the only ones a closure on `day` can move. A later closure cannot
    move a due date that is already a business day."""
    affected = list(
        Deadline.objects.filter(
            status=Deadline.Status.OPEN, event_date__lt=day, due_date__gte=day
        )
    )
    calendar = office_calendar()
    return [
        d
        for d in affected
        if recompute_deadline(d, actor=actor, reason=reason, calendar=calendar)
    ]


def add_office_closure(*, day: dt.date, reason: str, actor) -> OfficeClosure:
    """Record a day the village office is closed (not a business day) and
    recompute every open deadline whose period spans it; each moved deadline
    says so on its case's timeline. Who: SMO staff. Raises ValueError for a
    blank reason or a day already closed."""
    if not reason.strip():
        raise Refused.invalid({"reason": "Say why the office is closed."})
    with transaction.atomic():
        if OfficeClosure.objects.filter(day=day).exists():
            raise Refused.invalid(
                {"day": f"{human_long_date(day)} is already an office closure."}
            )
        closure = OfficeClosure.objects.create(
            day=day,
            reason=reason.strip(),
            created_by=actor if getattr(actor, "is_authenticated", False) else None,
        )
        _recompute_spanning(
            day,
            actor=actor,
            reason=f"Office closure added on {human_long_date(day)} ({closure.reason}).",
        )
    return closure


def remove_office_closure(*, closure: OfficeClosure, actor) -> None:
    """Remove an office closure entered by mistake and recompute the open
    deadlines whose period spans that day. Who: SMO staff."""
    with transaction.atomic():
        closure = OfficeClosure.objects.select_for_update().get(pk=closure.pk)
        day, why = closure.day, closure.reason
        closure.delete()
        _recompute_spanning(
            day,
            actor=actor,
            reason=f"Office closure removed from {human_long_date(day)} ({why}).",
        )
