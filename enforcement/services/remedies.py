"""The other remedies of Chapter 132, cumulative (§ 132-19, R-REM-1): corrective
measures (R-COR-1/2), nuisance abatement (R-NUI-1), injunction referral
(R-INJ-1), suspension and termination of MS4 access (R-SUS-1/2), alternative
remedies (R-ALT-1/2), and the offense history (R-PEN-1..3)."""

import datetime as dt
from decimal import Decimal

from django.db import transaction
from django.utils import timezone

from cases.clocks import apply as apply_clocks
from cases.models import CaseKind, CaseSource, CaseStatus
from cases.services import case_open, case_run_transition
from deadlines.services import open_deadline_for
from kernel.citations import citation
from kernel.humanize import human_datetime, human_long_date
from kernel.roles import Role, require_role
from kernel.timeline import record_event
from kernel.workflow import CaseChangedError, Reason, refusal_text, run

from .. import charges
from ..document_kinds import EnforcementDocument
from ..documents.corrective import UNPAID_WORDS, access_request_measures, invoice_number
from ..models import (
    AccessSuspension,
    AccessTermination,
    AlternativeKind,
    AlternativeRemedy,
    AlternativeRemedyItem,
    CorrectiveAction,
    CorrectiveStatus,
    CostItem,
    InjunctionReferral,
    NoticeOfViolation,
    NoticeStatus,
    NuisanceAbatement,
    OffenseRecord,
    UnauthorizedReinstatement,
)
from .flow import Refused
from .notices import case_recipients

ENFORCEABLE = (CaseStatus.VIOLATION_CONFIRMED, CaseStatus.ENFORCEMENT)


def _require_smo(actor, doing="record remedies"):
    require_role(actor, Role.SMO, doing=doing)


def _require_enforceable(case):
    case.refresh_from_db()
    if case.status not in ENFORCEABLE:
        raise Refused(
            "This remedy needs a confirmed violation; the case is "
            f"“{case.get_status_display()}”."
        )


def _require_open(case):
    if case.is_closed:
        raise Refused(f"The case is closed (“{case.get_status_display()}”).")


def _not_future(errors, name, day):
    if day and day > timezone.localdate():
        errors[name] = "The date cannot be in the future."


def _enter_enforcement(case, actor):
    # Read the status afresh: the caller's copy of the case may be stale.
    if (
        type(case)
        .objects.filter(pk=case.pk, status=CaseStatus.VIOLATION_CONFIRMED)
        .exists()
    ):
        case_run_transition(case=case, transition="begin_enforcement", actor=actor)


def _created(case, actor, subject, summary, rule_id, detail=""):
    record_event(
        case=case,
        actor=actor,
        kind="enforcement",
        summary=summary,
        detail=detail,
        rule_id=rule_id,
        subject=subject,
    )
    _enter_enforcement(case, actor)


# --- corrective measures (R-COR-1, R-COR-2) -------------------------------------


def corrective_refusals(case) -> list[Reason]:
    """Why corrective measures cannot begin on `case` now, in the words of the
    case's guards (kernel.workflow.guard), each with the link that fixes it: the
    request page shows them beside its disabled button, and
    corrective_request_access refuses with them. [] when nothing stops it."""
    found = []
    for condition in (type(case).has_owner,):
        if condition(case):
            continue
        url, link_text = condition.fix(case) if condition.fix else ("", "")
        found.append(
            Reason(
                refusal_text(condition),
                rule_id=condition.rule_id,
                url=url,
                link_text=link_text,
            )
        )
    return found


def _owner_to_ask(case, owner):
    """The owner the letter is addressed to: the one chosen, which must be named
    owner on the case, or the case's only owner."""
    owners = list(case.owners())
    if owner is None:
        if len(owners) == 1:
            return owners[0]
        raise Refused.invalid({"owner": "Choose the owner the letter is addressed to."})
    if owner not in owners:
        raise Refused.invalid(
            {"owner": f"{owner.name} is not named as an owner on the case."}
        )
    return owner


