"""The SMO's outbox page: failed and pending deliveries, and Retry."""

from django.contrib import messages
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from documents.models import IssuedDocument
from documents.selectors import document_for_reader
from kernel.actions import attempt
from kernel.roles import CASE_READERS, Role, role_required

from . import selectors, services
from .forms import DocumentEmailForm
from .models import OutgoingMessage


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
    retried = attempt(
        request,
        None,
        lambda: services.message_retry(message=message, actor=request.user),
    )
    if retried is not None:
        messages.success(
            request, f"Queued again: “{message.subject}” to {message.recipient}."
        )
    return redirect("outbox:list")


@role_required(*CASE_READERS)
@require_POST
def document_email(request, pk: int):
    """Queue a document to be e-mailed to a party (the service checks that the
    user may issue its kind)."""
    try:
        document = document_for_reader(pk)
    except IssuedDocument.DoesNotExist:
        raise Http404("No such document") from None
    form = DocumentEmailForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Give the e-mail address to send it to.")
    else:
        recipient = form.cleaned_data["recipient"]
        sent = attempt(
            request,
            None,
            lambda: services.document_email(
                document=document, recipient=recipient, actor=request.user
            ),
        )
        if sent is not None:
            messages.success(
                request,
                f"Queued: {document} will be e-mailed to {recipient}, PDF attached.",
            )
    return redirect("documents:detail", pk=document.pk)
