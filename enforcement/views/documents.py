"""Issuing a document from its record (appeal decision, access request,
invoice, suspension notice, termination notice and decision, inspection report,
warrant cover sheet). The preview is cases.documents' draft page; the notice of
violation is issued with the notice itself (notices.notice_step)."""

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from cases.documents.contracts import DocumentKind, FactsInvalid
from cases.documents.services import DocumentError, issue_for, may_issue
from cases.roles import CASE_READERS, role_required
from inspections.models import Inspection, WarrantApplication

from ..models import AccessSuspension, AccessTermination, Appeal, CorrectiveAction

# URL word → (model, the kinds it documents, its page)
SOURCES = {
    "appeal": (
        Appeal,
        (DocumentKind.APPEAL_DECISION,),
        lambda o: ("enforcement:appeal_detail", {"pk": o.pk}),
    ),
    "corrective": (
        CorrectiveAction,
        (DocumentKind.ACCESS_REQUEST, DocumentKind.CORRECTIVE_INVOICE),
        lambda o: ("enforcement:remedy_detail", {"flow": "corrective", "pk": o.pk}),
    ),
    "suspension": (
        AccessSuspension,
        (DocumentKind.EMERGENCY_SUSPENSION,),
        lambda o: ("enforcement:remedy_detail", {"flow": "suspension", "pk": o.pk}),
    ),
    "termination": (
        AccessTermination,
        (DocumentKind.PROPOSED_TERMINATION, DocumentKind.TERMINATION_DECISION),
        lambda o: ("enforcement:remedy_detail", {"flow": "termination", "pk": o.pk}),
    ),
    "inspection": (
        Inspection,
        (DocumentKind.INSPECTION_REPORT,),
        lambda o: ("inspections:inspection_detail", {"pk": o.pk}),
    ),
    "warrant": (
        WarrantApplication,
        (DocumentKind.WARRANT_COVER_SHEET,),
        lambda o: ("inspections:warrant_detail", {"pk": o.pk}),
    ),
}

SOURCE_WORD = {model: word for word, (model, _, _) in SOURCES.items()}


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
    try:
        document = issue_for(kind=kind, source=record, actor=request.user)
    except FactsInvalid as exc:
        messages.error(request, f"{exc}. Nothing was issued.")
    except DocumentError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(
            request,
            f"{document.title} {document.document_number} (version "
            f"{document.version}) issued; the PDF is being rendered.",
        )
    target = request.POST.get("next", "")
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return redirect(target)
    name, kwargs = page(record)
    return redirect(name, **kwargs)