@transaction.atomic
def corrective_request_access(
    *, notice, actor, request_letter_on: dt.date, owner=None
) -> CorrectiveAction:
    """Record the SMO's letter asking the owner's permission for access to abate
    or restore (§ 132-15 A), addressed to `owner` (a party named owner on the
    case; the only one if not given), with a copy to the notice's recipient when
    another person. Who: SMO. Only once the notice was not complied with (after
    its deadline, or five business days after an upholding decision), never
    while the respondent may still appeal it or an appeal of it is pending (the
    notice's guard `appeal_time_over`, R-APL-1), only for a notice that requires
    a measure the Village can take to abate the violation or restore the
    property (documents.access_request_measures), and only once the case names
    the owner. Raises Refused saying why and until when, or ValidationError."""
    _require_smo(actor)
    notice = NoticeOfViolation.objects.select_for_update().get(pk=notice.pk)
    if notice.status not in (NoticeStatus.NOT_COMPLIED, NoticeStatus.ESCALATED):
        raise Refused(
            "Corrective measures follow a notice not complied with: record the "
            f"non-compliance first (the notice is “{notice.get_status_display()}”)."
        )
    waits = NoticeOfViolation.appeal_time_over
    if not waits(notice):
        raise Refused(Reason(refusal_text(waits, notice), rule_id=waits.rule_id))
    if not access_request_measures(notice):
        raise Refused(
            f"Notice NOV-{notice.pk} requires no measure to abate the violation or "
            "restore the property (elimination (1) or abatement and restoration "
            f"(3)), so there is nothing to ask access for ({citation('R-COR-1').section})."
        )
    refusals = corrective_refusals(notice.case)
    if refusals:
        raise Refused(*refusals, lead="Not requested:")
    errors = {}
    _not_future(errors, "request_letter_on", request_letter_on)
    if errors:
        raise Refused.invalid(errors)
    action = CorrectiveAction.objects.create(
        case=notice.case,
        notice=notice,
        owner=_owner_to_ask(notice.case, owner),
        request_letter_on=request_letter_on,
        created_by=actor,
    )
    copy = action.copy_to
    _created(
        notice.case,
        actor,
        action,
        f"Corrective measures {action.pk}: owner's permission for access requested "
        f"by letter of {human_long_date(request_letter_on)} to {action.owner.name}"
        + (f", copy to {copy.name}" if copy else ""),
        "R-COR-1",
    )
    return action


@transaction.atomic
def cost_item_add(
    *, remedy, actor, description, amount: Decimal, incurred_on
) -> CostItem:
    """Itemize a cost of corrective measures or of a summary abatement. Who: SMO.
    Refused once invoiced."""
    _require_smo(actor, doing="itemize the costs of a remedy")
    remedy = type(remedy).objects.select_for_update().get(pk=remedy.pk)
    if not remedy.costs_may_change:
        raise Refused("The costs were invoiced; they can no longer change.")
    errors = {}
    if amount is None or amount <= 0:
        errors["amount"] = "The amount must be more than $0."
    _not_future(errors, "incurred_on", incurred_on)
    if errors:
        raise Refused.invalid(errors)
    link = (
        {"corrective_action": remedy}
        if isinstance(remedy, CorrectiveAction)
        else {"abatement": remedy}
    )
    item = CostItem.objects.create(
        description=description, amount=amount, incurred_on=incurred_on, **link
    )
    record_event(
        case=remedy.case,
        actor=actor,
        kind="enforcement",
        summary=f"{remedy}: cost ${amount:,.2f} — {description}",
        rule_id="R-COR-2" if isinstance(remedy, CorrectiveAction) else "R-NUI-1",
        subject=item,
    )
    return item


# --- nuisance abatement, injunction ---------------------------------------------


