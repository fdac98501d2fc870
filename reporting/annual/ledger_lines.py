"""The annual report's money lines (issue 27), read from the ledger: penalties proposed (the fines
notices required), imposed (by the Justice Court) and collected; costs
invoiced and recovered. A charge counts in the year it was issued, a payment in
the year it was received, as the ledger's exports of those dates list them."""

from django.db.models import Q
from django.utils import timezone

from ledger.models import COST_KINDS, PENALTY_KINDS, Charge, ChargeKind, Payment

from .selectors import Count, _ids, _sum


def charges_of_year(year, as_of):
    last = min(year.last_day, timezone.localtime(as_of).date())
    return Charge.objects.filter(
        issued_on__gte=year.first_day, issued_on__lte=last, created_at__lte=as_of
    )


def payments_of_year(year, as_of):
    """Payments received in the year, recorded by `as_of` and not voided then."""
    last = min(year.last_day, timezone.localtime(as_of).date())
    return Payment.objects.filter(
        Q(voided_at__isnull=True) | Q(voided_at__gt=as_of),
        received_on__gte=year.first_day,
        received_on__lte=last,
        recorded_at__lte=as_of,
    )


def money_lines(year, as_of):
    charges = charges_of_year(year, as_of)
    payments = payments_of_year(year, as_of)
    fines = charges.filter(kind=ChargeKind.NOV_FINE)
    court = charges.filter(kind=ChargeKind.COURT_FINE)
    costs = charges.filter(kind__in=COST_KINDS)
    collected = payments.filter(charge__kind__in=PENALTY_KINDS)
    recovered = payments.filter(charge__kind__in=COST_KINDS)
    lines = (
        (
            "penalties_proposed_amount",
            "… amount proposed",
            "The sum of the fines notices issued in the year require (the ledger).",
            "ledger.charge",
            fines,
            "R-PEN-1",
        ),
        (
            "penalties_imposed_amount",
            "… amount imposed by the Justice Court",
            "The sum of the fines and surcharges the Justice Court imposed, charged "
            "in the year.",
            "ledger.charge",
            court,
            "R-PEN-1",
        ),
        (
            "penalties_collected",
            "Penalties collected",
            "The sum of the payments of fines received in the year, not voided.",
            "ledger.payment",
            collected,
            "R-PEN-1",
        ),
        (
            "cost_invoiced",
            "Cost recovery: amount invoiced",
            "The sum of the invoices of corrective measures and abatements issued "
            "in the year.",
            "ledger.charge",
            costs,
            "R-COR-2",
        ),
        (
            "cost_recovered",
            "Cost recovery: amount paid",
            "The sum of the payments of those invoices received in the year, not "
            "voided.",
            "ledger.payment",
            recovered,
            "R-COR-2",
        ),
    )
    for key, label, definition, model, qs, rule_id in lines:
        yield Count(
            key,
            "enforcement",
            label,
            definition,
            model,
            _ids(qs),
            value=_sum(qs, "amount"),
            rule_id=rule_id,
        )
