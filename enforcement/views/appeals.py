"""The clerk's appeal screens (clerk and SMO record; others 403)."""

from django.contrib import messages
from django.http import FileResponse, Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from cases.input_guard import ascii_digits
from cases.models import Party
from cases.paging import IdsFirstPaginator
from cases.roles import role_required
from cases.views.actions import action_forms, take_step

from .. import selectors
from ..forms import (
    APPEAL_STEP_FORMS,
    AppealForm,
    ClerkFilingForm,
    DocumentForm,
    HearingServiceForm,
    MailingForm,
)
from ..ical_feed import ical_events, to_ical
from ..models import Appeal, AppealDocument, NoticeOfViolation
from ..services import appeals as svc
from ..services import meetings as meeting_svc
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
    notices = NoticeOfViolation.objects.appealable().select_related("case")
    notice = None
    notice_id = request.POST.get("notice") or request.GET.get("notice")
    if ascii_digits(notice_id):
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
    return _render_detail(request, pk)


# The appeal's records that are not steps of its state machine: the form of each.
RECORDS = {
    "filing": ClerkFilingForm,
    "mailing": MailingForm,
    "document": DocumentForm,
    "hearing_service": HearingServiceForm,
}


def _render_detail(request, pk, *, bound=None, status=200):
    """The appeal page; `bound` = {step or record: submitted form} of one that was
    refused, so the user's input and its errors are shown again."""
    appeal = get_object_or_404(
        Appeal.objects.select_related("notice__case", "appellant"), pk=pk
    )
    bound = bound or {}

    def record_form(name, offered=True, **initial):
        if not offered:
            return None
        return bound.get(name) or RECORDS[name](prefix=name, initial=initial)

    return render(
        request,
        "enforcement/appeal_detail.html",
        {
            "appeal": appeal,
            "actions": action_forms(
                appeal, request.user, APPEAL_STEP_FORMS, bound=bound
            ),
            "deadlines": selectors.key_dates(appeal),
            "hearing_by": svc.hearing_by(appeal),
            "filing_form": record_form("filing", appeal.awaits_clerk_filing()),
            "mailing_form": record_form("mailing", appeal.awaits_mailing()),
            "document_form": record_form("document"),
            "hearing_service_form": record_form(
                "hearing_service",
                appeal.hearing_notice_to_send(),
                sent_to=appeal.appellant.name,
            ),
            "hearing_services": appeal.hearing_notice_services.all(),
        },
        status=status,
    )


def _scheduled(appeal, user, d):
    scheduled, warning = svc.appeal_schedule_hearing(
        appeal=appeal,
        actor=user,
        hearing_at=d.get("hearing_at"),
        location=d.get("location", ""),
        meeting=d.get("meeting"),
    )
    when = timezone.localtime(scheduled.hearing_at)
    words = f"Hearing scheduled for {when:%A %Y-%m-%d %H:%M}."
    if scheduled.meeting_id:
        words += f" At the Board meeting: {scheduled.hearing_location}."
    return scheduled, f"{words} {warning}" if warning else words


def _decided(appeal, user, d):
    decided = svc.appeal_decide(
        appeal=appeal,
        actor=user,
        decision=d["decision"],
        decided_on=d["decided_on"],
        resolution=d["resolution"],
        modification=d.get("modification", ""),
    )
    words = (
        f"Decision ({decided.get_decision_display().lower()}) recorded; the "
        "deadlines that follow are set."
    )
    if decided.modifies():
        words += (
            f" The SMO issues a notice superseding NOV-{decided.notice_id} with the "
            "requirements as modified; its own dates govern (no five-business-day "
            "correction clock: R-COR-1 runs from a decision upholding the SMO)."
        )
    return decided, words


def _withdrawn(appeal, user, d):
    done = svc.appeal_withdraw(appeal=appeal, actor=user, reason=d["reason"])
    return done, "Withdrawal recorded."


# step of the appeal's state machine → service call returning (appeal, words)
STEP_SERVICES = {
    "schedule_hearing": _scheduled,
    "decide": _decided,
    "withdraw": _withdrawn,
}


@require_POST
@role_required(*APPEAL_RECORDERS)
def appeal_step(request, pk, transition):
    appeal = get_object_or_404(Appeal, pk=pk)
    return take_step(
        request,
        appeal,
        transition,
        APPEAL_STEP_FORMS,
        {
            name: lambda data, seen, call=call: call(appeal, request.user, data)
            for name, call in STEP_SERVICES.items()
        },
        lambda bound: _render_detail(request, pk, bound=bound),
    )


def _hearing_notice_sent(appeal, user, d):
    sent = meeting_svc.hearing_notice_record_service(
        appeal=appeal,
        actor=user,
        method=d["method"],
        served_on=d["served_on"],
        sent_to=d["sent_to"],
        article_number=d["article_number"],
        served_by=d["served_by"],
    )
    return f"Sending of the notice of hearing recorded: {sent}.", ""


def _filed(appeal, user, d):
    _, late = svc.appeal_record_clerk_filing(
        appeal=appeal, actor=user, filed_on=d["filed_on"]
    )
    return "Filing recorded.", late


def _mailed(appeal, user, d):
    _, late = svc.appeal_record_mailing(
        appeal=appeal,
        actor=user,
        mailed_on=d["mailed_on"],
        article_number=d["article_number"],
    )
    return "Mailing recorded.", late


def _document_kept(appeal, user, d):
    kept = svc.appeal_add_document(
        appeal=appeal, actor=user, upload=d["document"], description=d["description"]
    )
    return f"Document “{kept.original_name}” kept.", ""


# record of the appeal → service call returning (what was done, a warning or "":
# recorded after the five days of R-APL-3)
RECORD_SERVICES = {
    "hearing_service": _hearing_notice_sent,
    "filing": _filed,
    "mailing": _mailed,
    "document": _document_kept,
}


@require_POST
@role_required(*APPEAL_RECORDERS)
def appeal_record(request, pk, record):
    """The filing with the clerk, the certified mailing, a document, the sending
    of the notice of hearing: not steps of the machine, but records of the appeal
    (filing and mailing close it)."""
    appeal = get_object_or_404(Appeal, pk=pk)
    if record not in RECORDS:
        raise Http404("No such record.")
    form = RECORDS[record](request.POST, request.FILES or None, prefix=record)
    done = attempt(
        request,
        form,
        lambda: RECORD_SERVICES[record](appeal, request.user, form.cleaned_data),
    )
    if done is None:
        return _render_detail(request, pk, bound={record: form})
    words, warning = done
    if warning:
        messages.warning(request, warning)
    else:
        messages.success(request, words)
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


@role_required(*APPEAL_RECORDERS)
def appeal_packet(request, pk):
    """The Board's hearing packet of the appeal: one PDF with bookmarks."""
    from ..packet import hearing_packet

    appeal = get_object_or_404(
        Appeal.objects.select_related("notice__case", "appellant"), pk=pk
    )
    if not appeal.may_have_a_packet():
        raise Http404("Schedule the hearing first.")
    pdf, _ = hearing_packet(appeal)
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = (
        f'inline; filename="{appeal.notice.case.number}-appeal-{appeal.pk}-packet.pdf"'
    )
    response["X-Content-Type-Options"] = "nosniff"
    return response