@transaction.atomic
def nuisance_declare(
    *, case, actor, condition_description, declared_on
) -> NuisanceAbatement:
    """Record a violating condition as a nuisance to be summarily abated at the
    violator's expense (§ 132-18). Who: SMO."""
    _require_smo(actor)
    _require_enforceable(case)
    abatement = NuisanceAbatement.objects.create(
        case=case,
        condition_description=condition_description,
        declared_on=declared_on,
        created_by=actor,
    )
    _created(
        case,
        actor,
        abatement,
        f"Nuisance abatement {abatement.pk}: condition declared a nuisance",
        "R-NUI-1",
        condition_description,
    )
    return abatement


@transaction.atomic
def injunction_refer(
    *, case, actor, kind, relief, referred_on, grounds, referred_to="Municipal Attorney"
) -> InjunctionReferral:
    """Refer the case for a petition for a preliminary or permanent injunction
    (§ 132-16). Who: SMO."""
    _require_smo(actor)
    _require_enforceable(case)
    referral = InjunctionReferral.objects.create(
        case=case,
        kind=kind,
        relief=relief,
        referred_on=referred_on,
        grounds=grounds,
        referred_to=referred_to,
        created_by=actor,
    )
    _created(
        case,
        actor,
        referral,
        f"Injunction referral {referral.pk}: {referral.get_kind_display()} — "
        f"referred to {referred_to}",
        "R-INJ-1",
        grounds,
    )
    return referral


# --- suspension and termination of MS4 access (R-SUS-1, R-SUS-2) -----------------


@transaction.atomic
def suspension_start(*, case, actor, party, suspended_at, reasons) -> AccessSuspension:
    """Record an emergency suspension of MS4 access made without prior notice
    (§ 132-9 A). Who: SMO. Opens the deadline for the written notice of reasons
    (R-SUS-1, settings.SUSPENSION_NOTICE_BUSINESS_DAYS business days)."""
    _require_smo(actor)
    _require_open(case)
    if suspended_at > timezone.now():
        raise Refused.invalid({"suspended_at": "The time cannot be in the future."})
    suspension = AccessSuspension.objects.create(
        case=case,
        party=party,
        premises=case.premises,
        suspended_at=suspended_at,
        reasons=reasons,
        created_by=actor,
    )
    _created_open(
        case,
        actor,
        suspension,
        f"MS4 access of {party.name} suspended without prior notice at "
        f"{human_datetime(suspended_at)}",
        "R-SUS-1",
        reasons,
    )
    # R-SUS-1 (settings.SUSPENSION_NOTICE_BUSINESS_DAYS): the clock table.
    apply_clocks(suspension, "start", actor=actor)
    return suspension


def _created_open(case, actor, subject, summary, rule_id, detail=""):
    record_event(
        case=case,
        actor=actor,
        kind="enforcement",
        summary=summary,
        detail=detail,
        rule_id=rule_id,
        subject=subject,
    )


@transaction.atomic
def termination_propose(*, case, actor, party, notice_on, reasons) -> AccessTermination:
    """Record the written notice of a proposed termination of MS4 access, with
    its reasons (§ 132-9 B). Who: SMO."""
    _require_smo(actor)
    _require_open(case)
    errors = {}
    _not_future(errors, "notice_on", notice_on)
    if not reasons.strip():
        errors["reasons"] = "Give the reasons for the proposed termination."
    if errors:
        raise Refused.invalid(errors)
    termination = AccessTermination.objects.create(
        case=case,
        party=party,
        premises=case.premises,
        notice_on=notice_on,
        reasons=reasons,
        created_by=actor,
    )
    _created_open(
        case,
        actor,
        termination,
        f"Termination {termination.pk}: notice of proposed termination of MS4 "
        f"access sent to {party.name} on {human_long_date(notice_on)}",
        "R-SUS-2",
        reasons,
    )
    return termination


