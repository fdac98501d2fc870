"""The kinds of document program reporting issues (reporting.annual.documents),
declared to the document pipeline."""

from django.db import models

from documents.contracts import register_document_kinds


class ReportingDocument(models.TextChoices):
    ANNUAL_REPORT = "annual_report", "Annual MS4 report: illicit discharges (IDDE)"


register_document_kinds(ReportingDocument.choices)
