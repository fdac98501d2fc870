"""Shared machinery of the inspection services: firing a transition under a row
lock and writing the case timeline only when the record belongs to a case."""

import datetime as dt

from django.core.exceptions import ValidationError
from django.utils import timezone
from django_fsm import ConcurrentTransition, TransitionNotAllowed, has_transition_perm

from cases.roles import Role, has_role
from cases.services import CaseChangedError, Refused
from cases.timeline import record_event

# Why a condition failed, in words an officer can act on.
CONDITION_WORDS = {
    "has_visit_record": "record when the visit took place, who went and the access "
    "outcome",
    "has_cancel_reason": "give the reason for cancelling",
    "has_filing": "give the probable-cause statement, the court and the filing date",
    "has_issue_date": "give the date the warrant was issued",
    "has_denial_date": "give the date the warrant was denied",
    "has_execution_date": "give the date the warrant was executed",
    "confirmation_required": "only an in-person or telephone notice needs a written "
    "confirmation (R-SPL-4)",
    "has_confirmation_dates": "give the date the written confirmation was mailed",
    "confirmation_overdue": "the written confirmation is not overdue yet",
    "confirmation_settled": "record the written confirmation, or mark it missing "
    "once overdue",
}


def require_smo(actor) -> None:
    if not has_role(actor, Role.SMO):
        raise PermissionError("Only SMO staff may change field-work records.")


def event(*, case, actor, kind, summary, subject=None, rule_id="", **extra) -> None:
    """Write a timeline event on `case`, if the record belongs to one."""
    if case is not None:
        record_event(
            case=case,
            actor=actor,
            kind=kind,
            summary=summary,
            subject=subject,
            rule_id=rule_id,
            **extra,
        )


def not_future(value, field: str, what: str) -> None:
    """Refuse a date or datetime that has not happened yet."""
    if value is None:
        return
    if isinstance(value, dt.datetime):
        if value > timezone.now():
            raise ValidationError(
                {field: f"{what} is in the future; record it once it has happened."}
            )
    elif value > timezone.localdate():
        raise ValidationError(
            {field: f"{what} ({value:%Y-%m-%d}) is after today; that is impossible."}
        )


def local_date(value: dt.datetime) -> dt.date:
    return timezone.localtime(value).date()


def fire(model, obj, transition: str, *, actor, fields=None):
    """Lock `obj`'s row, set `fields`, fire `transition`, save. Returns
    (locked_obj, from_status, transition_meta). Must run inside the caller's
    transaction.atomic(). Raises Refused, CaseChangedError."""
    try:
        locked = model.objects.select_for_update().get(pk=obj.pk)
        method = getattr(locked, transition, None)
        if method is None or not hasattr(method, "_django_fsm"):
            raise Refused(f"Unknown action {transition!r}.")
        for name, value in (fields or {}).items():
            setattr(locked, name, value)
        if not has_transition_perm(method, actor):
            raise Refused(why_refused(locked, method, actor))
        from_status = locked.status
        method()
        locked.save()
        return locked, from_status, method._django_fsm.get_transition(from_status)
    except ConcurrentTransition as exc:
        raise CaseChangedError(CaseChangedError.message) from exc
    except TransitionNotAllowed as exc:
        raise Refused(str(exc)) from exc


def why_refused(obj, method, user) -> str:
    meta = method._django_fsm
    if not meta.has_transition(obj.status):
        return (
            "That action is not possible while the record is "
            f"“{obj.get_status_display()}”."
        )
    transition = meta.get_transition(obj.status)
    if not transition.has_perm(obj, user):
        return "Your role does not allow that action."
    failed = [c for c in transition.conditions if not c(obj)]
    reasons = [CONDITION_WORDS.get(c.__name__, c.__name__) for c in failed]
    return "Not yet: " + "; ".join(reasons) + "." if reasons else "Not allowed now."


def available(obj, user, field="status"):
    """Transitions `user` may fire on `obj` now, for buttons (FSM-derived)."""
    return list(getattr(obj, f"get_available_user_{field}_transitions")(user))
