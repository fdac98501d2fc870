"""The kinds of document the ledger issues (ledger.documents: issue 27), declared
to the document pipeline."""

from django.db import models

from documents.contracts import register_document_kinds


class LedgerDocument(models.TextChoices):
    PAYMENT_RECEIPT = "payment_receipt", "Receipt for a payment"


register_document_kinds(LedgerDocument.choices)
