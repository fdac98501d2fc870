"""Issuing documents: preview, issue (freeze the facts and HTML, render the PDF in
Celery), render, retry. The only writes to IssuedDocument."""

from __future__ import annotations

import hashlib
import logging
from functools import partial

from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import PermissionDenied
from django.core.files.base import ContentFile
from django.db import transaction

from kernel.roles import has_role
from kernel.workflow import Refused, run

from . import registry
from .contracts import (
    DocumentFacts,
    FactsInvalid,
    facts_to_json,
    kind_label,
)
from .models import IssuedDocument
from .render import (
    DEFAULT_PDF_VARIANT,
    citation_snapshot,
    render_html,
    render_pdf,
    template_version,
)
from .selectors import documents_of, latest_document

logger = logging.getLogger(__name__)


class DocumentError(Refused):
    """A document cannot be issued or corrected as asked (the message says why)."""

    on_form = False


def may_issue(user, kind: str) -> bool:
    """Whether `user` may issue `kind`: the roles its app registered with it
    (documents.registry, issue 30)."""
    return has_role(user, *registry.issuers_of(kind))


# The preview only (never the issued HTML or PDF): "DRAFT" across every page, on
# screen (a fixed element) and printed (a fixed element repeats on each page, and
# the page margin says it too).
# Its styles are a stylesheet of our own (static/css/draft.css), not a <style>
# block: the preview is served under the CSP (style-src 'self').
DRAFT_MARK = (
    '<link rel="stylesheet" href="/'
    + settings.STATIC_URL.strip("/")
    + '/css/draft.css">'
)
DRAFT_BANNER = (
    '<div class="draft-watermark" data-testid="draft-watermark" aria-hidden="true">'
    "DRAFT</div>"
    '<p class="draft-banner" role="note">'
    "DRAFT — a preview, not issued: nothing is stored.</p>"
)


def mark_draft(html: str) -> str:
    """`html` marked DRAFT on every page (the preview's variant)."""
    html = html.replace("</head>", DRAFT_MARK + "</head>", 1)
    head, found, rest = html.partition("<body")
    if not found:
        return DRAFT_MARK + DRAFT_BANNER + html
    tag_end = rest.index(">") + 1
    return head + found + rest[:tag_end] + DRAFT_BANNER + rest[tag_end:]


def document_preview(kind: str, facts: DocumentFacts) -> str:
    """The HTML the document would have if issued now, marked DRAFT on every page
    (`mark_draft`). Anyone who may read the case may preview; nothing is stored.
    Raises FactsInvalid."""
    return mark_draft(render_html(kind, facts))


