"""What every inspections page shares: the role gate, the pre-filled links, the
record's steps (cases.views.actions) and its chronology."""

from functools import wraps

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render

from cases.roles import CASE_READERS, Role, has_role, role_required
from cases.views.actions import action_forms, attempt, bind_step


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


def take_step(request, record, name: str, forms: dict, services: dict, page):
    """POST of one step: bind its form, run `services[name](form data, seen
    status)` → (saved record, success words); on success back to the record's
    page, otherwise `page(bound={name: form})` re-rendered with the errors and the
    user's input."""
    if name not in services:
        raise Http404("No such step.")
    form = bind_step(request, record, name, forms, form_kwargs={"record": record})
    seen = request.POST.get("expected_status") or None
    done = attempt(request, form, lambda: services[name](form.cleaned_data or {}, seen))
    if done is None:
        return page(bound={name: form})
    saved, words = done
    messages.success(request, words)
    return redirect(saved.get_absolute_url())


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
