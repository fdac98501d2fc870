"""Every write of the ledger (issue 27): charge what the Village asks of a
person, record and void what it received, write off what it will not collect.
Each writes one event to the case's chronology in the same transaction
(kernel.timeline.record_event) and is the only way these rows change."""

import datetime as dt
from decimal import Decimal, InvalidOperation

from django.db import IntegrityError, transaction
from django.utils import timezone

from kernel.humanize import human_date, money
from kernel.roles import Role, require_role
from kernel.timeline import record_event
from kernel.workflow import Refused

from .models import (
    WINDOW_METHODS,
    Charge,
    ChargeKind,
    ChargeStatus,
    Payment,
    PaymentMethod,
    ReceiptSequence,
)

CENT = Decimal("0.01")


def _require_smo(actor, doing):
    require_role(actor, Role.SMO, doing=doing)


def amount_error(amount) -> str:
    """What is wrong with an amount of money, in words ("" when nothing): the one
    home of the rule (a form says it on its field, a service refuses it)."""
    if amount is None or amount == "":
        return "Give the amount."
    try:
        amount = Decimal(amount)
    except (InvalidOperation, TypeError, ValueError):
        return "Give the amount in dollars and cents, as 125.50."
    if not amount.is_finite():
        return "Give the amount in dollars and cents, as 125.50."
    if amount <= 0:
        return "The amount must be more than $0.00."
    if amount != amount.quantize(CENT):
        return "Give the amount in dollars and cents, with at most two decimals."
    if amount >= Decimal("100000000"):
        return "That amount is too large."
    return ""


def next_receipt_number(year: int) -> str:
    """R-<year>-<nnnnn>, the Village's own receipt numbers, numbered per year as
    the case numbers are (cases.services.next_case_number); takes a row lock on
    the year's counter and skips a number already typed in by hand."""
    ReceiptSequence.objects.get_or_create(year=year)
    seq = ReceiptSequence.objects.select_for_update().get(year=year)
    while True:
        seq.last += 1
        number = f"R-{year}-{seq.last:05d}"
        if not Payment.objects.filter(receipt_number=number).exists():
            break
    seq.save(update_fields=["last"])
    return number


def _event(charge, actor, summary, detail="", rule_id="", subject=None):
    record_event(
        case=charge.case,
        actor=actor,
        kind="enforcement",
        summary=summary,
        detail=detail,
        rule_id=rule_id or RULE_OF_KIND[charge.kind],
        subject=subject or charge,
    )


# The rule each kind of charge comes from (in comments, tests and events only).
RULE_OF_KIND = {
    ChargeKind.NOV_FINE: "R-NOV-1",
    ChargeKind.CORRECTIVE_INVOICE: "R-COR-2",
    ChargeKind.ABATEMENT_INVOICE: "R-NUI-1",
    ChargeKind.COURT_FINE: "R-PEN-1",
}


@transaction.atomic
def charge_create(
    *,
    kind: str,
    case,
    payer,
    amount: Decimal,
    reference: str,
    issued_on: dt.date,
    actor,
    due_on: dt.date | None = None,
    due_rule_id: str = "",
    due_explanation: str = "",
    by_step: bool = False,
    **source,
) -> Charge:
    """Put one amount the Village asks of `payer` on the ledger. Who: SMO; or
    whoever took the step of enforcement that makes it (`by_step`: the notice's
    issue, the invoice, the court's disposition, whose own services check the
    role), named in the chronology. `source` is the record it charges (notice=,
    corrective_action=, abatement=). Raises ValidationError for an amount that
    is not a positive amount of cents."""
    if not by_step:
        _require_smo(actor, doing="put a charge on the ledger")
    error = amount_error(amount)
    if error:
        raise Refused.invalid({"amount": error})
    charge = Charge.objects.create(
        kind=kind,
        case=case,
        payer=payer,
        amount=Decimal(amount),
        reference=reference,
        issued_on=issued_on,
        due_on=due_on,
        due_rule_id=due_rule_id,
        due_explanation=due_explanation,
        created_by=actor,
        **source,
    )
    due = f", due by {human_date(due_on)}" if due_on else ""
    _event(
        charge,
        actor,
        f"Charged on the ledger: {charge.get_kind_display().lower()} "
        f"{reference}, {money(amount)} to {payer.name}{due}",
        detail=due_explanation,
    )
    return charge


def _lock(charge) -> Charge:
    return (
        Charge.objects.select_for_update(of=("self",))
        .select_related("case", "payer", "notice")
        .get(pk=charge.pk)
    )


def payment_errors(
    charge, *, received_on, amount, method, check_number, receipt_number
) -> dict:
    """What is wrong with a payment about to be recorded against `charge` (read
    on the locked row), field by field, in words."""
    errors = {}
    today = timezone.localdate()
    if received_on is None:
        errors["received_on"] = "Give the date of the payment."
    elif received_on > today:
        errors["received_on"] = "The date cannot be in the future."
    elif received_on < charge.issued_on:
        errors["received_on"] = (
            f"A payment cannot precede the charge it pays ({charge.reference} is "
            f"of {human_date(charge.issued_on)})."
        )
    error = amount_error(amount)
    if error:
        errors["amount"] = error
    else:
        balance = charge.balance()
        if Decimal(amount) > balance:
            errors["amount"] = (
                f"That is more than the {money(balance)} that remains due on "
                f"{charge.reference} (its balance); an overpayment is not accepted."
            )
    if method not in dict(WINDOW_METHODS):
        errors["method"] = "Say how it was paid."
    elif method == PaymentMethod.CHECK and not (check_number or "").strip():
        errors["check_number"] = "Give the check number."
    receipt_number = (receipt_number or "").strip()
    if (
        receipt_number
        and Payment.objects.filter(receipt_number=receipt_number).exists()
    ):
        errors["receipt_number"] = (
            f"Receipt number {receipt_number} is already used; each receipt has "
            "its own number (leave it empty for the next one)."
        )
    return errors


