"""Issuing, revoking and using access codes (issue 18). Every step is an entry
of the case's chronology with the time and, for the respondent's own steps,
the address it came from."""

from __future__ import annotations

import logging

from django.db import IntegrityError, transaction
from django.utils import timezone

from kernel.roles import Role, require_role
from kernel.timeline import record_event, record_portal_event
from kernel.workflow import Refused, run

from . import codes
from .models import PortalAccess

log = logging.getLogger("poquott.portal")


def live_access(case, party) -> PortalAccess | None:
    return PortalAccess.objects.filter(
        case=case, party=party, revoked_at__isnull=True
    ).first()


def _create(case, party, actor, why: str) -> PortalAccess:
    for _ in range(5):  # a clash of random codes is all but impossible; retry
        try:
            with transaction.atomic():
                access = PortalAccess.objects.create(
                    case=case,
                    party=party,
                    code=codes.new_code(),
                    issued_by=actor
                    if getattr(actor, "is_authenticated", False)
                    else None,
                )
        except IntegrityError:
            if live_access(case, party) is not None:
                raise
            continue
        record_event(
            case=case,
            actor=actor,
            kind="portal",
            summary=f"Access code ending …{access.code[-4:]} of the respondent's page "
            f"issued to {party.name} ({why})",
            subject=access,
        )
        return access
    raise RuntimeError("could not draw a new access code")


@transaction.atomic
def code_for_document(*, case, party, actor) -> PortalAccess:
    """The party's live code on the case, issued now if it has none: what a
    document addressed to the party prints. Who: whoever may issue the document."""
    access = live_access(case, party)
    if access is not None:
        return access
    return _create(case, party, actor, "printed on a document")


@transaction.atomic
def portal_issue(*, case, party, actor, reason: str = "") -> PortalAccess:
    """A new code for the party (the SMO): the live one, if any, is revoked with
    `reason`. The next document addressed to the party prints the new one."""
    require_role(actor, Role.SMO, doing="issue access codes")
    from cases.models import Party

    if not _named_on(case, party):
        raise Refused(f"{party.name} is not a party named on case {case.number}.")
    Party.objects.select_for_update().get(pk=party.pk)  # one issuer at a time
    old = live_access(case, party)
    if old is not None:
        _revoke(old, actor, reason or "replaced by a new code")
    return _create(case, party, actor, "a new code" if old else "issued by the SMO")


@transaction.atomic
def portal_revoke(*, access, actor, reason: str) -> PortalAccess:
    """Revoke a code (the SMO): it opens nothing any more, and a session opened
    with it ends at its next page."""
    require_role(actor, Role.SMO, doing="revoke access codes")
    if not reason.strip():
        raise Refused("Say why the code is revoked (it is kept on the case).")
    access = PortalAccess.objects.select_for_update().get(pk=access.pk)
    if access.revoked_at is not None:
        raise Refused("This code was revoked already.")
    _revoke(access, actor, reason)
    return access


def _revoke(access, actor, reason):
    access.revoked_at = timezone.now()
    access.revoked_by = actor
    access.revoked_reason = reason.strip()
    access.save(update_fields=["revoked_at", "revoked_by", "revoked_reason"])
    record_event(
        case=access.case,
        actor=actor,
        kind="portal",
        summary=f"Access code ending …{access.code[-4:]} of {access.party.name} "
        f"revoked: {access.revoked_reason}"[:300],
        subject=access,
    )


def _named_on(case, party) -> bool:
    from enforcement.services.notices import case_recipients

    return case_recipients(case).filter(pk=party.pk).exists()


@transaction.atomic
def portal_open(*, code: str, address: str) -> PortalAccess | None:
    """The live access the typed `code` opens, or None — the same None for no
    such code, a revoked one or a malformed one (the caller says one thing)."""
    code = codes.normalize(code)
    if not codes.is_well_formed(code):
        return None
    access = (
        PortalAccess.objects.select_for_update()
        .select_related("case", "party")
        .filter(code=code, revoked_at__isnull=True)
        .first()
    )
    if access is None:
        return None
    now = timezone.now()
    access.first_used_at = access.first_used_at or now
    access.last_used_at = now
    access.last_used_from = address or None
    access.save(update_fields=["first_used_at", "last_used_at", "last_used_from"])
    record_portal_event(access, address, "opened the respondent's page with the code")
    return access


def log_wrong_code(code: str, address: str) -> None:
    """A wrong code in the log: the address and the first characters only."""
    log.warning(
        "wrong access code on the respondent's page from %s (starting %r)",
        address,
        codes.prefix_of(codes.normalize(code)),
    )


# --- the respondent's contact details: a request the SMO confirms -------------