def document_issue(
    *,
    kind: str,
    facts: DocumentFacts,
    case,
    source,
    actor,
    supersedes: IssuedDocument | None = None,
    pdf_variant: str = DEFAULT_PDF_VARIANT,
) -> IssuedDocument:
    """Issue a document of `kind` about `source` (the notice, appeal, inspection…
    it documents) on `case`.

    Validates the facts and freezes them with the citations and the HTML on a new
    row (status rendering); the PDF is rendered by the Celery task
    `render_document`, enqueued when the transaction commits. A correction passes
    `supersedes=` the issued version it replaces: the new row gets the next version
    and both stay.

    May call: the roles registered with the kind (may_issue). Raises PermissionDenied, FactsInvalid
    (incomplete or unlawful facts), DocumentError (a live document already
    exists, or the correction does not fit the superseded document)."""
    if not may_issue(actor, kind):
        raise PermissionDenied("Your role may not issue this document.")
    if case is not None and facts.online is None:
        # A document to a party prints the party's access code (issue 18).
        facts = registry.with_online_access(
            facts, kind=kind, case=case, source=source, actor=actor
        )
    # `case` None: a document of the office as a whole (the annual report).
    if case is not None and facts.case_number != case.number:
        raise FactsInvalid(
            kind,
            [f"the facts name case {facts.case_number}, not {case.number}"],
        )
    citations = citation_snapshot(facts)
    html = render_html(kind, facts, citations)  # validates (FactsInvalid)
    content_type = ContentType.objects.get_for_model(source)
    with transaction.atomic():
        if supersedes is not None:
            old = IssuedDocument.objects.select_for_update().get(pk=supersedes.pk)
            _check_correction(
                old, kind=kind, case=case, content_type=content_type, source=source
            )
            version = old.version + 1
        else:
            old = None
            live = IssuedDocument.objects.filter(
                content_type=content_type, object_id=source.pk, kind=kind
            ).exclude(status=IssuedDocument.Status.FAILED)
            if live.exists():
                raise DocumentError(
                    "This document has already been issued; issue a correction "
                    "(a new version) instead."
                )
            version = 1  # a failed earlier attempt does not count as a version
        document = IssuedDocument(
            kind=kind,
            case=case,
            content_type=content_type,
            object_id=source.pk,
            version=version,
            supersedes=old,
            title=kind_label(kind),
            document_number=facts.document_number,
            facts=facts_to_json(facts),
            citations=citations,
            html=html,
            template_name=type(facts).template,
            template_version=template_version(kind),
            pdf_variant=pdf_variant or "",
            pdfa=bool(pdf_variant and pdf_variant.startswith("pdf/a")),
            issued_by=actor,
        )
        document.save()
        transaction.on_commit(partial(_enqueue_render, document.pk), robust=True)
    return document


def issue_for(*, kind, source, actor, case=None) -> IssuedDocument:
    """Issue the document `kind` about the record `source` from its registered
    builder (documents.registry), on the case it is filed on. If one is
    already issued, the new one is a correction superseding the latest version.
    May call: the roles registered with the kind (may_issue). Raises PermissionDenied, FactsInvalid
    (no such document for that record, or the record cannot make one),
    DocumentError."""
    facts = registry.build_facts(kind, source)
    case = case or registry.case_of(kind, source)
    latest = latest_document(source, kind)
    return document_issue(
        kind=kind,
        facts=facts,
        case=case,
        source=source,
        actor=actor,
        supersedes=latest if latest is not None and latest.is_issued else None,
    )


def document_actions(user, source, kinds=None) -> list[dict]:
    """For the record's page: per kind (default: every kind the record has), its
    label, the preview URL, whether the user may issue it, and the versions
    issued so far."""
    from django.urls import reverse

    content_type = ContentType.objects.get_for_model(source)
    rows = []
    for kind in registry.kinds_for(source) if kinds is None else kinds:
        issued = list(documents_of(source, kind))
        live = [d for d in issued if d.status != IssuedDocument.Status.FAILED]
        rows.append(
            {
                "kind": kind,
                "label": kind_label(kind),
                "preview_url": reverse(
                    "documents:draft_preview",
                    args=[kind, content_type.pk, source.pk],
                ),
                "may_issue": may_issue(user, kind),
                "documents": issued,
                "is_correction": bool(live),
                "rendering": any(
                    d.status == IssuedDocument.Status.RENDERING for d in live
                ),
            }
        )
    return rows


def _check_correction(old, *, kind, case, content_type, source):
    # A document of no case may correct a version filed on a case: the Board
    # meeting's agenda was filed on its first hearing's case before issue 26.
    if old.kind != kind or (case is not None and old.case_id != case.pk):
        raise DocumentError("A correction must be of the same kind and case.")
    # The same record, or the record that corrects it (a superseding notice of
    # violation names the notice it supersedes in `supersedes_id`).
    corrects_old = getattr(source, "supersedes_id", None) == old.object_id
    if old.content_type_id != content_type.pk or (
        old.object_id != source.pk and not corrects_old
    ):
        raise DocumentError("A correction must document the same record.")
    if not old.is_issued:
        raise DocumentError("Only an issued document can be corrected.")
    if IssuedDocument.objects.filter(supersedes=old).exists():
        raise DocumentError(
            f"Version {old.version} has already been superseded; correct the latest."
        )


