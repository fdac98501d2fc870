"""Reads of issued documents."""

from django.contrib.contenttypes.models import ContentType

from .models import IssuedDocument


def documents_for_case(case):
    """The documents of `case`, by kind and version, with who issued them."""
    return (
        IssuedDocument.objects.filter(case=case)
        .select_related("issued_by", "supersedes", "superseded_by")
        .defer("html", "facts", "citations")
        .order_by("created_at", "id")
    )


def document_for_reader(pk: int):
    return IssuedDocument.objects.select_related(
        "case", "issued_by", "supersedes", "superseded_by"
    ).get(pk=pk)


def document_origin(document) -> list[tuple[str, str]]:
    """(url, words) of the pages a document came from: its source record (a
    case, a notice, an appeal, the annual report…) and, when the source is
    another record of a case, that case. A source without a page of its own is
    left out."""
    from kernel.workflow import describe

    links = []
    source = document.source
    url = getattr(source, "get_absolute_url", None) if source is not None else None
    if url is not None:
        links.append((url(), describe(source)))
    case = document.case
    if case is not None and case != source:
        links.append((case.get_absolute_url(), describe(case)))
    return links


def documents_of(source, kind=None):
    """The documents issued about `source` (every version), oldest first."""
    content_type = ContentType.objects.get_for_model(source)
    found = IssuedDocument.objects.filter(
        content_type=content_type, object_id=source.pk
    ).defer("html", "facts", "citations")
    if kind is not None:
        found = found.filter(kind=kind)
    return found.order_by("kind", "version", "id")


def latest_document(source, kind):
    """The latest version of `kind` about `source` that did not fail, or None."""
    return (
        documents_of(source, kind)
        .exclude(status=IssuedDocument.Status.FAILED)
        .order_by("-version")
        .first()
    )
