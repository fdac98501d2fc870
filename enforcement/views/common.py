"""What the enforcement views share: turning domain errors into messages or
form errors, and the FSM permission check for a step."""

from django.core.exceptions import PermissionDenied

from cases.roles import Role
from cases.views.actions import attempt, put_errors_on

__all__ = ["attempt", "put_errors_on"]

READERS = (Role.SMO, Role.CLERK)
SMO_ONLY = (Role.SMO,)
APPEAL_RECORDERS = (Role.SMO, Role.CLERK)


def require_step_permission(obj, transition, user):
    """403 when `user`'s role may never take this step (whatever the state);
    a step the role may take but not now is refused later with its reason."""
    method = getattr(obj, transition, None)
    meta = getattr(method, "_django_fsm", None)
    if meta is None:
        raise PermissionDenied("Unknown step.")
    if not any(t.has_perm(obj, user) for t in meta.transitions.values()):
        raise PermissionDenied("Your role does not allow that step.")
    return meta


def step_key(obj, transition) -> str:
    meta = getattr(obj, transition)._django_fsm
    first = next(iter(meta.transitions.values()))
    return first.custom.get("form", "plain")
