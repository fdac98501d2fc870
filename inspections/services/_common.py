"""Shared machinery of the inspection services: firing a transition under a row
lock and writing the case timeline only when the record belongs to a case."""

import datetime as dt

from django.core.exceptions import ValidationError
from django.utils import timezone
from django_fsm import ConcurrentTransition, TransitionNotAllowed

from cases.roles import Role, require_role
from cases.timeline import record_event
from cases.workflow import CaseChangedError, Refused, actions, reasons_not


def require_smo(actor) -> None:
    require_role(actor, Role.SMO, doing="change field-work records")


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
        refusals = reasons_not(locked, transition, actor)
        if refusals:
            raise Refused(*refusals, lead="Not done:")
        from_status = locked.status
        method()
        locked.save()
        return locked, from_status, method._django_fsm.get_transition(from_status)
    except ConcurrentTransition as exc:
        raise CaseChangedError(CaseChangedError.message) from exc
    except TransitionNotAllowed as exc:
        raise Refused(str(exc)) from exc


def available(obj, user, field="status"):
    """The steps `user` may take on `obj` from here (cases.workflow.actions)."""
    return actions(obj, user, field_name=field)