@transaction.atomic
def termination_record_unauthorized_reinstatement(
    *, termination, actor, observed_on, description
) -> UnauthorizedReinstatement:
    """Record that access to the terminated premises was reinstated without the
    SMO's prior approval: an offense (§ 132-9 B). Opens a new case
    (CaseKind.UNAUTHORIZED_REINSTATEMENT) and adds the offense to the person's
    history. Who: SMO."""
    _require_smo(actor)
    termination = AccessTermination.objects.select_for_update().get(pk=termination.pk)
    if not termination.access_is_terminated:
        raise Refused(
            "Access is not terminated (the termination is "
            f"“{termination.get_status_display()}”), so it cannot be reinstated "
            "without approval."
        )
    errors = {}
    _not_future(errors, "observed_on", observed_on)
    if not description.strip():
        errors["description"] = "Say what was found."
    if errors:
        raise Refused.invalid(errors)
    old_case = termination.case
    new_case = case_open(
        actor=actor,
        source=CaseSource.OBSERVATION,
        summary=f"Unauthorized reinstatement of MS4 access (from {old_case.number})",
        description=description,
        kind=CaseKind.UNAUTHORIZED_REINSTATEMENT,
        premises=termination.premises,
        responsible_party=termination.party,
    )
    offense = OffenseRecord.objects.create(
        party=termination.party,
        case=new_case,
        committed_on=observed_on,
        description="Reinstated MS4 access to terminated premises without the "
        f"SMO's prior approval ({citation('R-SUS-2').section})",
        recorded_by=actor,
    )
    record = UnauthorizedReinstatement.objects.create(
        termination=termination,
        new_case=new_case,
        offense=offense,
        observed_on=observed_on,
        description=description,
        recorded_by=actor,
    )
    for case, summary in (
        (
            old_case,
            f"Unauthorized reinstatement found on {human_long_date(observed_on)}; "
            f"new case {new_case.number} opened",
        ),
        (
            new_case,
            f"Offense: MS4 access reinstated without approval, found "
            f"{human_long_date(observed_on)} (termination {termination.pk} on {old_case.number})",
        ),
    ):
        record_event(
            case=case,
            actor=actor,
            kind="enforcement",
            summary=summary,
            detail=description,
            rule_id="R-SUS-2",
            subject=record,
        )
    return record


# --- alternative remedies (R-ALT-1, R-ALT-2) -----------------------------------


@transaction.atomic
def alternative_propose(
    *,
    case,
    actor,
    party,
    violation_date,
    unintentional: bool,
    minimal_damage: bool,
    acted_quickly: bool,
    cooperated: bool,
    findings: str,
    kinds: list[tuple[str, str]],
) -> AlternativeRemedy:
    """Propose alternative remedies in lieu of a civil penalty (§ 132-17), for
    the Municipal Attorney's recommendation. Who: SMO."""
    _require_smo(actor)
    _require_enforceable(case)
    errors = {}
    if not case_recipients(case).filter(pk=party.pk).exists():
        errors["party"] = "The violator must be a party named on the case."
    if not kinds:
        errors["kinds"] = (
            f"Choose at least one remedy of {citation('R-ALT-2').section}."
        )
    for kind, _ in kinds:
        if kind not in AlternativeKind.values:
            errors["kinds"] = f"Unknown remedy {kind!r}."
    _not_future(errors, "violation_date", violation_date)
    if errors:
        raise Refused.invalid(errors)
    remedy = AlternativeRemedy.objects.create(
        case=case,
        party=party,
        violation_date=violation_date,
        unintentional=unintentional,
        minimal_damage=minimal_damage,
        acted_quickly=acted_quickly,
        cooperated=cooperated,
        findings=findings,
        created_by=actor,
    )
    for kind, details in kinds:
        AlternativeRemedyItem.objects.create(remedy=remedy, kind=kind, details=details)
    _created(
        case,
        actor,
        remedy,
        f"Alternative remedies {remedy.pk} proposed for {party.name} "
        "(awaiting the Municipal Attorney)",
        "R-ALT-1",
        findings,
    )
    return remedy


