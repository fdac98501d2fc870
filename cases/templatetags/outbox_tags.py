"""The outbox's panel on a document's page: e-mail it to a party, and where it
was e-mailed so far."""

from django import template
from django.contrib.contenttypes.models import ContentType

from kernel.panels import render_panel
from kernel.roles import Role, has_role
from outbox.forms import DocumentEmailForm
from outbox.models import OutgoingMessage

from ..models import CaseParty

register = template.Library()


@register.simple_tag(takes_context=True)
def document_email_panel(context, document):
    """For those who may issue the document's kind: the form, the case's party
    addresses as suggestions, and this document's deliveries."""
    from documents.services import may_issue

    request = context.get("request")
    user = context.get("user") or getattr(request, "user", None)
    if user is None or not may_issue(user, document.kind):
        return ""
    parties = (
        CaseParty.objects.filter(case_id=document.case_id)
        .exclude(party__email="")
        .select_related("party")
        .order_by("party__name")
    )
    deliveries = OutgoingMessage.objects.filter(
        kind=OutgoingMessage.Kind.DOCUMENT,
        content_type=ContentType.objects.get_for_model(document),
        object_id=document.pk,
    ).order_by("created_at", "id")
    return render_panel(
        context,
        "outbox/_document_email.html",
        {
            "document": document,
            "form": DocumentEmailForm(),
            "parties": list(parties),
            "deliveries": list(deliveries),
            "may_see_outbox": has_role(user, Role.SMO),
        },
    )
