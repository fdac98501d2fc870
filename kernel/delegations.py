"""The SMO's written delegations (§ 132-5, R-ADM-1): recording one and ending
one early. Each write is one transaction with its chronology entry (the
delegation as its subject). Who: the SMO in person (kernel.roles.may_delegate),
never a delegate acting for the SMO."""

import datetime as dt

from django.db import transaction
from django.utils import timezone

from .humanize import human_date
from .models import Delegation
from .roles import is_staff_member, may_delegate
from .timeline import record_event
from .workflow import Refused


def _require_smo_in_person(actor, doing):
    if not may_delegate(actor):
        raise Refused(
            f"Only the Stormwater Management Officer in person may {doing}; a "
            "delegate acting for the SMO may not."
        )


def _span(delegation) -> str:
    end = human_date(delegation.ends_on) if delegation.ends_on else "until ended"
    return f"{human_date(delegation.starts_on)} – {end}"


@transaction.atomic
def delegation_grant(
    *,
    actor,
    delegate,
    powers: str,
    starts_on: dt.date,
    ends_on: dt.date | None,
    instrument: str,
) -> Delegation:
    """Record a written delegation of the SMO's powers to `delegate` from
    `starts_on` to `ends_on` (open-ended when None). Who: the SMO in person.
    Raises Refused (role), ValidationError (dates, a delegate who is not staff,
    the SMO themselves, missing powers or instrument)."""
    _require_smo_in_person(actor, "delegate the SMO's powers")
    errors = {}
    if not powers.strip():
        errors["powers"] = "Say which powers or duties are delegated."
    if not instrument.strip():
        errors["instrument"] = "Name the written instrument (letter, resolution)."
    if ends_on is not None and starts_on and ends_on < starts_on:
        errors["ends_on"] = "The end cannot be before the start."
    if delegate is not None and delegate.pk == actor.pk:
        errors["delegate"] = "The SMO does not delegate to themselves."
    elif delegate is not None and not (
        delegate.is_active and is_staff_member(delegate)
    ):
        errors["delegate"] = "The delegate must be an active member of staff."
    if errors:
        raise Refused.invalid(errors)
    delegation = Delegation.objects.create(
        delegate=delegate,
        powers=powers.strip(),
        starts_on=starts_on,
        ends_on=ends_on,
        instrument=instrument.strip(),
        granted_by=actor,
    )
    record_event(
        case=None,
        actor=actor,
        kind="edit",
        summary=(
            f"Delegation of the SMO's powers to {_name(delegate)}, "
            f"{_span(delegation)} ({delegation.instrument})"
        ),
        detail=delegation.powers,
        rule_id="R-ADM-1",
        subject=delegation,
    )
    return delegation


@transaction.atomic
def delegation_end(*, delegation, actor, ends_on: dt.date) -> Delegation:
    """End a delegation early: its last day becomes `ends_on` (not before its
    start, not later than its end, not before today — a past day cannot be
    taken back). Who: the SMO in person. Raises Refused, ValidationError."""
    _require_smo_in_person(actor, "end a delegation")
    delegation = Delegation.objects.select_for_update().get(pk=delegation.pk)
    today = timezone.localdate()
    if delegation.ends_on is not None and delegation.ends_on < today:
        raise Refused("This delegation has already ended.")
    errors = {}
    if ends_on is None:
        errors["ends_on"] = "Give the last day of the delegation."
    elif ends_on < delegation.starts_on:
        errors["ends_on"] = "The end cannot be before the start."
    elif ends_on < today:
        errors["ends_on"] = "A delegation cannot be ended in the past."
    elif delegation.ends_on is not None and ends_on >= delegation.ends_on:
        errors["ends_on"] = (
            f"To end it early, give a day before {human_date(delegation.ends_on)}."
        )
    if errors:
        raise Refused.invalid(errors)
    delegation.ends_on = ends_on
    delegation.ended_by = actor
    delegation.ended_at = timezone.now()
    delegation.save(update_fields=["ends_on", "ended_by", "ended_at"])
    record_event(
        case=None,
        actor=actor,
        kind="edit",
        summary=(
            f"Delegation to {_name(delegation.delegate)} of "
            f"{human_date(delegation.starts_on)} ended early: last day "
            f"{human_date(ends_on)}"
        ),
        rule_id="R-ADM-1",
        subject=delegation,
    )
    return delegation


def _name(user) -> str:
    return user.get_full_name() or user.get_username()
