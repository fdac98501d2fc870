"""What every inspections page shares: the role gate and the form helpers."""

from functools import wraps

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.shortcuts import redirect, render

from cases.roles import CASE_READERS, Role, has_role, role_required
from cases.services import CaseChangedError, Refused

from ..models import (
    LockedRecordError,
)

DOMAIN_ERRORS = (Refused, CaseChangedError, LockedRecordError)


def staff_page(view):
    """GET for SMO staff and the clerk (read); any other method for SMO staff."""

    @role_required(*CASE_READERS)
    @wraps(view)
    def wrapped(request, *args, **kwargs):
        if request.method not in ("GET", "HEAD") and not has_role(
            request.user, Role.SMO
        ):
            raise PermissionDenied("Only SMO staff may change these records.")
        return view(request, *args, **kwargs)

    return wrapped


def _errors_to_form(form, exc: ValidationError) -> None:
    if hasattr(exc, "error_dict"):
        for field, errors in exc.error_dict.items():
            form.add_error(field if field in form.fields else None, errors)
    else:
        form.add_error(None, exc)


def _attempt(request, form, call, success: str):
    """Run `call()` when the form is valid. Returns the result, or None after
    putting the error on the form / in messages (nothing saved)."""
    if not form.is_valid():
        messages.error(request, "Please correct the errors below.")
        return None
    try:
        result = call(form.cleaned_data)
    except ValidationError as exc:
        _errors_to_form(form, exc)
        messages.error(request, "Please correct the errors below.")
        return None
    except DOMAIN_ERRORS as exc:
        messages.error(request, str(exc))
        return None
    messages.success(request, success)
    return result


def _simple_action(request, call, success: str):
    """A button with no form: run it, report the outcome."""
    try:
        result = call()
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
        return None
    except DOMAIN_ERRORS as exc:
        messages.error(request, str(exc))
        return None
    messages.success(request, success)
    return result


LINKED_RECORDS = ("premises", "facility", "case")


def _linked_initial(request, **initial) -> dict:
    """`initial` plus the premises, facility or case the page was opened from
    (?premises=…, ?facility=…, ?case=…)."""
    for key in LINKED_RECORDS:
        if request.GET.get(key):
            initial[key] = request.GET[key]
    return initial


def _form_page(request, template, form, **context):
    return render(request, template, {"form": form, **context})


def _case_redirect(case):
    """After opening a case from a record, go to the new case's page."""
    return redirect(case.get_absolute_url())
