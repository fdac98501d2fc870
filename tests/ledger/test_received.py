"""Each charge keeps a copy of what its payments not voided come to
(`Charge.received`), which the SMO's queue of charges past due reads through an
index (R-APL-2, issue 28). The ledger's own figures are computed from the
payments; the copy must say the same after every payment and every void, and a
charge saved later must not put back what it read before a payment."""

import datetime as dt
from decimal import Decimal

import pytest

from ledger import services
from ledger.models import Charge

from .conftest import ISSUED

pytestmark = pytest.mark.django_db


def _pay(charge, smo, amount):
    return services.payment_record(
        charge=charge,
        actor=smo,
        received_on=ISSUED + dt.timedelta(days=2),
        amount=Decimal(amount),
        method="cash",
    )


def _received(charge) -> Decimal:
    return Charge.objects.get(pk=charge.pk).received


def _computed(charge) -> Decimal:
    return Charge.objects.get(pk=charge.pk).amount_paid()


def _in_queue(charge) -> bool:
    after_due = charge.due_on + dt.timedelta(days=10)
    return Charge.objects.past_due(after_due).filter(pk=charge.pk).exists()


def test_what_was_received_follows_each_payment_and_each_void(fine, smo_user):
    assert (_received(fine), _in_queue(fine)) == (Decimal("0.00"), True)
    first = _pay(fine, smo_user, "100.00")
    assert _received(fine) == _computed(fine) == Decimal("100.00")
    assert _in_queue(fine)  # 150.00 still owed
    _pay(fine, smo_user, "150.00")
    assert _received(fine) == _computed(fine) == Decimal("250.00")
    assert not _in_queue(fine)  # paid in full
    services.payment_void(payment=first, actor=smo_user, reason="Check bounced")
    assert _received(fine) == _computed(fine) == Decimal("150.00")
    assert _in_queue(fine)  # owed again


def test_a_charge_read_before_a_payment_and_saved_after_keeps_it(fine, smo_user):
    read_before = Charge.objects.get(pk=fine.pk)
    _pay(fine, smo_user, "250.00")
    read_before.due_explanation = "The last day to appeal the notice."
    read_before.save()
    after = Charge.objects.get(pk=fine.pk)
    assert after.due_explanation == "The last day to appeal the notice."
    assert after.received == Decimal("250.00")
    assert not _in_queue(fine)
