"""Helpers for tests that need the outbox's messages delivered: what a worker
would do, run in the test's own thread."""

from django.core.mail.backends.base import BaseEmailBackend

from cases.models import OutgoingMessage
from cases.outbox.services import message_deliver


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
