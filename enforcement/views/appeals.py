"""The clerk's appeal screens (clerk and SMO record; others 403)."""

from django.contrib import messages
from django.http import FileResponse, Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from cases.models import Party
from deadlines.ical import calendar_response, user_of_token
from documents.packets import packet_job
from jobs import exports
from kernel.actions import (
    action_forms,
    confirmed_form_class,
    step_data,
    take_step,
)
from kernel.humanize import human_date, human_datetime
from kernel.input_guard import ascii_digits
from kernel.paging import IdsFirstPaginator
from kernel.roles import has_role, role_required
from kernel.site_url import site_url
from kernel.uploads import sniffed_type

from .. import selectors
from ..documents.hearing import hearing_move_words
from ..exports import APPEALS
from ..forms import (
    APPEAL_STEP_FORMS,
    AppealForm,
    ClerkFilingForm,
    DeliveryForm,
    DocumentForm,
    HearingServiceForm,
    MailingForm,
)
from ..ical_feed import HEARINGS_FEED_ROLES, ical_events, to_ical
from ..models import Appeal, AppealDocument, NoticeOfViolation
from ..services import appeals as svc
from ..services import mail as mail_svc
from ..services import meetings as meeting_svc
from ..services.notices import case_recipients
from .common import APPEAL_RECORDERS, attempt


@role_required(*APPEAL_RECORDERS)
def appeal_list(request):
    """The clerk's three lists, the most urgent of each; `?section=<key>` pages
    through the whole of one list."""
    section = request.GET.get("section", "")
    export_links = exports.export_links(request, "enforcement:appeal_export")
    if section not in selectors.APPEAL_SECTIONS:
        return render(
            request,
            "enforcement/appeal_list.html",
            {
                **selectors.appeal_clerk_lists(),
                "export_links": export_links,
                "export_scope": "the three lists",
            },
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
            "export_links": export_links,
        },
    )


def appeal_list_rows(section: str):
    """The appeals of the clerk's list `section` (a key of APPEAL_SECTIONS), or of
    all three lists for any other value (as the page shows them), each list most
    urgent first, with its date limits and the list's title (`export_list`)."""
    sections = selectors.APPEAL_SECTIONS
    for key in [section] if section in sections else list(sections):
        rows = selectors.appeal_rows().filter(pk__in=selectors.appeal_section(key))
        _status, order = sections[key]
        for chunk in exports.chunks(rows.order_by(*order)):
            for appeal in selectors.with_limits(chunk):
                appeal.export_list = selectors.APPEAL_SECTION_TITLES[key]
                yield appeal


def appeal_export_rows(request) -> exports.Counted:
    section = request.GET.get("section", "")
    sections = selectors.APPEAL_SECTIONS
    keys = [section] if section in sections else list(sections)
    total = sum(selectors.appeal_section(key).count() for key in keys)
    return exports.Counted(total, appeal_list_rows(section))


APPEALS_EXPORT = exports.ListExport(
    name="appeals",
    title="Appeals",
    columns=APPEALS,
    rows=appeal_export_rows,
    roles=APPEAL_RECORDERS,
)


@role_required(*APPEALS_EXPORT.roles)
@require_GET
def appeal_export(request, fmt):
    """Every appeal of the list on the page (one list with ?section=, else all
    three; every page), as CSV or XLSX."""
    return exports.export_list(request, APPEALS_EXPORT, fmt)


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
                    f"{human_date(appeal.appeal_due)}. The Board decides.",
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


@require_GET
@role_required(*APPEAL_RECORDERS)
def hearing_notice_status(request, pk):
    """What the appeal's notice of hearing needs now (Appeal.hearing_notice_step),
    as JSON for the appeal page's script (static/js/hearing-notice-status.js):
    while it says "rendering" the page waits; then it reloads to offer the
    sending (R-APL-2). Not cached: it changes when the worker finishes."""
    appeal = get_object_or_404(Appeal, pk=pk)
    step = appeal.hearing_notice_step()
    response = JsonResponse({"step": step, "rendering": step == "rendering"})
    response["Cache-Control"] = "no-store"
    return response


@role_required(*APPEAL_RECORDERS)
def appeal_detail(request, pk):
    return _render_detail(request, pk)


# The appeal's records that are not steps of its state machine: the form of each.
RECORDS = {
    "filing": ClerkFilingForm,
    "mailing": MailingForm,
    "document": DocumentForm,
    "hearing_service": HearingServiceForm,
    "hearing_delivery": DeliveryForm,  # of one sending (its id in `service`)
    "mail_delivery": DeliveryForm,  # of the decision's certified mailing
}

# record → the words of its "I confirm: …" box (kernel.confirmations): the binding
# records of the Board's decision (R-APL-3) and the sending of the notice of
# hearing (R-APL-2), which cannot be undone (issue 26).
RECORD_CONFIRM = {
    "filing": "appeal_filing",
    "mailing": "appeal_mailing",
    "hearing_service": "hearing_notice_service",
}


