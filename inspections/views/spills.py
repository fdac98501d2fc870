"""Spill notifications, dye tests and SMO discharge approvals (R-SPL-*, R-PRO-3, R-PRO-4)."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone

from cases.deadlines.services import deadlines_for
from cases.roles import Role, has_role

from .. import forms, selectors, services
from ..services._common import available
from .common import (
    _attempt,
    _case_redirect,
    _form_page,
    _simple_action,
    staff_page,
)


# --- spills -----------------------------------------------------------------
@staff_page
def spill_list(request):
    return render(
        request,
        "inspections/spill_list.html",
        {
            "spills": selectors.spill_list(),
            "can_write": has_role(request.user, Role.SMO),
        },
    )


@staff_page
def spill_new(request):
    form = forms.SpillForm(request.POST or None)
    if request.method == "POST":
        spill = _attempt(
            request,
            form,
            lambda d: services.spill_record(actor=request.user, **d),
            "Spill notification recorded.",
        )
        if spill:
            return redirect("inspections:spill_detail", spill.pk)
    return _form_page(
        request,
        "inspections/spill_form.html",
        form,
        title="Record a spill notification",
    )


def _spill(pk):
    return get_object_or_404(selectors.spill_list(), pk=pk)


@staff_page
def spill_detail(request, pk):
    spill = _spill(pk)
    confirm_form = forms.SpillConfirmationForm(request.POST or None)
    close_form = forms.SpillCloseForm(request.POST or None)
    if request.method == "POST":
        action = request.POST.get("action")
        user = request.user
        back = redirect("inspections:spill_detail", pk)
        if action == "record_confirmation":
            if _attempt(
                request,
                confirm_form,
                lambda d: services.spill_record_confirmation(
                    actor=user,
                    spill=spill,
                    mailed_on=d["confirmation_mailed_on"],
                    received_on=d["confirmation_received_on"],
                ),
                "Written confirmation recorded.",
            ):
                return back
        elif action == "mark_confirmation_missing":
            _simple_action(
                request,
                lambda: services.spill_mark_confirmation_missing(
                    actor=user, spill=spill
                ),
                "Written confirmation marked missing.",
            )
            return back
        elif action == "close":
            if _attempt(
                request,
                close_form,
                lambda d: services.spill_close(actor=user, spill=spill, **d),
                "Spill notification closed.",
            ):
                return back
        elif action == "open_case":
            case = _simple_action(
                request,
                lambda: services.spill_open_case(actor=user, spill=spill),
                "Spill case opened.",
            )
            return back if case is None else _case_redirect(case)
        else:
            messages.error(request, "Unknown action.")
            return back
        spill = _spill(pk)
    return render(
        request,
        "inspections/spill_detail.html",
        {
            "spill": spill,
            "confirm_form": confirm_form,
            "close_form": close_form,
            "transitions": available(spill, request.user),
            "deadlines": deadlines_for(spill),
            "can_write": has_role(request.user, Role.SMO),
        },
    )


# --- dye tests and discharge approvals --------------------------------------
@staff_page
def dyetest_list(request):
    form = forms.DyeTestForm(request.POST or None)
    if request.method == "POST" and _attempt(
        request,
        form,
        lambda d: services.dye_test_record(actor=request.user, **d),
        "Dye-test notice recorded.",
    ):
        return redirect("inspections:dyetest_list")
    return render(
        request,
        "inspections/dyetest_list.html",
        {
            "notices": selectors.dye_test_list(),
            "form": form,
            "can_write": has_role(request.user, Role.SMO),
        },
    )


@staff_page
def approval_list(request):
    form = forms.ApprovalForm(
        request.POST or None, initial={"approved_on": timezone.localdate()}
    )
    if request.method == "POST" and _attempt(
        request,
        form,
        lambda d: services.approval_record(actor=request.user, **d),
        "Discharge approval recorded (R-PRO-3).",
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
            "can_write": has_role(request.user, Role.SMO),
        },
    )