@transaction.atomic
def alternative_item_complete(
    *, item, actor, completed_on, note=""
) -> AlternativeRemedyItem:
    """Record the completion of one chosen remedy. Who: SMO; only once approved."""
    _require_smo(actor, doing="record the completion of an alternative remedy")
    item = AlternativeRemedyItem.objects.select_for_update().get(pk=item.pk)
    if not item.remedy.items_may_be_completed:
        raise Refused(
            "Remedies are completed once the Municipal Attorney has recommended "
            "them and the Building Inspector concurred."
        )
    errors = {}
    _not_future(errors, "completed_on", completed_on)
    if errors:
        raise Refused.invalid(errors)
    item.completed_on = completed_on
    item.completion_note = note
    item.save(update_fields=["completed_on", "completion_note"])
    record_event(
        case=item.remedy.case,
        actor=actor,
        kind="enforcement",
        summary=f"Alternative remedy completed: {item.get_kind_display()} on "
        f"{human_long_date(completed_on)}",
        rule_id="R-ALT-2",
        subject=item,
    )
    return item


# --- offense history (R-PEN-1..3) -------------------------------------------------


@transaction.atomic
def offense_record(
    *,
    party,
    actor,
    committed_on,
    description,
    case=None,
    court="",
    outcome=OffenseRecord.Outcome.PENDING,
    outcome_on=None,
    fine_imposed=None,
    imprisonment_days=None,
) -> OffenseRecord:
    """Add an offense to a person's history. Who: SMO."""
    _require_smo(actor)
    errors = {}
    _not_future(errors, "committed_on", committed_on)
    if outcome_on and outcome_on < committed_on:
        errors["outcome_on"] = "The court's outcome cannot precede the offense."
    if errors:
        raise Refused.invalid(errors)
    offense = OffenseRecord.objects.create(
        party=party,
        case=case,
        committed_on=committed_on,
        description=description,
        court=court,
        outcome=outcome,
        outcome_on=outcome_on,
        fine_imposed=fine_imposed,
        imprisonment_days=imprisonment_days,
        recorded_by=actor,
    )
    if case is not None:
        record_event(
            case=case,
            actor=actor,
            kind="enforcement",
            summary=f"Offense recorded for {party.name}: committed "
            f"{human_long_date(committed_on)} ({offense.get_outcome_display()})",
            rule_id="R-PEN-1",
            subject=offense,
        )
    return offense


# --- steps with what follows them ----------------------------------------------------


def _served_document(suspension):
    """The latest version issued of the written notice of reasons (R-SUS-1),
    the one the service recorded now sent; None when none was issued here."""
    from documents.selectors import latest_document

    return latest_document(suspension, EnforcementDocument.EMERGENCY_SUSPENSION)


SIGNERS = {
    "recommend": "recommended_by",
    "concur": "concurred_by",
    "decline_recommendation": "declined_by",
    "decline_concurrence": "declined_by",
}
DATE_FIELDS = (
    "response_on",
    "warrant_applied_on",
    "warrant_issued_on",
    "order_on",
    "work_completed_on",
    "invoiced_on",
    "paid_on",
    "petition_filed_on",
    "decided_on",
    "notice_sent_on",
    "lifted_on",
    "terminated_on",
    "petition_on",
)


def _day(value) -> str:
    return human_long_date(value) if value else "—"


def _signer(user) -> str:
    return user.get_full_name() or user.username if user else "—"


def _invoice_words(o, whom) -> str:
    count = o.cost_items.count()
    return (
        f"invoice {o.invoice_number} of {_day(o.invoiced_on)} for "
        f"${o.invoice_amount:,.2f} (the total of {count} itemized "
        f"cost{'s' if count != 1 else ''}) issued to {whom}"
    )


def _voided_words(o) -> str:
    return (
        f"a payment was voided; ${o.balance_due():,.2f} of invoice "
        f"{o.invoice_number} (${o.invoice_amount:,.2f}) remains due"
    )


def _payment_words(o) -> str:
    payments = charges.remedy_payments(o)
    payment = payments[-1] if payments else None
    if payment is None:
        return f"invoice {o.invoice_number} paid on {_day(o.paid_on)}"
    words = (
        f"payment of ${payment.amount:,.2f} received on {_day(payment.received_on)} "
        f"by {payment.method_words().lower()} (receipt {payment.receipt_number})"
    )
    left = o.balance_due()
    if left > 0:
        return (
            f"{words}; ${left:,.2f} of invoice {o.invoice_number} "
            f"(${o.invoice_amount:,.2f}) remains due"
        )
    return f"{words}; invoice {o.invoice_number} paid on {_day(o.paid_on)}, in full"