@transaction.atomic
def contact_request_submit(
    *, access, address: str, mailing_address="", email="", phone=""
):
    """New contact details from the respondent's page, kept as a request:
    notices go to the address of record until the SMO confirms the change.
    Raises ValidationError when nothing is given or the e-mail is not one."""
    from django.core.exceptions import ValidationError
    from django.core.validators import validate_email

    from .models import ContactChangeRequest

    values = {
        "mailing_address": (mailing_address or "").strip()[:1000],
        "email": (email or "").strip()[:254],
        "phone": (phone or "").strip()[:40],
    }
    if not any(values.values()):
        raise Refused.invalid(
            "Give at least one new detail: address, e-mail or telephone."
        )
    if values["email"]:
        try:
            validate_email(values["email"])
        except ValidationError:
            raise Refused.invalid({"email": "That is not an e-mail address."}) from None
    request = ContactChangeRequest.objects.create(
        access=access, submitted_from=address or None, **values
    )
    record_portal_event(
        access,
        address,
        "asked to change their contact details (for the SMO to confirm)",
        subject=request,
        detail="\n".join(
            f"{k.replace('_', ' ')}: {v}" for k, v in request.changes().items()
        ),
    )
    return request


def _contact_decide(request, name, *, actor, reason="", summary=None, after=None):
    """The SMO's decision on a change of contact details, through the kernel
    (kernel.workflow.run). Refused when it was dealt with already."""
    from .models import ContactChangeRequest, ContactChangeStatus

    try:
        return run(
            request,
            name,
            actor=actor,
            fields={
                "decided_by": actor,
                "decided_at": timezone.now(),
                "reason": reason,
            },
            event_kind="portal",
            summary=summary,
            after=after,
        )
    except Refused:
        current = ContactChangeRequest.objects.get(pk=request.pk)
        if current.status != ContactChangeStatus.PENDING:
            raise Refused("This request was dealt with already.") from None
        raise


@transaction.atomic
def contact_request_confirm(*, request, actor):
    """The SMO confirms: the party's details change (cases.services
    party_update_details, with the party's history), the request is closed."""
    from cases.services import party_update_details

    require_role(actor, Role.SMO, doing="confirm contact details")

    def update_party(locked):
        party_update_details(
            case=locked.access.case,
            party=locked.access.party,
            actor=actor,
            **locked.changes(),
        )

    return _contact_decide(
        request,
        "confirm",
        actor=actor,
        summary=lambda label, was, now: (
            f"Change of contact details asked by {request.access.party.name} confirmed"
        )[:300],
        after=update_party,
    )


@transaction.atomic
def contact_request_decline(*, request, actor, reason: str):
    require_role(actor, Role.SMO, doing="decline contact details")
    reason = (reason or "").strip()
    if not reason:  # the step's guard says the same; here in the page's words
        raise Refused("Say why the change is declined; the respondent reads it.")
    return _contact_decide(
        request,
        "decline",
        actor=actor,
        reason=reason,
        summary=lambda label, was, now: (
            f"Change of contact details asked by {request.access.party.name} "
            f"declined: {reason}"
        )[:300],
    )


# --- e-mail reminders of the party's own dates ---------------------------------


@transaction.atomic
def reminders_set(*, access, address: str, email: str) -> PortalAccess:
    """Turn the party's e-mail reminders on (an address) or off (blank). The
    deadline sweep (deadlines.reminders) sends them, once per deadline and
    step of REMINDER_BUSINESS_DAYS_BEFORE, through the outbox."""
    from django.core.exceptions import ValidationError
    from django.core.validators import validate_email

    email = (email or "").strip()
    if email:
        try:
            validate_email(email)
        except ValidationError:
            raise Refused.invalid({"email": "That is not an e-mail address."}) from None
    access = PortalAccess.objects.select_for_update().get(pk=access.pk)
    access.reminder_email = email
    access.reminders_since = timezone.now() if email else None
    access.save(update_fields=["reminder_email", "reminders_since"])
    record_portal_event(
        access,
        address,
        f"asked for e-mail reminders of their dates at {email}"
        if email
        else "turned off e-mail reminders of their dates",
    )
    return access


def reminder_email_for(deadline) -> str:
    """The e-mail the party asked reminders at, for a deadline of their own on a
    notice addressed to them ("" when none)."""
    return reminder_emails_for([deadline]).get(deadline.pk, "")


def reminder_emails_for(deadlines) -> dict[int, str]:
    """reminder_email_for of many deadlines at once (the reminder sweep): deadline
    id -> the address asked for, only for those that have one. Two queries,
    whatever the number of deadlines."""
    from django.contrib.contenttypes.models import ContentType

    from enforcement.models import NoticeOfViolation

    notice_type = ContentType.objects.get_for_model(NoticeOfViolation).pk
    on_notices = [
        d for d in deadlines if d.case_id and d.content_type_id == notice_type
    ]
    if not on_notices:
        return {}
    party_of = dict(
        NoticeOfViolation.objects.filter(
            pk__in={d.object_id for d in on_notices}
        ).values_list("pk", "recipient_id")
    )
    wanted = {
        (d.case_id, party_of[d.object_id])
        for d in on_notices
        if party_of.get(d.object_id) is not None
    }
    if not wanted:
        return {}
    live = (
        PortalAccess.objects.filter(
            case_id__in={case_id for case_id, _ in wanted},
            party_id__in={party_id for _, party_id in wanted},
            revoked_at__isnull=True,
        )
        .exclude(reminder_email="")
        .values_list("case_id", "party_id", "reminder_email")
    )
    asked = {(case_id, party_id): email for case_id, party_id, email in live}
    out = {}
    for d in on_notices:
        email = asked.get((d.case_id, party_of.get(d.object_id)))
        if email:
            out[d.pk] = email
    return out
