"""Helpers for tests that need the outbox's messages delivered: what a worker
would do, run in the test's own thread."""

import hashlib

from django.contrib.contenttypes.models import ContentType
from django.core.files.base import ContentFile
from django.core.mail.backends.base import BaseEmailBackend

from documents.models import IssuedDocument
from enforcement.document_kinds import EnforcementDocument
from outbox.models import OutgoingMessage
from outbox.services import message_deliver


def deliver_queued(*kinds: str, **kwargs) -> int:
    """Deliver every pending outbox row (of `kinds`, default all), oldest first;
    how many were sent."""
    pending = OutgoingMessage.objects.filter(status=OutgoingMessage.Status.PENDING)
    if kinds:
        pending = pending.filter(kind__in=kinds)
    ids = list(pending.order_by("created_at", "id").values_list("pk", flat=True))
    return sum(message_deliver(message_id=pk, **kwargs) for pk in ids)


class RefusingBackend(BaseEmailBackend):
    """A mail backend whose server is down (settings.EMAIL_BACKEND in tests)."""

    def send_messages(self, email_messages):
        raise ConnectionRefusedError(111, "Connection refused")


class FlakyBackend(BaseEmailBackend):
    """Refuses the first `failures` sends (class-wide), then delivers to locmem."""

    failures = 0

    def send_messages(self, email_messages):
        from django.core.mail.backends.locmem import EmailBackend

        if FlakyBackend.failures > 0:
            FlakyBackend.failures -= 1
            raise ConnectionRefusedError(111, "Connection refused")
        return EmailBackend().send_messages(email_messages)


def issued_document(case, smo_user, *, issued=True) -> IssuedDocument:
    """A notice of violation on `case`, issued with a small stored PDF (or still
    rendering), without running the renderer."""
    pdf = b"%PDF-1.4 a notice of violation"
    document = IssuedDocument(
        kind=EnforcementDocument.NOTICE_OF_VIOLATION,
        case=case,
        content_type=ContentType.objects.get_for_model(case),
        object_id=case.pk,
        title="Notice of Violation",
        document_number="NOV-2026-0001",
        facts={},
        citations=[],
        html="<p>Notice</p>",
        template_name="documents/notice_of_violation.html",
        template_version="test",
        issued_by=smo_user,
        status=IssuedDocument.Status.ISSUED
        if issued
        else IssuedDocument.Status.RENDERING,
    )
    if issued:
        document.sha256 = hashlib.sha256(pdf).hexdigest()
        document.pdf.save("document.pdf", ContentFile(pdf), save=False)
    document.save()
    return document
