"""Staff pages of the documents: draft preview, the stored document, its download
and its verification. Readers are the roles that may read a case (CASE_READERS)."""

import logging

from django.contrib import messages
from django.contrib.contenttypes.models import ContentType
from django.http import FileResponse, Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from kernel.roles import CASE_READERS, role_required

from . import services
from .contracts import FactsInvalid, is_document_kind, kind_label
from .models import IssuedDocument
from .registry import builder_for, sample_facts
from .selectors import document_for_reader, document_origin

logger = logging.getLogger(__name__)


def _document(pk):
    try:
        return document_for_reader(pk)
    except IssuedDocument.DoesNotExist:
        raise Http404("No such document") from None


def _html_response(html: str) -> HttpResponse:
    response = HttpResponse(html, content_type="text/html; charset=utf-8")
    response["Cache-Control"] = "private, no-store"
    return response


@role_required(*CASE_READERS)
def sample_preview(request, kind):
    """The template of `kind` filled with sample facts (no record needed)."""
    if not is_document_kind(kind):
        raise Http404("No such kind of document")
    return _html_response(services.document_preview(kind, sample_facts(kind)))


@role_required(*CASE_READERS)
def draft_preview(request, kind, content_type_id, object_id):
    """The draft of `kind` for one record, before it is issued."""
    if not is_document_kind(kind):
        raise Http404("No such kind of document")
    content_type = get_object_or_404(ContentType, pk=content_type_id)
    builder = builder_for(kind, content_type)
    if builder is None:
        raise Http404("No draft of this kind for this record")
    try:
        source = content_type.get_object_for_this_type(pk=object_id)
    except content_type.model_class().DoesNotExist:
        raise Http404("No such record") from None
    try:
        html = services.document_preview(kind, builder(source))
    except FactsInvalid as exc:
        return render(
            request,
            "documents/staff/draft_refused.html",
            {"error": exc, "kind_label": kind_label(kind)},
            status=200,
        )
    return _html_response(html)


@role_required(*CASE_READERS)
def detail(request, pk):
    document = _document(pk)
    return render(
        request,
        "documents/staff/detail.html",
        {
            "document": document,
            "origin": document_origin(document),
            "may_retry": services.may_issue(request.user, document.kind),
        },
    )


@role_required(*CASE_READERS)
def stored_html(request, pk):
    """The HTML the PDF was rendered from, as stored."""
    return _html_response(_document(pk).html)


@role_required(*CASE_READERS)
def download(request, pk):
    """The stored PDF bytes, never a re-render. Refused when the stored file no
    longer matches its SHA-256."""
    document = _document(pk)
    if not document.is_issued:
        raise Http404("This document has not been issued yet")
    matches, recomputed = services.document_verify(document)
    if not matches:
        logger.error(
            "Stored file of document %s does not match its SHA-256 (%s != %s)",
            document.pk,
            recomputed,
            document.sha256,
        )
        return render(
            request,
            "documents/staff/verify.html",
            {"document": document, "matches": False, "recomputed": recomputed},
            status=409,
        )
    response = FileResponse(
        document.pdf.open("rb"),
        as_attachment=True,
        filename=document.download_name,
        content_type="application/pdf",
    )
    response["Cache-Control"] = "private, no-store"
    response["X-Document-SHA256"] = document.sha256
    return response


@role_required(*CASE_READERS)
def verify(request, pk):
    """Recompute the SHA-256 of the stored file against the row."""
    document = _document(pk)
    if not document.is_issued:
        raise Http404("This document has not been issued yet")
    matches, recomputed = services.document_verify(document)
    return render(
        request,
        "documents/staff/verify.html",
        {"document": document, "matches": matches, "recomputed": recomputed},
    )


@require_POST
@role_required(*CASE_READERS)
def retry(request, pk):
    document = _document(pk)
    try:
        services.document_retry(document=document, actor=request.user)
    except services.DocumentError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, "Rendering again: this page refreshes by itself.")
    return redirect("documents:detail", pk=document.pk)
