"""The SMO's side of the respondent's page: issue, revoke and replace a party's
access code from the case page."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect
from django.views.decorators.http import require_POST

from cases.models import Case, Party
from kernel.actions import attempt
from kernel.uploads import display_response
from kernel.workflow import Refused

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
    access = attempt(
        request,
        None,
        lambda: services.portal_issue(
            case=case,
            party=party,
            actor=request.user,
            reason=request.POST.get("reason", "").strip(),
        ),
    )
    if access is not None:
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
    revoked = attempt(
        request,
        None,
        lambda: services.portal_revoke(
            access=access, actor=request.user, reason=request.POST.get("reason", "")
        ),
    )
    if revoked is not None:
        messages.success(
            request,
            f"The access code ending …{access.code[-4:]} of {access.party.name} is "
            "revoked: it opens nothing now. Issue a new one when they should have "
            "their page again.",
        )
    return _back(case)


def _decide(request, case, decision, decisions):
    """Run the SMO's `decision` (one of `decisions`: name → a call that returns
    what it did in words) and say the outcome or the refusal; back to the case."""
    call = decisions.get(decision)
    if call is None:
        raise Http404("No such decision.")
    words = attempt(request, None, call)
    if words is not None:
        messages.success(request, words)
    return _back(case)


@login_required
@require_POST
def contact_decide(request, number, pk, decision):
    """Confirm (the party's details change) or decline (with a reason the
    respondent reads) a change of contact details sent from their page."""
    from .models import ContactChangeRequest

    case = get_object_or_404(Case, number=number)
    change = get_object_or_404(ContactChangeRequest, pk=pk, access__case=case)
    party = change.access.party.name

    def confirm():
        services.contact_request_confirm(request=change, actor=request.user)
        return (
            f"The contact details of {party} are changed as they asked; the next "
            "letter goes to the new address."
        )

    def decline():
        services.contact_request_decline(
            request=change, actor=request.user, reason=request.POST.get("reason", "")
        )
        return f"The change asked by {party} is declined; their page shows your reason."

    return _decide(request, case, decision, {"confirm": confirm, "decline": decline})


@login_required
@require_POST
def correction_decide(request, number, pk, decision):
    """Accept (optionally recording the notice complied, through its state
    machine) or reject (with a reason the respondent reads) a proof of
    correction sent from the respondent's page."""
    from django.utils.dateparse import parse_date

    from . import corrections
    from .models import CorrectionSubmission

    case = get_object_or_404(Case, number=number)
    submission = get_object_or_404(CorrectionSubmission, pk=pk, access__case=case)
    party, notice = submission.access.party.name, f"NOV-{submission.notice_id}"

    def accept():
        record = bool(request.POST.get("record_compliance"))
        typed = request.POST.get("complied_on", "").strip()
        try:
            complied_on = parse_date(typed) if typed else None
        except ValueError:
            complied_on = None
        if record and typed and complied_on is None:
            raise Refused.invalid("The date complied is not a date (YYYY-MM-DD).")
        corrections.correction_accept(
            submission=submission,
            actor=request.user,
            record_compliance=record,
            complied_on=complied_on,
        )
        if record:
            return f"The proof sent by {party} is accepted; notice {notice} is recorded complied."
        return (
            f"The proof sent by {party} is accepted. Record notice {notice} complied "
            "from its page when the work is verified."
        )

    def reject():
        corrections.correction_reject(
            submission=submission,
            actor=request.user,
            reason=request.POST.get("reason", ""),
        )
        return (
            f"The proof sent by {party} is not accepted; their page shows your "
            "reason, and the notice's dates run on."
        )

    return _decide(request, case, decision, {"accept": accept, "reject": reject})


@login_required
def correction_file(request, pk, which):
    """A file of a proof of correction, for staff who may read cases: a photo's
    re-encoded copy (no metadata) shown inline, a PDF as a download. A photo's
    original (with its GPS and camera data) is the SMO's only, by the rule of
    report photos (roles.may_read_originals)."""
    from django.core.exceptions import PermissionDenied
    from django.http import FileResponse, Http404

    from kernel.roles import CASE_READERS, has_role, may_read_originals

    from .models import CorrectionFile

    if not has_role(request.user, *CASE_READERS):
        raise Http404("No such file")
    stored = get_object_or_404(CorrectionFile, pk=pk)
    if which == "original" and stored.is_photo and not may_read_originals(request.user):
        raise PermissionDenied("A photo's original is the SMO's only.")
    if which == "display" and stored.is_photo:
        response = display_response(stored)
    elif which == "original":
        response = FileResponse(
            stored.original.open("rb"),
            as_attachment=True,
            filename=stored.original_name,
            content_type="application/octet-stream"
            if stored.is_photo
            else "application/pdf",
        )
    else:
        raise Http404("No such file")
    response["Cache-Control"] = "private, no-store"
    return response
