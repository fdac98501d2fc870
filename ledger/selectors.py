"""Reads of the ledger (issue 27): the charges of a case, the filtered ledger,
the treasurer's report, the totals of a year. A charge's status is computed from
its payments, never stored; the ledger filters and sums by its SQL form
(`ChargeQuerySet.with_standing`)."""

import datetime as dt
import functools
from collections import OrderedDict
from dataclasses import dataclass, field
from decimal import Decimal

from django.db.models import Count, Q, QuerySet, Sum, prefetch_related_objects
from django.db.models.functions import Coalesce
from django.utils import timezone

from kernel import page_reads
from kernel.compiled import STAND_IN_DATE, CompiledQuery
from kernel.inline_rows import Inline, with_inline
from kernel.paging import count_beside

from .models import (
    COST_KINDS,
    PENALTY_KINDS,
    ZERO,
    Charge,
    ChargeKind,
    ChargeStatus,
    Payment,
)


def charges_base():
    return printed(Charge.objects.with_paid())


def printed(charges: QuerySet[Charge]) -> QuerySet[Charge]:
    """`charges` with what a list of them prints: case, payer, what the charge
    is for, and its notice's appeals (a fine is not past due while one is
    pending)."""
    return charges.select_related(
        "case", "payer", "notice", "corrective_action", "abatement"
    ).prefetch_related("notice__appeals")


def case_charges(case) -> list[Charge]:
    """The charges of `case` with their payments; read once on the case page
    (its resolve guard and its ledger panel, kernel.page_reads)."""
    return page_reads.once(case, "ledger.case_charges", lambda: _case_charges(case))


def case_charge_sets(case) -> dict:
    """Registered with the case page's presence query
    (cases.selectors.register_panel_records)."""
    return {"charges": Charge.objects.filter(case=case)}


def _case_charges(case) -> list[Charge]:
    from cases.selectors import has_panel_records

    if not has_panel_records(case, "charges"):
        return []
    rows = charges_base().filter(case=case).order_by("issued_on", "pk")
    if not page_reads.is_shared(case):
        return list(rows.prefetch_related("payments"))
    # The case page: each fine's notice is the one the page read, with its
    # appeals (enforcement.selectors.case_notices), not read again.
    from enforcement.selectors import case_notices

    # Its payments in the charges' own query (kernel.inline_rows).
    charges = with_inline(
        rows.prefetch_related(None), Inline("payments", ("received_on", "id"))
    )
    notices = {n.pk: n for n in case_notices(case)}
    others = []
    for charge in charges:
        if charge.notice_id in notices:
            charge.notice = notices[charge.notice_id]
        elif charge.notice_id is not None:
            others.append(charge)
    prefetch_related_objects(others, "notice__appeals")
    return charges


def party_charges(party, cases=None) -> list[Charge]:
    """The charges a person owes (the respondent's page), on `cases` if given."""
    qs = charges_base().filter(payer=party).prefetch_related("payments")
    if cases is not None:
        qs = qs.filter(case__in=cases)
    return list(qs.order_by("issued_on", "pk"))


def ledger_search(
    *,
    status: str = "",
    kind: str = "",
    issued_from: dt.date | None = None,
    issued_to: dt.date | None = None,
    q: str = "",
) -> QuerySet[Charge]:
    """The charges the ledger lists, newest first, filtered in the database (the
    status by its SQL form, `ChargeQuerySet.with_standing`). `printed` adds what
    its table and export print of each."""
    if status == "past_due":
        qs = Charge.objects.past_due(timezone.localdate())
    else:
        qs = Charge.objects.all()
    qs = qs.with_standing()
    if status and status != "past_due":
        qs = qs.filter(standing=status)
    if kind:
        qs = qs.filter(kind=kind)
    if issued_from:
        qs = qs.filter(issued_on__gte=issued_from)
    if issued_to:
        qs = qs.filter(issued_on__lte=issued_to)
    if q:
        qs = qs.filter(
            Q(reference__icontains=q)
            | Q(case__number__icontains=q)
            | Q(payer__name__icontains=q)
        )
    return qs.order_by("-issued_on", "-pk")


def ledger_totals(charges: QuerySet[Charge]) -> dict:
    """{"count", "amount", "paid", "balance"} of `charges` (from
    `ledger_search`), summed by the database in one query."""
    # Each charge's payments summed once (joined), not once per use of the sum.
    whole = Charge.objects.filter(pk__in=charges.values("pk"))
    found = (
        whole.with_paid(joined=True)
        .with_standing()
        .aggregate(
            count=Count("pk"),
            amount=Sum("amount"),
            paid=Sum(Coalesce("paid_total", ZERO)),
            balance=Sum("balance_left"),
        )
    )
    return {
        key: value or (0 if key == "count" else ZERO) for key, value in found.items()
    }


