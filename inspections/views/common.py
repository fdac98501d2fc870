"""What every inspections page shares: the role gate, the pre-filled links, the
record's steps (kernel.actions) and its chronology."""

from functools import wraps

from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect, render

from kernel.actions import action_forms
from kernel.roles import CASE_READERS, Role, has_role, role_required


def staff_page(view):
    """GET for the readers of cases (CASE_READERS); any other method only for the
    role that changes field work."""

    @role_required(*CASE_READERS)
    @wraps(view)
    def wrapped(request, *args, **kwargs):
        if request.method not in ("GET", "HEAD") and not has_role(
            request.user, Role.SMO
        ):
            raise PermissionDenied(
                "Your role may read these records but not change them."
            )
        return view(request, *args, **kwargs)

    return wrapped


def can_write(request) -> bool:
    """Whether the page shows its write forms (the role that changes field work)."""
    return has_role(request.user, Role.SMO)


def steps(request, record, forms: dict, *, bound=None) -> dict:
    """Context of `workflow/_actions.html` for `record`: the steps the state
    machine offers this user, with their forms (or the refused, bound one)."""
    return {
        "actions": action_forms(
            record, request.user, forms, bound=bound, form_kwargs={"record": record}
        ),
        "status": record.status,
    }


LINKED_RECORDS = ("premises", "facility", "case", "kind")


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
