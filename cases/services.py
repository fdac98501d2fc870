"""Writes to cases. Every status change goes through `case_run_transition`, which
locks the row, runs the FSM transition, saves and writes the timeline event in one
transaction. Views call these; nothing else changes a case's status."""

from django.db import transaction
from django.utils import timezone
from django_fsm import ConcurrentTransition, TransitionNotAllowed, has_transition_perm

from .models import Case, CaseNumberSequence, CaseStatus
from .timeline import record_event


class CaseChangedError(Exception):
    """Someone else changed the case since the user loaded it."""

    message = "This case was changed by someone else. Review it and try again."


class TransitionRefused(Exception):
    """The transition is not allowed now; `str()` says why."""


def next_case_number(year: int) -> str:
    """MS4-<year>-<nnnn>, numbered per year; takes a row lock on the year's counter."""
    CaseNumberSequence.objects.get_or_create(year=year)
    seq = CaseNumberSequence.objects.select_for_update().get(year=year)
    seq.last += 1
    seq.save(update_fields=["last"])
    return f"MS4-{year}-{seq.last:04d}"


@transaction.atomic
def case_open(*, actor, source: str, summary: str, **fields) -> Case:
    """Open a case (status "Awaiting triage"). Who: SMO staff, or the system."""
    pollutants = fields.pop("pollutant_categories", None)
    opened_at = fields.pop("opened_at", None) or timezone.now()
    case = Case(
        number=next_case_number(timezone.localtime(opened_at).year),
        source=source,
        summary=summary,
        opened_at=opened_at,
        opened_by=actor if getattr(actor, "is_authenticated", False) else None,
        **fields,
    )
    case.save()
    if pollutants:
        case.pollutant_categories.set(pollutants)
    record_event(
        case=case,
        actor=actor,
        kind="opened",
        summary=f"Case opened ({case.get_source_display()}): {summary}",
        to_status=case.status,
        rule_id=case.rule_id,
        public=True,
    )
    return case


def available_transitions(case: Case, user):
    """The transitions `user` may fire on `case` now (for buttons): FSM-derived."""
    return [
        t
        for t in case.get_available_user_status_transitions(user)
        if not t.custom.get("hidden")
    ]


def case_run_transition(
    *,
    case: Case,
    transition: str,
    actor,
    reason: str = "",
    expected_status: str | None = None,
    public: bool = False,
    **fields,
) -> Case:
    """Fire `transition` on `case` for `actor`, first setting `fields` on the case.

    Locks the row; `expected_status` (the status the user saw) guards against a
    concurrent change. Raises CaseChangedError or TransitionRefused; on either,
    nothing is saved."""
    try:
        with transaction.atomic():
            locked = Case.objects.select_for_update().get(pk=case.pk)
            if expected_status is not None and locked.status != expected_status:
                raise CaseChangedError(CaseChangedError.message)
            method = getattr(locked, transition, None)
            if method is None or not hasattr(method, "_django_fsm"):
                raise TransitionRefused(f"Unknown action {transition!r}.")
            for name, value in fields.items():
                setattr(locked, name, value)
            if not has_transition_perm(method, actor):
                raise TransitionRefused(_why_refused(locked, method, actor))
            from_status = locked.status
            method()
            locked.save()
            meta = method._django_fsm.get_transition(from_status)
            label = meta.custom.get("label", transition)
            record_event(
                case=locked,
                actor=actor,
                kind="transition",
                summary=f"{label}: {CaseStatus(from_status).label} → "
                f"{CaseStatus(locked.status).label}",
                detail=reason,
                from_status=from_status,
                to_status=locked.status,
                rule_id=meta.custom.get("rule_id", ""),
                public=public,
            )
    except ConcurrentTransition as exc:
        raise CaseChangedError(CaseChangedError.message) from exc
    except TransitionNotAllowed as exc:
        raise TransitionRefused(str(exc)) from exc
    case.refresh_from_db()
    return case


def _why_refused(case: Case, method, user) -> str:
    meta = method._django_fsm
    if not meta.has_transition(case.status):
        return (
            f"That action is not possible while the case is "
            f"“{CaseStatus(case.status).label}”."
        )
    transition = meta.get_transition(case.status)
    if not transition.has_perm(case, user):
        return "Your role does not allow that action."
    failed = [c for c in transition.conditions if not c(case)]
    names = {
        "has_responsible_party": "name the responsible party first",
        "has_elimination_record": "record the date the discharge was eliminated "
        "and how it was verified",
        "has_valid_exemption": "give an exemption that applies (a category marked "
        "a substantial contributor no longer exempts)",
        "has_merge_target": "choose the case to merge into",
        "has_referral": "name the agency referred to",
        "has_closing_reason": "give the reasons",
    }
    reasons = [names.get(c.__name__, c.__name__) for c in failed]
    return "Not yet: " + "; ".join(reasons) + "." if reasons else "Not allowed now."
