"""The respondent's page (issue 27): each charge, what was paid, the balance and
how to pay; no payment online."""

import datetime as dt

import pytest

from ledger import services
from portal.services import live_access
from tests.portal.conftest import enter

from .conftest import ISSUED

pytestmark = pytest.mark.django_db


def test_the_respondent_sees_the_fine_what_was_paid_and_how_to_pay(
    fine, fined_notice, smo_user, client
):
    payment = services.payment_record(
        charge=fine,
        actor=smo_user,
        received_on=ISSUED + dt.timedelta(days=1),
        amount="100",
        method="cash",
    )
    code = live_access(fine.case, fine.payer).printed
    page = enter(client, code, follow=True).content.decode()
    assert "What you are asked to pay" in page
    assert f"Fine required by a notice of violation {fine.reference}" in page
    assert "Amount: $250.00" in page
    assert "Paid $100.00" in page and payment.receipt_number in page
    assert "Balance: <strong>$150.00</strong>" in page
    assert "Monday to Friday" in page and "not taken online" in page
    assert "pay by" in page
    assert "R-NOV" not in page and "R-APL" not in page  # no rule ids for people


def test_paid_in_full_no_instructions_are_given(fine, smo_user, client):
    services.payment_record(
        charge=fine, actor=smo_user, received_on=ISSUED, amount="250", method="cash"
    )
    code = live_access(fine.case, fine.payer).printed
    page = enter(client, code, follow=True).content.decode()
    assert "Balance: <strong>$0.00</strong> · Paid in full" in page
    assert "not taken online" not in page