def record_form_class(appeal, record: str):
    """The form of record `record` of `appeal`: with its confirmation if binding."""
    form_class = RECORDS[record]
    if record in RECORD_CONFIRM:
        return confirmed_form_class(form_class, appeal, RECORD_CONFIRM[record])
    return form_class


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
        return bound.get(name) or record_form_class(appeal, name)(
            prefix=name, initial=initial
        )

    # Each certified sending of the notice of hearing without its outcome gets
    # its own small form (the refused one shown again with the input kept).
    services = list(appeal.hearing_notice_services.select_related("document"))
    notice_step = appeal.hearing_notice_step()
    refused = bound.get("hearing_delivery")
    for s in services:
        s.delivery_form = None
        if s.awaits_delivery_outcome:
            if refused is not None and str(refused["service"].value()) == str(s.pk):
                s.delivery_form = refused
            else:
                s.delivery_form = DeliveryForm(
                    prefix="hearing_delivery", initial={"service": s.pk}
                )

    out_of_date = appeal.hearing_notice() if notice_step == "reissue" else None
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
            "hearing_services": services,
            # What the notice of hearing still needs (Appeal.hearing_notice_step).
            "hearing_notice_to_issue": notice_step == "issue",
            "hearing_notice_unsent": notice_step == "send",
            "hearing_notice_rendering": notice_step == "rendering",
            # The notice of hearing that gives the hearing as it was before a move,
            # and (what it gives, the hearing now) in words.
            "out_of_date_notice": out_of_date,
            "hearing_move": (
                hearing_move_words(appeal, out_of_date) if out_of_date else None
            ),
            "mail_delivery_form": record_form(
                "mail_delivery", appeal.awaits_delivery_outcome()
            ),
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
    words = f"Hearing scheduled for {human_datetime(when)}."
    if scheduled.meeting_id:
        words += f" At the Board meeting: {scheduled.hearing_location}."
    if scheduled.hearing_notice_is_out_of_date():
        was, now = hearing_move_words(scheduled, scheduled.hearing_notice())
        words += (
            f" The notice of hearing already issued gives {was}, not {now}: issue "
            "the corrected notice under Documents and send it to the appellant."
        )
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


def _accepted_late(appeal, user, d):
    done = svc.appeal_accept_late(appeal=appeal, actor=user)
    return done, (
        "The Board's acceptance of the late appeal is recorded; the hearing is "
        f"due by {human_date(svc.hearing_by(done))}."
    )


# step of the appeal's state machine → service call returning (appeal, words)
STEP_SERVICES = {
    "accept_late": _accepted_late,
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


def _delivered(record, user, d, what):
    done = mail_svc.mail_record_outcome(
        record=record, actor=user, outcome=d["outcome"], on=d["on"]
    )
    return f"{what}: {done.delivery_words()}", ""


def _hearing_notice_delivered(appeal, user, d):
    service = mail_svc.hearing_service_of(appeal, d.get("service"))
    return _delivered(service, user, d, "Outcome of the notice of hearing's mailing")


def _decision_delivered(appeal, user, d):
    return _delivered(appeal, user, d, "Outcome of the decision's mailing")


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
    "hearing_delivery": _hearing_notice_delivered,
    "mail_delivery": _decision_delivered,
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
    form = record_form_class(appeal, record)(
        request.POST, request.FILES or None, prefix=record
    )
    done = attempt(
        request,
        form,
        lambda: RECORD_SERVICES[record](appeal, request.user, step_data(form)),
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
    """A document filed with an appeal, always as a download, with the type its
    bytes say (PDF, JPEG, PNG; anything else as plain bytes), never the type the
    sender claimed."""
    document = get_object_or_404(AppealDocument, pk=pk)
    handle = document.file.open("rb")
    head = handle.read(16)
    handle.seek(0)
    response = FileResponse(
        handle,
        as_attachment=True,
        filename=document.original_name,
        content_type=sniffed_type(head) or "application/octet-stream",
    )
    response["X-Content-Type-Options"] = "nosniff"
    return response


@role_required(*APPEAL_RECORDERS)
def hearings_ics(request):
    """The hearings feed for a signed-in browser; a calendar program subscribes
    to hearings_ical (the user's feed token) instead."""
    return calendar_response(
        to_ical(ical_events(request.user), base=site_url(request)),
        filename="hearings.ics",
    )


@require_GET
def hearings_ical(request, token: str):
    """The hearings feed with the user's feed token instead of a sign-in (the
    token of the deadlines feed: "My calendar feed" shows both addresses)."""
    user = user_of_token(token)
    if user is None or not has_role(user, *HEARINGS_FEED_ROLES):
        raise Http404("No such calendar.")
    return calendar_response(
        to_ical(ical_events(user), base=site_url(request)), filename="hearings.ics"
    )


@role_required(*APPEAL_RECORDERS)
def appeal_packet(request, pk):
    """The Board's hearing packet of the appeal: one PDF with bookmarks, bound
    by the worker; the clerk watches its progress, then downloads it."""
    from ..packet import HEARING_PACKET_WORK

    appeal = get_object_or_404(Appeal.objects.select_related("notice__case"), pk=pk)
    if not appeal.may_have_a_packet():
        raise Http404("Schedule the hearing first.")
    return packet_job(
        request,
        HEARING_PACKET_WORK,
        pk=appeal.pk,
        title=f"Hearing packet, appeal {appeal.pk}, case {appeal.notice.case.number}",
    )
