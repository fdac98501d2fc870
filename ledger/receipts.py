"""The receipt of each payment (issue 27): a document of the pipeline, issued
in the payment's transaction (its PDF renders on commit), and e-mailed through
the outbox when the payer gave an address."""

from cases.documents.contracts import DocumentKind
from cases.documents.services import issue_for
from cases.outbox.services import document_email


def receipt_issue(*, payment, actor):
    """Issue the receipt of `payment` and queue it to the payer's e-mail address
    (sent once its PDF exists). Returns the issued document."""
    document = issue_for(kind=DocumentKind.PAYMENT_RECEIPT, source=payment, actor=actor)
    email = (payment.charge.payer.email or "").strip()
    if email:
        document_email(document=document, recipient=email, actor=actor)
    return document