@functools.cache
def _past_due_rows(limit: int) -> CompiledQuery:
    """The first `limit` charges past due `today`, earliest due first, with
    their case, payer and notice, what was paid, and beside each how many there
    are in all (`of_all`, a subquery computed once); compiled once
    (kernel.compiled)."""

    def build(today):
        due = Charge.objects.past_due(today)
        return (
            due.with_paid()
            .select_related("case", "payer", "notice")
            .annotate(of_all=count_beside(due))
            .order_by("due_on", "pk")[:limit]
        )

    return CompiledQuery(build, today=STAND_IN_DATE)


def past_due_head(limit: int, today=None) -> tuple[list[Charge], int]:
    """The SMO's queue (issue 27): the first `limit` charges past due, earliest
    due first, with their case, payer and notice, and how many there are, in one
    query. The partial index of the charges still owed (`ledger.models.OWED`) gives
    them in due order, so the joins are made for these rows only. (Before it,
    the filter read every payment and the joins came before the LIMIT: every
    case hashed for ten charges, 57 ms at a hundred villages' fines, then two
    queries; bench/NOTES.md.)"""
    rows = _past_due_rows(limit).rows(today=today or timezone.localdate())
    return rows, (rows[0].of_all if rows else 0)


@dataclass
class Day:
    day: dt.date
    payments: list = field(default_factory=list)

    @property
    def total(self) -> Decimal:
        return sum((p.amount for p in self.payments), ZERO)


@dataclass
class Month:
    year: int
    month: int
    days: list = field(default_factory=list)

    @property
    def first(self) -> dt.date:
        return dt.date(self.year, self.month, 1)

    @property
    def total(self) -> Decimal:
        return sum((d.total for d in self.days), ZERO)

    @property
    def count(self) -> int:
        return sum(len(d.payments) for d in self.days)


def payments_received(start: dt.date, end: dt.date):
    """The payments received from `start` to `end` (inclusive), not voided."""
    return (
        Payment.objects.filter(
            received_on__gte=start, received_on__lte=end, voided_at__isnull=True
        )
        .select_related("charge", "charge__case", "charge__payer", "recorded_by")
        .order_by("received_on", "receipt_number", "pk")
    )


def treasurer_report(start: dt.date, end: dt.date) -> dict:
    """Money received by day and by month, each payment with its receipt
    number; the months' totals add up to the grand total, which equals the
    sum of the payments (tested)."""
    months: OrderedDict = OrderedDict()
    payments = list(payments_received(start, end))
    for p in payments:
        key = (p.received_on.year, p.received_on.month)
        month = months.setdefault(key, Month(*key))
        if not month.days or month.days[-1].day != p.received_on:
            month.days.append(Day(p.received_on))
        month.days[-1].payments.append(p)
    voided = Payment.objects.filter(
        received_on__gte=start, received_on__lte=end, voided_at__isnull=False
    ).select_related("charge")
    return {
        "months": list(months.values()),
        "total": sum((p.amount for p in payments), ZERO),
        "count": len(payments),
        "voided": list(voided.order_by("received_on", "pk")),
    }


@dataclass
class MoneyLines:
    """The annual report's enforcement money of one year, from the ledger:
    penalties proposed (the fines notices required), imposed (by the Justice
    Court), collected (paid on either); costs invoiced and recovered."""

    penalties_proposed: Decimal = ZERO
    penalties_imposed: Decimal = ZERO
    penalties_collected: Decimal = ZERO
    costs_invoiced: Decimal = ZERO
    costs_recovered: Decimal = ZERO


def money_lines(start: dt.date, end: dt.date) -> MoneyLines:
    """Charges issued and payments received from `start` to `end` (a year):
    the same rows the ledger's export of those dates lists."""
    lines = MoneyLines()
    for c in Charge.objects.filter(issued_on__gte=start, issued_on__lte=end):
        if c.kind == ChargeKind.NOV_FINE:
            lines.penalties_proposed += c.amount
        elif c.kind == ChargeKind.COURT_FINE:
            lines.penalties_imposed += c.amount
        elif c.kind in COST_KINDS:
            lines.costs_invoiced += c.amount
    for p in payments_received(start, end):
        if p.charge.kind in PENALTY_KINDS:
            lines.penalties_collected += p.amount
        else:
            lines.costs_recovered += p.amount
    return lines


def unsettled_charges(case) -> list[Charge]:
    """The charges of `case` with a balance neither paid, written off nor
    referred to the Justice Court (the resolve guard, issue 27)."""
    return [c for c in case_charges(case) if not c.settled]


STATUS_CHOICES = [
    ("", "Any status"),
    ("past_due", "Past due"),
    *ChargeStatus.choices,
]
