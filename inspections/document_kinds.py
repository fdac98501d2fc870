"""The kinds of document inspections issues (inspections.documents), declared to
the document pipeline."""

from django.db import models

from documents.contracts import register_document_kinds


class InspectionDocument(models.TextChoices):
    INSPECTION_REPORT = "inspection_report", "Inspection report"
    WARRANT_COVER_SHEET = (
        "warrant_cover_sheet",
        "Search warrant application: cover sheet",
    )


register_document_kinds(InspectionDocument.choices)
