"""The demo data (issue 27): a notice with a fine partly paid and a corrective
measures invoice paid in full, on the ledger and on the case page."""

import io

import pytest
from django.core.management import call_command

from ledger.demo import DEMO_SUMMARY
from ledger.models import Charge, ChargeKind, ChargeStatus

pytestmark = pytest.mark.django_db


def test_the_demo_has_a_fine_partly_paid_and_an_invoice_paid_in_full(client):
    call_command("load_demo_data", stdout=io.StringIO())
    charges = Charge.objects.filter(case__summary=DEMO_SUMMARY)
    fine = charges.get(kind=ChargeKind.NOV_FINE)
    invoice = charges.get(kind=ChargeKind.CORRECTIVE_INVOICE)
    assert fine.status == ChargeStatus.PARTLY_PAID
    assert str(fine.balance()) == "150.00"
    assert invoice.status == ChargeStatus.PAID
    assert invoice.corrective_action.status == "paid"
    call_command("load_demo_data", stdout=io.StringIO())  # idempotent
    assert Charge.objects.filter(case__summary=DEMO_SUMMARY).count() == 2
    client.login(username="smo", password="demo-password")
    page = client.get(fine.case.get_absolute_url()).content.decode()
    assert "balance $150.00" in page and "balance $0.00" in page
