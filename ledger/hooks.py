"""What the ledger answers the lower apps, registered in LedgerConfig.ready():
enforcement's charges (enforcement.charges)."""

from decimal import Decimal

from django.db.models import Sum

from kernel.humanize import human_long_date

from .models import Charge, ChargeKind, Payment


def charge_for_notice(notice, actor):
    """The fine a notice requires (§ 132-13 A(5), R-NOV-1), charged to its
    recipient as it is issued.

    By when: Chapter 132 sets no period for paying a fine. The notice may be
    appealed to the Board within 15 days of its issue (R-APL-1), and a fine
    appealed is not final, so the fine is due on the notice's last day to appeal
    (the stored R-APL-1 deadline, from the engine, with its explanation)."""
    if not notice.requires_fine() or not notice.proposed_fine:
        return None
    from .services import charge_create

    deadline = notice.last_day_to_appeal()
    due = {}
    if deadline is not None:
        due = {
            "due_on": deadline.due_date,
            "due_rule_id": deadline.rule_id,
            "due_explanation": (
                "Payable by the last day to appeal the notice, "
                f"{human_long_date(deadline.due_date)}: {deadline.explanation}"
            ),
        }
    return charge_create(
        kind=ChargeKind.NOV_FINE,
        case=notice.case,
        payer=notice.recipient,
        amount=notice.proposed_fine,
        reference=f"NOV-{notice.pk}",
        issued_on=notice.issued_on,
        actor=actor,
        by_step=True,
        notice=notice,
        **due,
    )


def _remedy_link(remedy) -> dict:
    from enforcement.models import CorrectiveAction

    if isinstance(remedy, CorrectiveAction):
        return {"corrective_action": remedy}
    return {"abatement": remedy}


def charge_for_remedy(remedy, actor):
    """The invoice of corrective measures (R-COR-2) or of a summary abatement
    (R-NUI-1), charged to the discharger as it is issued; payable on receipt
    (the law sets no period)."""
    from enforcement.models import CorrectiveAction

    from .services import charge_create

    if isinstance(remedy, CorrectiveAction):
        kind, payer = ChargeKind.CORRECTIVE_INVOICE, remedy.notice.recipient
    else:
        kind, payer = ChargeKind.ABATEMENT_INVOICE, remedy.case.responsible_party
    return charge_create(
        kind=kind,
        case=remedy.case,
        payer=payer,
        amount=remedy.invoice_amount,
        reference=remedy.invoice_number,
        issued_on=remedy.invoiced_on,
        actor=actor,
        by_step=True,
        due_explanation="Payable on receipt of the invoice.",
        **_remedy_link(remedy),
    )


def remedy_charge(remedy):
    return Charge.objects.filter(**_remedy_link(remedy)).first()


def remedy_payment(remedy, actor, **fields):
    from .services import payment_record

    charge = remedy_charge(remedy)
    if charge is None:
        charge = charge_for_remedy(remedy, actor)
    return payment_record(charge=charge, actor=actor, **fields)


def remedy_paid(remedy) -> Decimal:
    total = Payment.objects.filter(
        voided_at__isnull=True,
        **{f"charge__{k}": v for k, v in _remedy_link(remedy).items()},
    ).aggregate(t=Sum("amount"))["t"]
    return total or Decimal(0)


def remedy_payments(remedy) -> list:
    return list(
        Payment.objects.filter(
            voided_at__isnull=True,
            **{f"charge__{k}": v for k, v in _remedy_link(remedy).items()},
        ).order_by("received_on", "pk")
    )


def notice_charge(notice):
    return Charge.objects.filter(notice=notice, kind=ChargeKind.NOV_FINE).first()


def owed_on_case(case):
    """What is owed on `case` for its resolve guard (cases.balances)."""
    from cases.balances import Owed
    from kernel.humanize import money

    from .selectors import unsettled_charges

    return [
        Owed(f"{money(c.balance())} on {c.reference}", c.get_absolute_url())
        for c in unsettled_charges(case)
    ]


def register_all():
    from cases import balances
    from cases.selectors import register_panel_records
    from enforcement import charges

    from .selectors import case_charge_sets

    balances.register(owed_on_case)
    register_panel_records(case_charge_sets)

    charges.register("notice_issued", charge_for_notice)
    charges.register("remedy_invoiced", charge_for_remedy)
    charges.register("remedy_payment", remedy_payment)
    charges.register("remedy_paid", remedy_paid)
    charges.register("remedy_payments", remedy_payments)
    charges.register("remedy_charge", remedy_charge)
    charges.register("notice_charge", notice_charge)
