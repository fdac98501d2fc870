"""Spill notifications, dye tests and SMO discharge approvals (R-SPL-*, R-PRO-3, R-PRO-4)."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from deadlines.services import deadlines_for
from kernel.actions import attempt, take_step
from kernel.humanize import human_date

from .. import forms, selectors, services
from ..forms import SPILL_STEP_FORMS
from .common import (
    _case_redirect,
    _form_page,
    _linked_initial,
    can_write,
    staff_page,
    steps,
)


# --- spills -----------------------------------------------------------------
@staff_page
def spill_list(request):
    return render(
        request,
        "inspections/spill_list.html",
        {
            "spills": selectors.spill_list(),
            "can_write": can_write(request),
        },
    )


@staff_page
def spill_new(request):
    form = forms.SpillForm(request.POST or None, initial=_linked_initial(request))
    if request.method == "POST":
        spill = attempt(
            request,
            form,
            lambda: services.spill_record(actor=request.user, **form.cleaned_data),
        )
        if spill:
            words = f"Spill notification {spill.pk} recorded."
            if spill.confirmation_deadline is not None:
                words += (
                    " The written confirmation is due by "
                    f"{human_date(spill.confirmation_deadline.due_date)}."
                )
            messages.success(request, words)
            return redirect(spill.get_absolute_url())
    return _form_page(
        request,
        "inspections/spill_form.html",
        form,
        title="Record a spill notification",
    )


def _spill(pk):
    return get_object_or_404(selectors.spill_list(), pk=pk)


def _spill_page(request, pk, *, bound=None):
    spill = _spill(pk)
    return render(
        request,
        "inspections/spill_detail.html",
        {
            "spill": spill,
            **steps(request, spill, SPILL_STEP_FORMS, bound=bound),
            "action_base": reverse("inspections:spill_detail", args=[pk]) + "step/",
            "deadlines": deadlines_for(spill),
            "can_write": can_write(request),
            "chronology": selectors.chronology_of(spill),
        },
    )


@staff_page
@require_GET
def spill_detail(request, pk):
    return _spill_page(request, pk)


def _confirmation_words(spill) -> str:
    late = " — late" if spill.confirmation_late else " — on time"
    return (
        f"Written confirmation of spill {spill.pk} recorded: mailed "
        f"{human_date(spill.confirmation_mailed_on)}{late}."
    )


@staff_page
@require_POST
def spill_step(request, pk, name):
    """One step of the spill notification: the written confirmation (or its
    absence), closing (R-SPL-4, R-SPL-1)."""
    spill = _spill(pk)
    user = request.user

    def record_confirmation(d, seen):
        done = services.spill_record_confirmation(
            actor=user,
            spill=spill,
            mailed_on=d["confirmation_mailed_on"],
            received_on=d["confirmation_received_on"],
            expected_status=seen,
        )
        return done, _confirmation_words(_spill(pk))

    def mark_confirmation_missing(d, seen):
        done = services.spill_mark_confirmation_missing(
            actor=user, spill=spill, expected_status=seen
        )
        return done, (
            f"Written confirmation of spill {done.pk} marked missing; you may open "
            "a spill case."
        )

    def close(d, seen):
        done = services.spill_close(
            actor=user, spill=spill, notes=d.get("notes", ""), expected_status=seen
        )
        return done, f"Spill notification {done.pk} closed."

    return take_step(
        request,
        spill,
        name,
        SPILL_STEP_FORMS,
        {
            "record_confirmation": record_confirmation,
            "mark_confirmation_missing": mark_confirmation_missing,
            "close": close,
        },
        lambda bound: _spill_page(request, pk, bound=bound),
        form_kwargs={"record": spill},
    )


@staff_page
@require_POST
def spill_open_case(request, pk):
    """Open a spill case from a late or missing notice or confirmation."""
    spill = _spill(pk)
    case = attempt(
        request,
        None,
        lambda: services.spill_open_case(actor=request.user, spill=spill),
    )
    if case is None:
        return redirect(spill.get_absolute_url())
    messages.success(request, f"Spill case {case.number} opened; the spill is on it.")
    return _case_redirect(case)


# --- dye tests and discharge approvals --------------------------------------
@staff_page
def dyetest_list(request):
    form = forms.DyeTestForm(request.POST or None)
    if request.method == "POST" and attempt(
        request,
        form,
        lambda: services.dye_test_record(actor=request.user, **form.cleaned_data),
        success="Dye-test notice recorded.",
    ):
        return redirect("inspections:dyetest_list")
    return render(
        request,
        "inspections/dyetest_list.html",
        {
            "notices": selectors.dye_test_list(),
            "form": form,
            "can_write": can_write(request),
        },
    )


@staff_page
def approval_list(request):
    form = forms.ApprovalForm(
        request.POST or None, initial={"approved_on": timezone.localdate()}
    )
    if request.method == "POST" and attempt(
        request,
        form,
        lambda: services.approval_record(actor=request.user, **form.cleaned_data),
        success="Discharge approval recorded (R-PRO-3).",
    ):
        return redirect("inspections:approval_list")
    today = timezone.localdate()
    return render(
        request,
        "inspections/approval_list.html",
        {
            "approvals": selectors.approval_list(),
            "in_force": set(
                selectors.approvals_in_force(on=today).values_list("pk", flat=True)
            ),
            "form": form,
            "can_write": can_write(request),
        },
    )