# What each step did, in words: the chronology's entry and the user's message.
STEP_WORDS = {
    CorrectiveAction: {
        "record_access_granted": lambda o: (
            f"the owner granted access (answer of {_day(o.response_on)})"
        ),
        "record_access_refused": lambda o: (
            f"the owner refused access (answer of {_day(o.response_on)})"
        ),
        "record_warrant": lambda o: (
            f"warrant issued by {o.warrant_court} on {_day(o.warrant_issued_on)}"
        ),
        "record_order": lambda o: (
            f"court order of {_day(o.order_on)} ({o.order_court}) recorded"
        ),
        "record_work": lambda o: (
            f"work done by {o.get_performed_by_display().lower()}"
            f"{' ' + o.performer_name if o.performer_name else ''}, completed "
            f"{_day(o.work_completed_on)}"
        ),
        "invoice": lambda o: _invoice_words(o, "the discharger"),
        "record_payment": lambda o: _payment_words(o),
        "record_part_payment": lambda o: _payment_words(o),
        "reopen_part_paid": lambda o: _voided_words(o),
        "reopen_unpaid": lambda o: _voided_words(o),
    },
    NuisanceAbatement: {
        "record_abatement": lambda o: (
            f"nuisance abated by {o.get_performed_by_display().lower()}"
            f"{' ' + o.performer_name if o.performer_name else ''}, completed "
            f"{_day(o.work_completed_on)}"
        ),
        "invoice": lambda o: _invoice_words(o, "the violator"),
        "record_payment": lambda o: _payment_words(o),
        "record_part_payment": lambda o: _payment_words(o),
        "reopen_part_paid": lambda o: _voided_words(o),
        "reopen_unpaid": lambda o: _voided_words(o),
    },
    InjunctionReferral: {
        "record_petition": lambda o: (
            f"petition filed in {o.court} on {_day(o.petition_filed_on)}"
        ),
        "record_granted": lambda o: f"injunction granted on {_day(o.decided_on)}",
        "record_denied": lambda o: f"injunction denied on {_day(o.decided_on)}",
        "withdraw": lambda o: "referral withdrawn",
    },
    AccessSuspension: {
        "record_notice": lambda o: (
            f"notice of reasons recorded as sent on {_day(o.notice_sent_on)} "
            f"({o.service_words})"
        ),
        "lift": lambda o: f"suspension lifted on {_day(o.lifted_on)}",
    },
    AccessTermination: {
        "terminate": lambda o: f"MS4 access terminated on {_day(o.terminated_on)}",
        "record_petition": lambda o: (
            f"petition for reconsideration of {_day(o.petition_on)} recorded"
        ),
        "schedule_hearing": lambda o: (
            "reconsideration hearing scheduled for "
            f"{human_datetime(o.hearing_at)}"
            f"{' at ' + o.hearing_location if o.hearing_location else ''}"
        ),
        "grant_access": lambda o: (
            f"access granted again on {_day(o.decided_on)}: the discharge has "
            "ceased and its recurrence is prevented"
        ),
        "deny_access": lambda o: f"access denied in writing on {_day(o.decided_on)}",
        "withdraw": lambda o: "proposed termination withdrawn",
    },
    AlternativeRemedy: {
        "recommend": lambda o: (
            f"recommended by the Municipal Attorney ({_signer(o.recommended_by)})"
        ),
        "decline_recommendation": lambda o: (
            f"the Municipal Attorney ({_signer(o.declined_by)}) declined to recommend"
        ),
        "concur": lambda o: (
            f"the Building Inspector ({_signer(o.concurred_by)}) concurred; the "
            "remedies may be carried out"
        ),
        "decline_concurrence": lambda o: (
            f"the Building Inspector ({_signer(o.declined_by)}) declined to concur"
        ),
        "complete": lambda o: f"completed on {_day(o.completed_on)}",
    },
}

