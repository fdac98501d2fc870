"""Running one transition of an enforcement workflow: lock the row, set the
fields the user gave, check the role and the conditions (saying why not), fire,
save, and write the case event, all in one transaction. Every service of this
package goes through `run_step`."""

from collections.abc import Callable

from django.db import transaction
from django_fsm import ConcurrentTransition, TransitionNotAllowed, has_transition_perm

from cases.services import CaseChangedError, TransitionRefused
from cases.timeline import record_event

__all__ = ["CaseChangedError", "TransitionRefused", "run_step", "why_refused"]


def why_refused(instance, method, user) -> str:
    """The reason `user` may not fire `method` on `instance` now, in words."""
    meta = method._django_fsm
    state = instance.status
    if not meta.has_transition(state):
        return (
            f"That step is not possible while it is “{instance.get_status_display()}”."
        )
    transition = meta.get_transition(state)
    if not transition.has_perm(instance, user):
        return "Your role does not allow that step."
    reasons = [
        getattr(c, "refusal", c.__name__.replace("_", " "))
        for c in transition.conditions
        if not c(instance)
    ]
    if reasons:
        return "Not yet: " + "; ".join(reasons) + "."
    return "Not allowed now."


def run_step(
    *,
    obj,
    transition: str,
    actor,
    fields: dict | None = None,
    event_kind: str = "enforcement",
    detail: str = "",
    expected_status: str | None = None,
    after: Callable | None = None,
):
    """Fire `transition` on a locked copy of `obj` for `actor`.

    `fields` are set on the row first (what the user recorded with the step).
    `after(locked)` runs in the same transaction, after the save and the event
    (deadlines, other workflows). Returns the saved copy. Raises TransitionRefused
    (with the reason) or CaseChangedError; on either nothing is saved."""
    model = type(obj)
    try:
        with transaction.atomic():
            locked = model.objects.select_for_update().get(pk=obj.pk)
            if expected_status is not None and locked.status != expected_status:
                raise CaseChangedError(CaseChangedError.message)
            method = getattr(locked, transition, None)
            if method is None or not hasattr(method, "_django_fsm"):
                raise TransitionRefused(f"Unknown step {transition!r}.")
            for name, value in (fields or {}).items():
                setattr(locked, name, value)
            if not has_transition_perm(method, actor):
                raise TransitionRefused(why_refused(locked, method, actor))
            from_status = locked.status
            from_label = locked.get_status_display()
            method()
            locked.save()
            meta = method._django_fsm.get_transition(from_status)
            label = meta.custom.get("label", transition)
            record_event(
                case=locked.case,
                actor=actor,
                kind=event_kind,
                summary=f"{_name(locked)}: {label} ({from_label} → "
                f"{locked.get_status_display()})",
                detail=detail,
                from_status=from_status,
                to_status=locked.status,
                rule_id=meta.custom.get("rule_id", ""),
                subject=locked,
            )
            if after is not None:
                after(locked)
    except ConcurrentTransition as exc:
        raise CaseChangedError(CaseChangedError.message) from exc
    except TransitionNotAllowed as exc:
        raise TransitionRefused(str(exc)) from exc
    return locked


def _name(instance) -> str:
    return f"{instance._meta.verbose_name.capitalize()} {instance.pk}"