def _enqueue_render(document_id: int) -> None:
    from .tasks import render_document

    render_document.delay(document_id)


def document_render(*, document_id: int) -> IssuedDocument:
    """Render the PDF of a document that is rendering, store it with its SHA-256
    and mark it issued (or failed, with the error), through the workflow's one
    runner, which writes the chronology event. Idempotent: an issued (or failed)
    document is returned untouched. Called by the Celery task only."""
    with transaction.atomic():
        document = (
            IssuedDocument.objects.select_for_update(of=("self",))
            .select_related("case", "issued_by", "supersedes")
            .get(pk=document_id)
        )
        if document.status != IssuedDocument.Status.RENDERING:
            return document
        try:
            pdf = render_pdf(document.html, pdf_variant=document.pdf_variant or None)
        except Exception as exc:
            logger.exception("Rendering document %s failed", document_id)
            error = f"{type(exc).__name__}: {exc}"
            return run(
                document,
                "mark_failed",
                actor=None,
                fields={"error": error},
                event_kind="document",
                summary=lambda *_: f"Rendering failed: {document}",
                detail=error,
            )
        document.pdf.save("document.pdf", ContentFile(pdf), save=False)
        digest = hashlib.sha256(pdf).hexdigest()
        summary = f"Issued: {document.title} {document.document_number} (version {document.version})"
        if document.supersedes is not None:
            summary += f", correcting version {document.supersedes.version}"
        return run(
            document,
            "mark_issued",
            actor=document.issued_by,
            fields={
                "pdf": document.pdf.name,
                "sha256": digest,
                "size": len(pdf),
            },
            event_kind="document",
            summary=lambda *_: summary,
            detail=f"SHA-256 {digest}; template "
            f"{document.template_name} ({document.template_version}); "
            f"{document.pdf_variant or 'PDF'}",
            rule_id=registry.document_type(document.kind).rule_id,
        )


def document_retry(*, document: IssuedDocument, actor) -> IssuedDocument:
    """Put a failed document back to rendering and enqueue it again.
    May call: the roles registered with the kind (may_issue). Raises PermissionDenied, DocumentError."""
    if not may_issue(actor, document.kind):
        raise PermissionDenied("Your role may not issue this document.")

    def must_have_failed(locked):
        if locked.status != IssuedDocument.Status.FAILED:
            raise DocumentError(
                "Only a document whose rendering failed can be retried."
            )

    return run(
        document,
        "retry",
        actor=actor,
        fields={"error": ""},
        before=must_have_failed,
        event_kind="document",
        summary=lambda *_: f"Rendering again: {document}",
        effects=[lambda again: _enqueue_render(again.pk)],
    )


def document_verify(document: IssuedDocument) -> tuple[bool, str]:
    """Recompute the SHA-256 of the stored file: (matches, recomputed hash)."""
    digest = hashlib.sha256()
    with document.pdf.open("rb") as handle:
        for chunk in iter(lambda: handle.read(65536), b""):
            digest.update(chunk)
    recomputed = digest.hexdigest()
    return recomputed == document.sha256, recomputed


def enqueue_stale_renders(*, older_than_seconds: int = 120) -> int:
    """Enqueue again documents left rendering (e.g. the broker was down when they
    were issued). Returns how many were enqueued."""
    import datetime as dt

    from django.utils import timezone

    cutoff = timezone.now() - dt.timedelta(seconds=older_than_seconds)
    ids = list(
        IssuedDocument.objects.filter(
            status=IssuedDocument.Status.RENDERING, created_at__lt=cutoff
        ).values_list("pk", flat=True)
    )
    for pk in ids:
        _enqueue_render(pk)
    return len(ids)
