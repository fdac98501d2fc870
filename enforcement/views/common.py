"""What the enforcement views share: turning domain errors into messages or
form errors, and the FSM permission check for a step."""

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError

from cases.documents.contracts import FactsInvalid
from cases.documents.services import DocumentError
from cases.roles import Role

from ..services.flow import CaseChangedError, TransitionRefused

READERS = (Role.SMO, Role.CLERK)
SMO_ONLY = (Role.SMO,)
APPEAL_RECORDERS = (Role.SMO, Role.CLERK)


def put_errors_on(form, error: ValidationError):
    """Put a service's ValidationError on the form (unknown keys: form-wide)."""
    if hasattr(error, "error_dict"):
        for field, errors in error.message_dict.items():
            form.add_error(field if field in form.fields else None, errors)
    else:
        form.add_error(None, error.messages)


def attempt(request, form, fn, *, success: str = ""):
    """Run a service call; on a refusal say why (message), on bad input put the
    errors on `form`. Returns the result, or None when it did not happen."""
    try:
        result = fn()
    except (TransitionRefused, CaseChangedError, DocumentError) as exc:
        messages.error(request, str(exc))
        return None
    except FactsInvalid as exc:
        # The document would say less than the law requires: nothing was saved.
        messages.error(request, f"{exc}. Nothing was saved.")
        if form is not None:
            form.add_error(None, str(exc))
        return None
    except ValidationError as exc:
        if form is None:
            messages.error(request, " ".join(exc.messages))
        else:
            put_errors_on(form, exc)
        return None
    if success:
        messages.success(request, success)
    return result


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