@transaction.atomic
def payment_record(
    *,
    charge,
    actor,
    received_on: dt.date | None,
    amount,
    method: str,
    check_number: str = "",
    receipt_number: str = "",
    method_allowed=WINDOW_METHODS,
) -> Payment:
    """Record one payment received at the window against `charge`, with the
    Village's receipt number (the next of the year, or the one typed from the
    receipt book). Locks the charge (select_for_update) so two clerks cannot
    both take its last dollar. A payment of an invoice moves the invoice to
    partly paid or paid (R-COR-2, R-NUI-1). Who: SMO. Raises ValidationError
    per field (a date in the future or before the charge, an amount that is not
    positive cents or more than the balance, a duplicate receipt number, a check
    without its number), Refused (written off, cancelled)."""
    _require_smo(actor, doing="record payments")
    locked = _lock(charge)
    if locked.status in (ChargeStatus.WRITTEN_OFF, ChargeStatus.CANCELLED):
        raise Refused(
            f"{locked.reference} is {locked.get_status_display().lower()}; "
            "no payment can be recorded against it."
        )
    errors = payment_errors(
        locked,
        received_on=received_on,
        amount=amount,
        method=method,
        check_number=check_number,
        receipt_number=receipt_number,
    )
    if errors:
        raise Refused.invalid(errors)
    number = (receipt_number or "").strip() or next_receipt_number(received_on.year)
    try:
        with transaction.atomic():
            payment = Payment.objects.create(
                charge=locked,
                received_on=received_on,
                amount=Decimal(amount),
                method=method,
                check_number=(check_number or "").strip()
                if method == PaymentMethod.CHECK
                else "",
                receipt_number=number,
                recorded_by=actor,
            )
    except IntegrityError as exc:  # the same number typed at the same moment
        raise Refused.invalid(
            {"receipt_number": f"Receipt number {number} is already used."}
        ) from exc
    left = locked.balance()
    _event(
        locked,
        actor,
        f"Payment of {money(payment.amount)} received on "
        f"{human_date(received_on)} by {payment.method_words().lower()} against "
        f"{locked.reference}, receipt {number}; "
        + (f"{money(left)} remains due" if left else "paid in full"),
        subject=payment,
    )
    _follow(locked, actor, received_on)
    from .receipts import receipt_issue

    receipt_issue(payment=payment, actor=actor)
    return payment


def _follow(charge, actor, paid_on=None):
    """An invoice's workflow follows its charge (enforcement's own states)."""
    remedy = charge.corrective_action or charge.abatement
    if remedy is not None:
        from enforcement.services.remedies import remedy_follow_ledger

        remedy_follow_ledger(remedy=remedy, actor=actor, paid_on=paid_on)


@transaction.atomic
def payment_void(*, payment, actor, reason: str) -> Payment:
    """Void a payment entered by mistake, with the reason; it stays on the
    ledger, struck through, and no longer counts. Who: SMO. Raises
    ValidationError (no reason), Refused (voided already)."""
    _require_smo(actor, doing="void payments")
    if not (reason or "").strip():
        raise Refused.invalid({"reason": "Say why the payment is voided."})
    charge = _lock(payment.charge)
    payment = Payment.objects.select_for_update().get(pk=payment.pk)
    if payment.is_voided:
        raise Refused(f"Receipt {payment.receipt_number} is voided already.")
    payment.voided_at = timezone.now()
    payment.voided_by = actor
    payment.void_reason = reason.strip()
    payment.save(update_fields=["voided_at", "voided_by", "void_reason"])
    _event(
        charge,
        actor,
        f"Payment of {money(payment.amount)} (receipt {payment.receipt_number}) "
        f"voided; {money(charge.balance())} remains due on {charge.reference}",
        detail=payment.void_reason,
        subject=payment,
    )
    _follow(charge, actor)
    from .receipts import receipt_void_issue

    # The receipt is issued again marked void (and e-mailed where the first was).
    receipt_void_issue(payment=payment, actor=actor)
    return payment


@transaction.atomic
def charge_write_off(*, charge, actor, reason: str) -> Charge:
    """Write off what remains of a charge, with the reason: the Village will not
    collect it. Who: SMO only. Raises ValidationError (no reason), Refused
    (nothing remains, written off already)."""
    _require_smo(actor, doing="write off a charge")
    if not (reason or "").strip():
        raise Refused.invalid({"reason": "Say why the balance is written off."})
    locked = _lock(charge)
    if locked.is_written_off:
        raise Refused(f"{locked.reference} is written off already.")
    left = locked.balance()
    if not left:
        raise Refused(f"Nothing remains due on {locked.reference}.")
    locked.written_off_at = timezone.now()
    locked.written_off_by = actor
    locked.write_off_reason = reason.strip()
    locked.save(update_fields=["written_off_at", "written_off_by", "write_off_reason"])
    _event(
        locked,
        actor,
        f"Balance of {money(left)} on {locked.reference} written off",
        detail=locked.write_off_reason,
    )
    return locked
