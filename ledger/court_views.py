"""The Justice Court pages (issue 27): refer a charge from its page, the
referral with its court packet and the court's disposition."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from documents.packets import packet_job
from kernel.actions import attempt, confirmed_form_class
from kernel.humanize import money
from kernel.roles import CASE_READERS, Role, has_role, role_required

from . import court
from .forms import DispositionForm, ReferForm
from .models import Charge, CourtReferral

REFER, DISPOSE = "refer", "dispose"


def refer_form(charge, data=None):
    return confirmed_form_class(ReferForm, charge, "court_refer")(data, prefix=REFER)


def disposition_form(referral, data=None):
    return confirmed_form_class(DispositionForm, referral, "court_disposition")(
        data, prefix=DISPOSE
    )


@role_required(Role.SMO)
@require_POST
def charge_refer(request, pk):
    from .views import _charge_page

    charge = get_object_or_404(Charge, pk=pk)
    form = refer_form(charge, request.POST)
    referral = attempt(
        request,
        form,
        lambda: court.court_refer(
            charge=charge,
            actor=request.user,
            referred_on=form.cleaned_data["referred_on"],
            note=form.cleaned_data["note"],
        ),
    )
    if referral is None:
        return _charge_page(request, charge, refer=form)
    messages.success(
        request,
        f"{charge.reference} referred to the Justice Court: "
        f"{money(charge.balance())} unpaid. Print the court packet below.",
    )
    return redirect(referral.get_absolute_url())


def _referral_page(request, referral, *, form=None):
    may_record = has_role(request.user, Role.SMO, Role.CLERK) and not referral.disposed
    return render(
        request,
        "ledger/referral_detail.html",
        {
            "referral": referral,
            "charge": referral.charge,
            "case": referral.case,
            "form": (form or disposition_form(referral)) if may_record else None,
        },
    )


@role_required(*CASE_READERS)
@require_http_methods(["GET"])
def referral_detail(request, pk):
    return _referral_page(request, get_object_or_404(CourtReferral, pk=pk))


@role_required(Role.SMO, Role.CLERK)
@require_POST
def referral_disposition(request, pk):
    referral = get_object_or_404(CourtReferral, pk=pk)
    form = disposition_form(referral, request.POST)

    def call():
        data = form.cleaned_data
        return court.court_record_disposition(
            referral=referral,
            actor=request.user,
            docket_number=data["docket_number"],
            outcome=data["outcome"],
            outcome_on=data["outcome_on"],
            fine_imposed=data["fine_imposed"],
            surcharge_imposed=data["surcharge_imposed"],
            imprisonment_days=data["imprisonment_days"],
            adjourned_to=data["adjourned_to"],
        )

    done = attempt(request, form, call)
    if done is None:
        return _referral_page(request, referral, form=form)
    messages.success(
        request, f"The court's disposition is recorded: {done.status_words()}."
    )
    return redirect(done.get_absolute_url())


@role_required(*CASE_READERS)
@require_http_methods(["GET"])
def referral_packet(request, pk):
    """The Justice Court packet: one PDF with bookmarks, bound by the worker;
    the staff member watches its progress, then downloads it."""
    from .packet import COURT_PACKET_WORK

    referral = get_object_or_404(
        CourtReferral.objects.select_related("case", "charge"), pk=pk
    )
    return packet_job(
        request,
        COURT_PACKET_WORK,
        pk=referral.pk,
        title=f"Justice Court packet, {referral.charge.reference}, case "
        f"{referral.case.number}",
    )
