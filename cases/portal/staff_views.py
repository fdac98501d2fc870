"""The SMO's side of the respondent's page: issue, revoke and replace a party's
access code from the case page."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect
from django.views.decorators.http import require_POST

from ..models import Case, Party
from ..workflow import Refused
from . import services
from .models import PortalAccess


def _back(case):
    return redirect(services_url(case))


def services_url(case) -> str:
    from django.urls import reverse

    return reverse("cases:detail", args=[case.number]) + "#portal-h"


@login_required
@require_POST
def issue(request, number, party_pk):
    case = get_object_or_404(Case, number=number)
    party = get_object_or_404(Party, pk=party_pk)
    try:
        access = services.portal_issue(
            case=case,
            party=party,
            actor=request.user,
            reason=request.POST.get("reason", "").strip(),
        )
    except Refused as exc:
        messages.error(request, str(exc))
    else:
        messages.success(
            request,
            f"New access code {access.printed} issued to {party.name}; the next "
            "document addressed to them prints it, and any earlier code no longer "
            "opens their page.",
        )
    return _back(case)


@login_required
@require_POST
def revoke(request, number, pk):
    case = get_object_or_404(Case, number=number)
    access = get_object_or_404(PortalAccess, pk=pk, case=case)
    try:
        services.portal_revoke(
            access=access, actor=request.user, reason=request.POST.get("reason", "")
        )
    except Refused as exc:
        messages.error(request, str(exc))
    else:
        messages.success(
            request,
            f"The access code ending …{access.code[-4:]} of {access.party.name} is "
            "revoked: it opens nothing now. Issue a new one when they should have "
            "their page again.",
        )
    return _back(case)


@login_required
@require_POST
def contact_decide(request, number, pk, decision):
    """Confirm (the party's details change) or decline (with a reason the
    respondent reads) a change of contact details sent from their page."""
    from .models import ContactChangeRequest

    case = get_object_or_404(Case, number=number)
    change = get_object_or_404(ContactChangeRequest, pk=pk, access__case=case)
    try:
        if decision == "confirm":
            services.contact_request_confirm(request=change, actor=request.user)
            words = (
                f"The contact details of {change.access.party.name} are changed as "
                "they asked; the next letter goes to the new address."
            )
        elif decision == "decline":
            services.contact_request_decline(
                request=change,
                actor=request.user,
                reason=request.POST.get("reason", ""),
            )
            words = (
                f"The change asked by {change.access.party.name} is declined; their "
                "page shows your reason."
            )
        else:
            raise Refused("No such decision.")
    except Refused as exc:
        messages.error(request, str(exc))
    except ValidationError as exc:
        messages.error(request, " ".join(exc.messages))
    else:
        messages.success(request, words)
    return _back(case)
