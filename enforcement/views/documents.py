"""Issuing a document from its record (appeal decision, access request,
invoice, suspension notice, termination notice and decision, inspection report,
warrant cover sheet). The preview is documents' draft page; the notice of
violation is issued with the notice itself (notices.notice_step)."""

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from documents.selectors import latest_document
from documents.services import issue_for, may_issue
from inspections.document_kinds import InspectionDocument
from inspections.models import Inspection, WarrantApplication
from kernel.actions import CONFIRM_MISSING, attempt, confirmation_form
from kernel.roles import CASE_READERS, role_required
from kernel.workflow import Refused, actions, reasons_not

from ..document_kinds import EnforcementDocument
from ..models import (
    AccessSuspension,
    AccessTermination,
    Appeal,
    BoardMeeting,
    CorrectiveAction,
    NuisanceAbatement,
)
from ..services.remedies import remedy_invoice, step_words

# URL word → (model, the kinds it documents, its page)
SOURCES = {
    "appeal": (
        Appeal,
        (EnforcementDocument.HEARING_NOTICE, EnforcementDocument.APPEAL_DECISION),
        lambda o: ("enforcement:appeal_detail", {"pk": o.pk}),
    ),
    "meeting": (
        BoardMeeting,
        (EnforcementDocument.MEETING_AGENDA,),
        lambda o: ("enforcement:meeting_detail", {"pk": o.pk}),
    ),
    "corrective": (
        CorrectiveAction,
        (EnforcementDocument.ACCESS_REQUEST, EnforcementDocument.CORRECTIVE_INVOICE),
        lambda o: ("enforcement:remedy_detail", {"flow": "corrective", "pk": o.pk}),
    ),
    "nuisance": (
        NuisanceAbatement,
        (EnforcementDocument.CORRECTIVE_INVOICE,),
        lambda o: ("enforcement:remedy_detail", {"flow": "nuisance", "pk": o.pk}),
    ),
    "suspension": (
        AccessSuspension,
        (EnforcementDocument.EMERGENCY_SUSPENSION,),
        lambda o: ("enforcement:remedy_detail", {"flow": "suspension", "pk": o.pk}),
    ),
    "termination": (
        AccessTermination,
        (
            EnforcementDocument.PROPOSED_TERMINATION,
            EnforcementDocument.TERMINATION_DECISION,
        ),
        lambda o: ("enforcement:remedy_detail", {"flow": "termination", "pk": o.pk}),
    ),
    "inspection": (
        Inspection,
        (InspectionDocument.INSPECTION_REPORT,),
        lambda o: ("inspections:inspection_detail", {"pk": o.pk}),
    ),
    "warrant": (
        WarrantApplication,
        (InspectionDocument.WARRANT_COVER_SHEET,),
        lambda o: ("inspections:warrant_detail", {"pk": o.pk}),
    ),
}

SOURCE_WORD = {model: word for word, (model, _, _) in SOURCES.items()}

# kind → the step of its record that records the document's service: once the
# document is issued, its page offers that step (if the machine offers it now).
SERVICE_STEP = {EnforcementDocument.EMERGENCY_SUSPENSION: "record_notice"}


# kind → the step of its record that the first issue of the document is: the
# invoice (R-COR-2, R-NUI-1) is numbered, totalled and dated by that step, which
# issues the document in its transaction (enforcement.services.remedies).
ISSUE_STEP = {EnforcementDocument.CORRECTIVE_INVOICE: ("invoice", remedy_invoice)}

# kind → the words (kernel.confirmations) of the "I confirm: …" box its issue asks
# for: issuing these binds the office and starts what the words say (issue 26).
DOCUMENT_CONFIRM = {
    EnforcementDocument.HEARING_NOTICE: "hearing_notice_issue",
    EnforcementDocument.APPEAL_DECISION: "appeal_decision_issue",
    EnforcementDocument.MEETING_AGENDA: "agenda_issue",
    EnforcementDocument.CORRECTIVE_INVOICE: "invoice_issue",
}


def issue_confirmation(record, kind, data=None):
    """The confirmation form of issuing `kind` for `record` (None: not binding);
    its box is `<kind>-confirm`."""
    builder = DOCUMENT_CONFIRM.get(kind)
    if builder is None:
        return None
    return confirmation_form(record, builder, data, prefix=kind)


def _back(request, record, page, anchor=""):
    """The page the issue was asked from (`next`), else the record's page."""
    target = request.POST.get("next", "")
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return redirect(target + anchor)
    name, kwargs = page(record)
    return HttpResponseRedirect(reverse(name, kwargs=kwargs) + anchor)


def _issue_step(record, kind, user):
    """The step issuing `kind` is, while the record's machine offers it."""
    found = ISSUE_STEP.get(kind)
    if found is None:
        return None
    name, service = found
    offered = any(a.name == name for a in actions(record, user))
    return (name, service) if offered else None


def _service_step(record, kind, user):
    """The step recording how and when the document was sent, if offered now."""
    name = SERVICE_STEP.get(kind)
    if name is None:
        return None
    return next((a for a in actions(record, user) if a.name == name), None)


@require_POST
@role_required(*CASE_READERS)
def document_issue_view(request, source, pk, kind):
    """Issue (or correct, as a new version) the document `kind` of one record.
    403 for a role the documents service does not allow; missing facts → a
    message listing them, nothing saved."""
    if source not in SOURCES:
        raise Http404("No such record.")
    model, kinds, page = SOURCES[source]
    if kind not in kinds:
        raise Http404("No such document for this record.")
    if not may_issue(request.user, kind):
        raise PermissionDenied("Your role may not issue this document.")
    record = get_object_or_404(model, pk=pk)
    confirmation = issue_confirmation(record, kind, request.POST)
    if confirmation is not None and not confirmation.is_valid():
        messages.error(request, CONFIRM_MISSING)
        return _back(request, record, page)
    anchor = ""
    step = _issue_step(record, kind, request.user)
    if step is None and kind in ISSUE_STEP and latest_document(record, kind) is None:
        # Its first issue is the step, which cannot be taken now: say why.
        name = ISSUE_STEP[kind][0]
        why = Refused(*reasons_not(record, name, request.user), lead="Not issued:")
        messages.error(request, str(why))
        url_name, kwargs = page(record)
        return HttpResponseRedirect(reverse(url_name, kwargs=kwargs))
    if step is not None:
        name, service = step
        done = attempt(
            request, None, lambda: service(remedy=record, actor=request.user)
        )
        if done is not None:
            document = latest_document(done, kind)
            messages.success(
                request,
                f"{step_words(done, name)}. {document.title} "
                f"{document.document_number} (version {document.version}) issued; "
                "the PDF is being rendered. Record each payment received with "
                "“Record payment”.",
            )
        url_name, kwargs = page(record)
        return HttpResponseRedirect(reverse(url_name, kwargs=kwargs))
    document = attempt(
        request,
        None,
        lambda: issue_for(kind=kind, source=record, actor=request.user),
        nothing="issued",
    )
    if document is not None:
        words = (
            f"{document.title} {document.document_number} (version "
            f"{document.version}) issued; the PDF is being rendered."
        )
        service = _service_step(record, kind, request.user)
        if service is not None:
            words += (
                f" Record how and when it was sent: “{service.label}” below; "
                "recording it meets the deadline of the written notice."
            )
            anchor = f"#step-{service.name}"
        messages.success(request, words)
    return _back(request, record, page, anchor)