NOUNS = {
    CorrectiveAction: "Corrective measures",
    NuisanceAbatement: "Nuisance abatement",
    InjunctionReferral: "Injunction referral",
    AccessSuspension: "Suspension",
    AccessTermination: "Termination",
    AlternativeRemedy: "Alternative remedies",
}


def step_words(obj, transition: str) -> str:
    """What step `transition` did to `obj` (as saved), in a sentence:
    "Suspension 3: notice of reasons recorded as sent on Thu 2026-04-02 (mail)"."""
    words = STEP_WORDS.get(type(obj), {}).get(transition)
    what = words(obj) if words else transition.replace("_", " ")
    return f"{NOUNS.get(type(obj), obj._meta.verbose_name)} {obj.pk}: {what}"


def created_words(remedy) -> str:
    """What starting a remedy did, for the user's message."""
    noun = f"{NOUNS[type(remedy)]} {remedy.pk}"
    if isinstance(remedy, AccessSuspension):
        deadline = open_deadline_for(remedy, "R-SUS-1")
        due = (
            f"; the written notice of reasons is due by {_day(deadline.due_date)}"
            if deadline is not None
            else ""
        )
        return (
            f"{noun}: MS4 access of {remedy.party.name} suspended{due}. Issue "
            "the written notice of reasons from this page, then record how and "
            "when it was sent."
        )
    if isinstance(remedy, AccessTermination):
        return (
            f"{noun}: notice of the proposed termination of {remedy.party.name}'s "
            f"MS4 access recorded as sent on {_day(remedy.notice_on)}."
        )
    if isinstance(remedy, CorrectiveAction):
        return (
            f"{noun}: owner's permission for access requested by the letter of "
            f"{_day(remedy.request_letter_on)}."
        )
    if isinstance(remedy, NuisanceAbatement):
        return f"{noun}: condition declared a nuisance on {_day(remedy.declared_on)}."
    if isinstance(remedy, InjunctionReferral):
        return (
            f"{noun}: {remedy.get_kind_display().lower()} referred to "
            f"{remedy.referred_to} on {_day(remedy.referred_on)}."
        )
    return (
        f"{noun} proposed for {remedy.party.name}; awaiting the Municipal "
        "Attorney's recommendation."
    )


def remedy_step(*, obj, transition, actor, expected_status=None, **fields):
    """Run one step of a remedy workflow (corrective measures, abatement,
    injunction, suspension, termination, alternative remedies) with what the
    user recorded (kernel.workflow.run). Who: the transition's role (SMO; the
    Municipal Attorney and the Building Inspector for their sign-offs). Raises
    Refused with the reasons, ValidationError for a date in the future."""
    if transition == "record_payment":
        return remedy_payment_record(
            remedy=obj, actor=actor, expected_status=expected_status, **fields
        )
    errors = {}
    for name in DATE_FIELDS:
        _not_future(errors, name, fields.get(name))
    if errors:
        raise Refused.invalid(errors)
    if transition == "invoice":
        return remedy_invoice(remedy=obj, actor=actor, expected_status=expected_status)
    if transition in SIGNERS:
        fields[SIGNERS[transition]] = actor

    seen = {}

    def before(locked):
        seen["record"] = locked  # the copy that is fired and saved
        if transition == "recommend":
            locked.history_at_recommendation = locked.criteria()[1][2]
        if transition == "record_notice":
            locked.notice_document = _served_document(locked)

    detail = "; ".join(
        f"{k.replace('_', ' ')}: {v}"
        for k, v in fields.items()
        if v not in (None, "") and not k.endswith("_by")
    )
    return run(
        obj,
        transition,
        actor=actor,
        fields=fields,
        expected_status=expected_status,
        event_kind="enforcement",
        detail=detail,
        summary=lambda label, was, now: step_words(seen["record"], transition),
        before=before,
    )


# --- the invoice of the costs and its payment (R-COR-2, R-NUI-1) -----------------


