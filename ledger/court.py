"""The Justice Court (issue 27): a charge past due referred to the Village
Justice Court, where violations of Chapter 132 are prosecuted and penalties
follow a conviction (§ 132-13 B, R-PEN-1..3), and the court's disposition as the
clerk or the SMO records it. A conviction enters the person's offense history
(enforcement.OffenseRecord, which sets the tier of a later notice: convictions
only); a fine the court imposes becomes a charge. Nothing is filed with the
court electronically."""

import datetime as dt
from decimal import Decimal

from django.db import transaction
from django.utils import timezone

from enforcement.models import OffenseRecord
from kernel.humanize import human_date, money
from kernel.roles import Role, require_role
from kernel.timeline import record_event
from kernel.workflow import Refused

from .models import ChargeKind, ChargeStatus, CourtOutcome, CourtReferral
from .services import _lock, amount_error, charge_create


def _event(referral, actor, summary, detail=""):
    record_event(
        case=referral.case,
        actor=actor,
        kind="enforcement",
        summary=summary,
        detail=detail,
        rule_id="R-PEN-1",
        subject=referral,
    )


@transaction.atomic
def court_refer(
    *, charge, actor, referred_on: dt.date, note: str = ""
) -> CourtReferral:
    """Refer what remains of `charge` to the Justice Court. Who: SMO. Refused
    when nothing remains, it is written off or already referred; a date in the
    future or before the charge is a ValidationError."""
    require_role(actor, Role.SMO, doing="refer a charge to the Justice Court")
    locked = _lock(charge)
    if locked.referred_on is not None:
        raise Refused(f"{locked.reference} was referred to the Justice Court already.")
    if locked.status not in (ChargeStatus.UNPAID, ChargeStatus.PARTLY_PAID):
        raise Refused(
            f"{locked.reference} is {locked.get_status_display().lower()}; only an "
            "unpaid balance is referred."
        )
    if referred_on is None or referred_on > timezone.localdate():
        raise Refused.invalid({"referred_on": "The date cannot be in the future."})
    if referred_on < locked.issued_on:
        raise Refused.invalid(
            {"referred_on": "A charge cannot be referred before it was issued."}
        )
    locked.referred_on = referred_on
    locked.save(update_fields=["referred_on"])
    referral = CourtReferral.objects.create(
        charge=locked,
        case=locked.case,
        defendant=locked.payer,
        referred_on=referred_on,
        note=(note or "").strip(),
        referred_by=actor,
    )
    _event(
        referral,
        actor,
        f"{locked.reference} referred to the Justice Court on "
        f"{human_date(referred_on)}: {money(locked.balance())} unpaid by "
        f"{locked.payer.name}",
        detail=referral.note,
    )
    return referral


def _amount(errors, name, value):
    if value in (None, ""):
        return None
    error = amount_error(value)
    if error:
        errors[name] = error
        return None
    return Decimal(value)


@transaction.atomic
def court_record_disposition(
    *,
    referral,
    actor,
    docket_number: str,
    outcome: str,
    outcome_on: dt.date,
    fine_imposed=None,
    surcharge_imposed=None,
    imprisonment_days: int | None = None,
    adjourned_to: dt.date | None = None,
) -> CourtReferral:
    """Record what the Justice Court did: convicted, dismissed or adjourned.
    Who: the clerk or the SMO. A conviction enters the defendant's offense
    history (the date of the violation the notice names) and the fine and
    surcharge imposed become one charge on the ledger. Refused once convicted or
    dismissed; ValidationError per field."""
    require_role(actor, Role.SMO, Role.CLERK, doing="record the court's disposition")
    referral = CourtReferral.objects.select_for_update().get(pk=referral.pk)
    if referral.disposed:
        raise Refused(
            f"The court's disposition is recorded already ({referral.status_words()})."
        )
    errors = {}
    if not (docket_number or "").strip():
        errors["docket_number"] = "Give the court's docket number."
    if outcome not in CourtOutcome.values:
        errors["outcome"] = "Say what the court did."
    if outcome_on is None:
        errors["outcome_on"] = "Give the date of the court's disposition."
    elif outcome_on > timezone.localdate():
        errors["outcome_on"] = "The date cannot be in the future."
    elif outcome_on < referral.referred_on:
        errors["outcome_on"] = "The court cannot decide before the referral."
    fine = _amount(errors, "fine_imposed", fine_imposed)
    surcharge = _amount(errors, "surcharge_imposed", surcharge_imposed)
    if outcome == CourtOutcome.ADJOURNED:
        if adjourned_to is None:
            errors["adjourned_to"] = "Give the date the case is adjourned to."
        elif outcome_on and adjourned_to <= outcome_on:
            errors["adjourned_to"] = "The adjourned date follows the court date."
    if outcome != CourtOutcome.CONVICTED and (fine or surcharge or imprisonment_days):
        errors["outcome"] = (
            "A fine, surcharge or imprisonment follows a conviction only."
        )
    if errors:
        raise Refused.invalid(errors)
    referral.docket_number = docket_number.strip()
    referral.outcome = outcome
    referral.outcome_on = outcome_on
    referral.adjourned_to = adjourned_to if outcome == CourtOutcome.ADJOURNED else None
    referral.fine_imposed = fine
    referral.surcharge_imposed = surcharge
    referral.imprisonment_days = imprisonment_days or None
    referral.disposition_by = actor
    words = f"Justice Court, docket {referral.docket_number}: {referral.status_words()}"
    if outcome == CourtOutcome.CONVICTED:
        notice = referral.charge.notice
        referral.offense = OffenseRecord.objects.create(
            party=referral.defendant,
            case=referral.case,
            committed_on=notice.violation_date if notice else referral.charge.issued_on,
            description=f"Violation of Chapter 132 ({referral.charge.reference}), "
            f"convicted in the {referral.court}, docket {referral.docket_number}",
            court=referral.court,
            outcome=OffenseRecord.Outcome.CONVICTED,
            outcome_on=outcome_on,
            fine_imposed=fine,
            imprisonment_days=imprisonment_days or None,
            recorded_by=actor,
        )
        total = (fine or 0) + (surcharge or 0)
        if total:
            referral.court_fine = charge_create(
                kind=ChargeKind.COURT_FINE,
                case=referral.case,
                payer=referral.defendant,
                amount=total,
                reference=f"JC-{referral.docket_number}"[:40],
                issued_on=outcome_on,
                actor=actor,
                by_step=True,
                due_explanation="As the Justice Court ordered.",
            )
            words += f"; fine {money(fine or 0)} and surcharge {money(surcharge or 0)}"
        if imprisonment_days:
            words += f"; imprisonment of {imprisonment_days} days"
    referral.save()
    _event(referral, actor, words)
    return referral
