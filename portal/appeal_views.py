"""The respondent files an appeal to the Board of Trustees online (issue 18,
§ 132-14): from their page, for a notice addressed to them. Received at the
moment of submission (the village's date of it is the filing date), acknowledged
on screen and by e-mail with a receipt number."""

from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from enforcement.models import Appeal, NoticeOfViolation, NoticeStatus
from enforcement.services import appeals as appeal_services
from kernel.actions import attempt_errors
from limits.throttle import client_ip

from .session import respondent_required

MAX_FILES = 5


def _notice_of(request, pk):
    access = request.portal
    return get_object_or_404(
        NoticeOfViolation.objects.exclude(status=NoticeStatus.DRAFT),
        pk=pk,
        case_id=access.case_id,
        recipient_id=access.party_id,
    )


@never_cache
@respondent_required
@require_http_methods(["GET", "POST"])
def appeal_new(request, notice_pk):
    notice = _notice_of(request, notice_pk)
    access = request.portal
    last_day = appeal_services.appeal_due_date(notice)
    values = {
        "grounds": request.POST.get("grounds", ""),
        "email": request.POST.get("email", access.party.email),
        "phone": request.POST.get("phone", access.party.phone),
    }
    errors = {}
    if request.method == "POST":
        files = request.FILES.getlist("documents")
        if not request.POST.get("confirm"):
            errors["confirm"] = ["Tick the box to confirm that you appeal this notice."]
        if len(files) > MAX_FILES:
            errors["documents"] = [f"Attach at most {MAX_FILES} files."]
        if not values["grounds"].strip():
            errors["grounds"] = ["Say why you appeal: the grounds of the appeal."]
        if not errors:
            appeal, errors = attempt_errors(
                lambda: appeal_services.appeal_file_online(
                    access=access,
                    notice=notice,
                    grounds=values["grounds"],
                    address=client_ip(request),
                    email=values["email"],
                    phone=values["phone"],
                    documents=files,
                )
            )
            if appeal is not None:
                return redirect("portal_appeal:receipt", appeal.pk)
    return render(
        request,
        "portal/appeal_form.html",
        {
            "notice": notice,
            "access": access,
            "last_day": last_day,
            "late_now": last_day is not None and timezone.localdate() > last_day,
            "may_appeal": notice.can_be_appealed(),
            "values": values,
            "errors": errors,
        },
        status=400 if errors else 200,
    )


@never_cache
@respondent_required
def appeal_receipt(request, pk):
    access = request.portal
    appeal = Appeal.objects.filter(
        pk=pk,
        filed_online=True,
        appellant_id=access.party_id,
        notice__case_id=access.case_id,
    ).first()
    if appeal is None:
        raise Http404("No such appeal of yours")
    return render(
        request,
        "portal/appeal_receipt.html",
        {
            "appeal": appeal,
            "hearing_by": appeal_services.hearing_by(appeal),
            "access": access,
        },
    )