def remedy_invoice(*, remedy, actor, expected_status=None):
    """Invoice the costs of corrective measures or of a summary abatement: the
    office numbers the invoice (documents.invoice_number), its amount is the
    total of the itemized costs, it is dated today, and its document is issued
    in the same transaction (nothing is saved if the document cannot be made).
    Who: SMO. Raises Refused (no costs itemized, wrong state, role),
    FactsInvalid, DocumentError."""
    from documents.services import issue_for

    seen = {}

    def before(locked):
        seen["record"] = locked
        locked.invoice_number = invoice_number(locked)
        locked.invoice_amount = locked.total_cost()
        locked.invoiced_on = timezone.localdate()

    def after(locked):
        # The invoice is a charge on the ledger (issue 27) before its document
        # is made.
        charges.remedy_invoiced(locked, actor)
        issue_for(
            kind=EnforcementDocument.CORRECTIVE_INVOICE, source=locked, actor=actor
        )

    return run(
        remedy,
        "invoice",
        actor=actor,
        expected_status=expected_status,
        event_kind="enforcement",
        detail=UNPAID_WORDS,
        summary=lambda label, was, now: step_words(seen["record"], "invoice"),
        before=before,
        after=after,
    )


def remedy_payment_record(
    *,
    remedy,
    actor,
    paid_on: dt.date | None = None,
    amount: Decimal | None = None,
    method: str = "",
    reference: str = "",
    receipt_number: str = "",
    expected_status=None,
):
    """Record one payment against a remedy's invoice: a payment on the ledger
    against the invoice's charge (issue 27; `reference` is the check number),
    which then moves the invoice to partly paid or paid (remedy_follow_ledger).
    Who: SMO. Raises ValidationError (a date in the future or before the
    invoice, an amount of $0 or more than what remains, no method), Refused (not
    invoiced, role), CaseChangedError."""
    _require_smo(actor, doing="record payments")
    remedy.refresh_from_db()
    if expected_status is not None and remedy.status != expected_status:
        raise CaseChangedError(record=remedy)
    if remedy.invoice_amount is None:
        raise Refused("Issue the invoice before recording a payment.")
    charges.remedy_payment(
        remedy,
        actor,
        received_on=paid_on,
        amount=amount,
        method=method,
        check_number=reference,
        receipt_number=receipt_number,
    )
    remedy.refresh_from_db()
    return remedy


def remedy_follow_ledger(*, remedy, actor, paid_on: dt.date | None = None):
    """Move a remedy's invoice to what its charge on the ledger says: paid in
    full (dated `paid_on`), partly paid, or unpaid again after a payment was
    voided (R-COR-2, R-NUI-1). Called by the ledger's services in their
    transaction, never by a person. Returns the remedy."""
    remedy = type(remedy).objects.get(pk=remedy.pk)
    if remedy.invoice_amount is None:
        return remedy
    paid, status = remedy.amount_paid(), remedy.status
    fields = {}
    if paid >= remedy.invoice_amount:
        name, target = "record_payment", "paid"
        fields["paid_on"] = paid_on or remedy.paid_on or timezone.localdate()
    elif paid > 0:
        target = "partly_paid"
        name = "reopen_part_paid" if status == "paid" else "record_part_payment"
    else:
        name, target = "reopen_unpaid", "invoiced"
    if status == target:
        return remedy
    seen = {}

    def before(locked):
        seen["record"] = locked

    return run(
        remedy,
        name,
        actor=actor,
        fields=fields,
        event_kind="enforcement",
        summary=lambda label, was, now: step_words(seen["record"], name),
        before=before,
    )


__all__ = [
    "CorrectiveStatus",
    "alternative_item_complete",
    "alternative_propose",
    "created_words",
    "corrective_request_access",
    "cost_item_add",
    "injunction_refer",
    "nuisance_declare",
    "offense_record",
    "remedy_invoice",
    "remedy_follow_ledger",
    "remedy_payment_record",
    "remedy_step",
    "step_words",
    "suspension_start",
    "termination_propose",
    "termination_record_unauthorized_reinstatement",
]
