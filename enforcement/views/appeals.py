"""The clerk's appeal screens (clerk and SMO record; others 403)."""

from django.contrib import messages
from django.http import FileResponse, Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from cases.models import Party
from cases.paging import IdsFirstPaginator
from cases.roles import role_required

from .. import selectors
from ..forms import (
    AppealForm,
    AppealWithdrawForm,
    ClerkFilingForm,
    DecisionForm,
    DocumentForm,
    HearingForm,
    MailingForm,
)
from ..ical_feed import ical_events, to_ical
from ..models import IN_FORCE, Appeal, AppealDocument, NoticeOfViolation
from ..services import appeals as svc
from ..services.notices import case_recipients
from .common import APPEAL_RECORDERS, attempt


@role_required(*APPEAL_RECORDERS)
def appeal_list(request):
    """The clerk's three lists, the most urgent of each; `?section=<key>` pages
    through the whole of one list."""
    section = request.GET.get("section", "")
    if section not in selectors.APPEAL_SECTIONS:
        return render(
            request, "enforcement/appeal_list.html", selectors.appeal_clerk_lists()
        )
    page = IdsFirstPaginator(
        selectors.appeal_section(section),
        selectors.APPEAL_SECTION_SIZE,
        rows=selectors.appeal_rows(),
    ).get_page(request.GET.get("page"))
    appeals = selectors.with_limits(page.object_list)
    return render(
        request,
        "enforcement/appeal_section.html",
        {
            "section": section,
            "title": selectors.APPEAL_SECTION_TITLES[section],
            "page": page,
            "appeals": appeals,
            "query": f"section={section}",
            "today": timezone.localdate(),
        },
    )


@role_required(*APPEAL_RECORDERS)
def appeal_create(request):
    notices = NoticeOfViolation.objects.filter(status__in=IN_FORCE).select_related(
        "case"
    )
    notice = None
    notice_id = request.POST.get("notice") or request.GET.get("notice")
    if notice_id and str(notice_id).isdigit():
        notice = notices.filter(pk=notice_id).first()
    appellants = case_recipients(notice.case) if notice else Party.objects.none()
    initial = {"notice": notice.pk if notice else None}
    if notice:
        initial["appellant"] = notice.recipient_id
    form = AppealForm(
        request.POST or None,
        request.FILES or None,
        notices=notices,
        appellants=appellants,
        initial=initial,
    )
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        appeal = attempt(
            request,
            form,
            lambda: svc.appeal_file(
                notice=d["notice"],
                actor=request.user,
                appellant=d["appellant"],
                filed_on=d["filed_on"],
                grounds=d["grounds"],
                documents=[d["document"]] if d.get("document") else [],
            ),
        )
        if appeal is not None:
            if appeal.is_late:
                messages.warning(
                    request,
                    f"Appeal recorded and flagged LATE: the last day to appeal was "
                    f"{appeal.appeal_due:%A %Y-%m-%d}. The Board decides.",
                )
            else:
                messages.success(request, "Appeal recorded.")
            return redirect("enforcement:appeal_detail", pk=appeal.pk)
    return render(
        request,
        "enforcement/appeal_form.html",
        {
            "form": form,
            "notice": notice,
            "appeal_due": svc.appeal_due_date(notice) if notice else None,
        },
    )


@role_required(*APPEAL_RECORDERS)
def appeal_detail(request, pk):
    appeal = get_object_or_404(
        Appeal.objects.select_related("notice__case", "appellant"), pk=pk
    )
    allowed = {t.name for t in appeal.user_actions(request.user)}
    return render(
        request,
        "enforcement/appeal_detail.html",
        {
            "appeal": appeal,
            "deadlines": selectors.key_dates(appeal),
            "hearing_by": svc.hearing_by(appeal),
            "hearing_form": HearingForm() if "schedule_hearing" in allowed else None,
            "decision_form": DecisionForm() if "decide" in allowed else None,
            "withdraw_form": AppealWithdrawForm() if "withdraw" in allowed else None,
            "filing_form": ClerkFilingForm()
            if appeal.status == "decided" and not appeal.filed_with_clerk_on
            else None,
            "mailing_form": MailingForm()
            if appeal.status == "decided" and not appeal.mailed_on
            else None,
            "document_form": DocumentForm(),
        },
    )


def _warn(request, result, ok):
    if result is None:
        return
    _, warning = result
    if warning:
        messages.warning(request, warning)
    else:
        messages.success(request, ok)


ACTIONS = {
    "hearing": HearingForm,
    "decide": DecisionForm,
    "filing": ClerkFilingForm,
    "mailing": MailingForm,
    "withdraw": AppealWithdrawForm,
    "document": DocumentForm,
}


@require_POST
@role_required(*APPEAL_RECORDERS)
def appeal_action(request, pk, action):
    appeal = get_object_or_404(Appeal, pk=pk)
    if action not in ACTIONS:
        raise Http404("No such step.")
    form = ACTIONS[action](request.POST, request.FILES)
    if not form.is_valid():
        for field, errors in form.errors.items():
            label = form.fields[field].label if field in form.fields else ""
            messages.error(request, f"{label or field}: {' '.join(errors)}")
        return redirect("enforcement:appeal_detail", pk=pk)
    d, user = form.cleaned_data, request.user
    if action == "hearing":
        _warn(
            request,
            attempt(
                request,
                None,
                lambda: svc.appeal_schedule_hearing(
                    appeal=appeal,
                    actor=user,
                    hearing_at=d["hearing_at"],
                    location=d["location"],
                ),
            ),
            "Hearing scheduled.",
        )
    elif action == "decide":
        attempt(
            request,
            None,
            lambda: svc.appeal_decide(
                appeal=appeal,
                actor=user,
                decision=d["decision"],
                decided_on=d["decided_on"],
                resolution=d["resolution"],
            ),
            success="Decision recorded; the deadlines that follow are set.",
        )
    elif action == "filing":
        _warn(
            request,
            attempt(
                request,
                None,
                lambda: svc.appeal_record_clerk_filing(
                    appeal=appeal, actor=user, filed_on=d["filed_on"]
                ),
            ),
            "Filing recorded.",
        )
    elif action == "mailing":
        _warn(
            request,
            attempt(
                request,
                None,
                lambda: svc.appeal_record_mailing(
                    appeal=appeal,
                    actor=user,
                    mailed_on=d["mailed_on"],
                    article_number=d["article_number"],
                ),
            ),
            "Mailing recorded.",
        )
    elif action == "withdraw":
        attempt(
            request,
            None,
            lambda: svc.appeal_withdraw(appeal=appeal, actor=user, reason=d["reason"]),
            success="Withdrawal recorded.",
        )
    else:
        attempt(
            request,
            None,
            lambda: svc.appeal_add_document(
                appeal=appeal,
                actor=user,
                upload=d["document"],
                description=d["description"],
            ),
            success="Document kept.",
        )
    return redirect("enforcement:appeal_detail", pk=pk)


@role_required(*APPEAL_RECORDERS)
def appeal_document(request, pk):
    document = get_object_or_404(AppealDocument, pk=pk)
    response = FileResponse(
        document.file.open("rb"),
        as_attachment=True,
        filename=document.original_name,
        content_type=document.content_type,
    )
    response["X-Content-Type-Options"] = "nosniff"
    return response


@role_required(*APPEAL_RECORDERS)
def hearings_ics(request):
    return HttpResponse(
        to_ical(ical_events(request.user)), content_type="text/calendar"
    )
