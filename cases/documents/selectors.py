"""Reads of issued documents."""

from ..models import IssuedDocument


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
