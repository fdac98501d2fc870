"""The SMO's outbox page: failed and pending deliveries, and Retry."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from ..models import OutgoingMessage
from ..roles import Role, role_required
from ..workflow import Refused
from . import selectors, services


@role_required(Role.SMO)
def outbox_list(request):
    context = {
        "failed": selectors.failed_messages(),
        "pending": selectors.pending_messages(),
        "counts": selectors.delivery_counts(),
        "now": timezone.now(),
        "limit": selectors.PAGE_LIMIT,
    }
    return render(request, "outbox/list.html", context)


@role_required(Role.SMO)
@require_POST
def outbox_retry(request, pk: int):
    message = get_object_or_404(OutgoingMessage, pk=pk)
    try:
        services.message_retry(message=message, actor=request.user)
    except Refused as exc:
        messages.warning(request, str(exc))
    else:
        messages.success(
            request, f"Queued again: “{message.subject}” to {message.recipient}."
        )
    return redirect("outbox:list")
