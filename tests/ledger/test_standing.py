"""The ledger filters and sums in the database (issue 28): `with_standing` is the
SQL form of a charge's `status` and `balance()`, and the ledger's totals are the
sums of what each charge says; the ledger shows 25 charges a page and totals
them all (issue 27)."""

import datetime as dt
from decimal import Decimal

import pytest
from django.urls import reverse

from cases.models import Party
from ledger import selectors, services
from ledger.models import Charge, ChargeKind, ChargeStatus
from tests.visible import visible_text

from .conftest import ISSUED
from .test_past_due import STEPS, _pay

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("joined", [False, True])
@pytest.mark.parametrize("step", sorted(STEPS))
def test_the_sql_standing_says_what_each_charge_says(
    step, joined, fined_notice, fine, smo_user
):
    STEPS[step](fine, fined_notice, smo_user)
    charge = Charge.objects.with_paid().get(pk=fine.pk)
    read = Charge.objects.with_paid(joined=joined).with_standing().get(pk=fine.pk)
    assert read.standing == charge.status
    assert read.balance_left == charge.balance()
    assert (read.paid_total or 0) == charge.amount_paid()


def _court_fine(fine, smo_user, n, amount="40.00"):
    return services.charge_create(
        kind=ChargeKind.COURT_FINE,
        case=fine.case,
        payer=Party.objects.create(name=f"Payer {n}"),
        amount=amount,
        reference=f"JC-{n:03}",
        issued_on=ISSUED + dt.timedelta(days=n % 20),
        actor=smo_user,
    )


def test_totals_and_filters_are_what_the_charges_say(fine, smo_user):
    paid = _court_fine(fine, smo_user, 1)
    _pay(paid, smo_user, "40.00")
    partly = _court_fine(fine, smo_user, 2)
    _pay(partly, smo_user, "15.00")
    off = _court_fine(fine, smo_user, 3)
    services.charge_write_off(charge=off, actor=smo_user, reason="Moved away")
    _court_fine(fine, smo_user, 4)
    charges = list(Charge.objects.with_paid())
    for status in ["", *ChargeStatus.values]:
        found = selectors.ledger_search(status=status)
        mine = [c for c in charges if not status or c.status == status]
        assert {c.pk for c in found} == {c.pk for c in mine}, status
        totals = selectors.ledger_totals(found)
        assert totals["count"] == len(mine)
        assert totals["amount"] == sum((c.amount for c in mine), Decimal(0))
        assert totals["paid"] == sum((c.amount_paid() for c in mine), Decimal(0))
        assert totals["balance"] == sum((c.balance() for c in mine), Decimal(0))


def test_the_ledger_shows_25_a_page_and_totals_them_all(fine, smo_user, client_as):
    for n in range(60):
        _court_fine(fine, smo_user, n)
    client = client_as("clerk")
    pages = [
        visible_text(client.get(reverse("ledger:list"), {"page": n})) for n in (1, 2, 3)
    ]
    assert [f"Page {n} of 3" in page for n, page in enumerate(pages, 1)] == [True] * 3
    assert "Total of 61 charges (all pages) $2,650.00 $0.00 $2,650.00" in pages[0]
    newest_first = [c.reference for c in Charge.objects.order_by("-issued_on", "-pk")]
    for n, page in enumerate(pages):
        on_page = newest_first[n * 25 : (n + 1) * 25]
        assert all(reference in page for reference in on_page), n
        assert not any(r in page for r in newest_first if r not in on_page), n
    filtered = visible_text(client.get(reverse("ledger:list"), {"q": "JC-05"}))
    assert "Total of 10 charges $400.00" in filtered and "Page 1 of" not in filtered
