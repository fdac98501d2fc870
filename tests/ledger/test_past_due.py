"""The SMO's queue of charges past due is counted in the database
(`Charge.objects.past_due`); it must say of every charge what the charge's own
`is_past_due` says (issue 27, R-APL-2)."""

import datetime as dt
from decimal import Decimal

import pytest
from django.urls import reverse

from enforcement.services import appeals as appeal_services
from enforcement.services import notices as notice_services
from ledger import court, services
from ledger.models import Charge, ChargeKind
from ledger.selectors import past_due_head
from ledger.templatetags.ledger_tags import PAST_DUE_ON_DASHBOARD

from .conftest import ISSUED

pytestmark = pytest.mark.django_db


def _pay(charge, actor, amount):
    services.payment_record(
        charge=charge,
        actor=actor,
        received_on=ISSUED + dt.timedelta(days=2),
        amount=Decimal(amount),
        method="cash",
    )


STEPS = {
    "unpaid": lambda fine, notice, smo: None,
    "partly paid": lambda fine, notice, smo: _pay(fine, smo, "100.00"),
    "paid": lambda fine, notice, smo: _pay(fine, smo, "250.00"),
    "written off": lambda fine, notice, smo: services.charge_write_off(
        charge=fine, actor=smo, reason="Owner deceased"
    ),
    "referred": lambda fine, notice, smo: court.court_refer(
        charge=fine, actor=smo, referred_on=ISSUED + dt.timedelta(days=30)
    ),
    "notice withdrawn": lambda fine, notice, smo: notice_services.notice_withdraw(
        notice=notice, actor=smo, reason="Issued to the wrong person"
    ),
    "appeal pending": lambda fine, notice, smo: appeal_services.appeal_file(
        notice=notice,
        actor=smo,
        appellant=notice.recipient,
        filed_on=ISSUED + dt.timedelta(days=3),
        grounds="The pool was drained by the previous owner.",
    ),
}
PAST_DUE = {"unpaid", "partly paid"}


@pytest.mark.parametrize("step", sorted(STEPS))
@pytest.mark.parametrize("days_after_due", [0, 10])
def test_the_queue_says_what_each_charge_says(
    step, days_after_due, fined_notice, fine, smo_user
):
    STEPS[step](fine, fined_notice, smo_user)
    today = fine.due_on + dt.timedelta(days=days_after_due)
    in_queue = [c.pk for c in past_due_head(100, today)[0]]
    by_charge = [c.pk for c in Charge.objects.with_paid() if c.is_past_due(today)]
    assert in_queue == by_charge
    assert (fine.pk in in_queue) == (step in PAST_DUE and days_after_due > 0)


def test_the_dashboard_shows_ten_and_counts_them_all(fine, smo_user, client_as):
    for n in range(PAST_DUE_ON_DASHBOARD + 2):
        services.charge_create(
            kind=ChargeKind.CORRECTIVE_INVOICE,
            case=fine.case,
            payer=fine.payer,
            amount=Decimal("80.00"),
            reference=f"INV-{n:03}",
            issued_on=ISSUED,
            due_on=ISSUED + dt.timedelta(days=30 + n),
            actor=smo_user,
        )
    page = client_as("smo").get(reverse("cases:dashboard")).content.decode()
    total = PAST_DUE_ON_DASHBOARD + 3  # the fine and the twelve invoices
    assert f'Charges past due <span class="badge bg-secondary">{total}</span>' in page
    assert page.count("Refer to the Justice Court:") == PAST_DUE_ON_DASHBOARD
    assert f"Refer to the Justice Court: {fine.reference}" in page  # earliest due
