"""The receipt of each payment (issue 27): a document of the pipeline, issued
in the payment's transaction (its PDF renders on commit), and e-mailed through
the outbox when the payer gave an address."""

from documents.selectors import latest_document
from documents.services import issue_for
from outbox.services import document_email

from .document_kinds import LedgerDocument


def receipt_issue(*, payment, actor):
    """Issue the receipt of `payment` and queue it to the payer's e-mail address
    (sent once its PDF exists). Returns the issued document."""
    document = issue_for(
        kind=LedgerDocument.PAYMENT_RECEIPT, source=payment, actor=actor
    )
    email = (payment.charge.payer.email or "").strip()
    if email:
        document_email(document=document, recipient=email, actor=actor)
    return document


def receipt_void_issue(*, payment, actor):
    """After `payment` is voided: its receipt issued again, marked void with the
    reason, superseding the first (which stays). Only an issued receipt can be
    corrected: while the first is still rendering, or if it failed, nothing is
    issued (the ledger and the charge page say the payment is void). Returns the
    void receipt or None."""
    latest = latest_document(payment, LedgerDocument.PAYMENT_RECEIPT)
    if latest is not None and not latest.is_issued:
        return None
    return receipt_issue(payment=payment, actor=actor)
