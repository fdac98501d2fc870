"""Writing the case timeline. Call inside the transaction of the change recorded."""

from django.contrib.contenttypes.models import ContentType
from django.db import transaction

from .models import CaseEvent
from .roles import acting_delegation


def record_event(
    *,
    case,
    actor,
    premises=None,
    kind: str,
    summary: str,
    detail: str = "",
    rule_id: str = "",
    from_status: str = "",
    to_status: str = "",
    subject=None,
    public: bool = False,
    at=None,
    by: str = CaseEvent.ActorKind.SYSTEM,
) -> CaseEvent:
    """Append one event to the chronology of `case` and/or `premises` (either
    may be None: field work without a case is on the premises' record).

    `actor` is the signed-in user, or None for the system or a resident; then
    `by` says which (`CaseEvent.ActorKind`: the respondent on their own page, a
    member of the public, or the system, the default). `subject`
    is the record the event is about (a report, notice, deadline…). Must run in
    the caller's transaction so the event and the change land together."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("record_event must run inside transaction.atomic()")
    # Done by a delegate acting for the SMO (R-ADM-1): the entry names the
    # delegation, and says so in its words.
    staff = getattr(actor, "is_authenticated", False)
    delegation = acting_delegation(actor)
    if delegation is not None:
        tail = f" — {delegation.acting_words()}"
        summary = summary[: max(0, 300 - len(tail))] + tail
    event = CaseEvent(
        delegation=delegation,
        case=case,
        premises_id=premises.pk
        if premises is not None
        else getattr(case, "premises_id", None),
        actor=actor if staff else None,
        actor_kind=CaseEvent.ActorKind.STAFF if staff else by,
        kind=kind,
        summary=summary[:300],
        detail=detail,
        rule_id=rule_id,
        from_status=from_status,
        to_status=to_status,
        public=public,
    )
    if at is not None:
        event.at = at
    if subject is not None:
        event.content_type = ContentType.objects.get_for_model(subject)
        event.object_id = subject.pk
    event.save()
    return event


def record_portal_event(access, address: str, what: str, *, subject=None, detail=""):
    """One entry of the case's chronology for a respondent's own step, with the
    address it came from (the time is the entry's own)."""
    return record_event(
        case=access.case,
        actor=None,
        by=CaseEvent.ActorKind.RESPONDENT,
        kind="portal",
        summary=f"{access.party.name} {what} (from {address or 'an unknown address'})"[
            :300
        ],
        detail=detail,
        subject=subject or access,
    )
