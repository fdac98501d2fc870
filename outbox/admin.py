"""Admin for the outbox: read-only (rows change only through
outbox.services; the SMO retries a failed one on the outbox page)."""

from django.contrib import admin

from kernel.admin import ReadOnlyAdmin

from .models import OutgoingMessage


@admin.register(OutgoingMessage)
class OutgoingMessageAdmin(ReadOnlyAdmin):
    list_display = (
        "created_at",
        "kind",
        "status",
        "recipient",
        "subject",
        "attempts",
        "sent_at",
    )
    list_filter = ("status", "kind")
    search_fields = ("recipient", "subject", "case__number")
    list_select_related = ("case",)
