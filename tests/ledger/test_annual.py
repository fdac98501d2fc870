"""The annual report's money lines (issue 27) come from the ledger and equal the
ledger's export for the same year; each links to its rows."""

import csv
import io
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.urls import reverse

from ledger.demo import DEMO_SUMMARY
from ledger.models import Charge
from reporting.annual.selectors import annual_counts
from reporting.annual.year import ReportingYear

pytestmark = pytest.mark.django_db


def _export(client, year, **filters):
    response = client.get(
        reverse("ledger:export_csv"),
        {
            "issued_from": year.first_day.isoformat(),
            "issued_to": year.last_day.isoformat(),
            **filters,
        },
    )
    text = b"".join(response.streaming_content).decode("utf-8-sig")
    return list(csv.DictReader(io.StringIO(text)))


def _sum(rows, column):
    return sum((Decimal(r[column]) for r in rows), Decimal("0.00"))


def test_the_money_lines_equal_the_ledger_export_of_the_year(client):
    call_command("load_demo_data", stdout=io.StringIO())
    fine = Charge.objects.get(case__summary=DEMO_SUMMARY, kind="nov_fine")
    year = ReportingYear.containing(fine.issued_on)
    counts = annual_counts(year).by_key()
    client.login(username="clerk", password="demo-password")
    fines = _export(client, year, kind="nov_fine")
    invoices = _export(client, year, kind="corrective_invoice")
    assert counts["penalties_proposed_amount"].value == _sum(fines, "Amount")
    assert counts["penalties_collected"].value == _sum(fines, "Paid")
    assert counts["cost_invoiced"].value == _sum(invoices, "Amount")
    assert counts["cost_recovered"].value == _sum(invoices, "Paid")
    # The demo: $250 fine with $100 paid; a $475.50 invoice paid in full.
    assert counts["penalties_collected"].value == Decimal("100.00")
    assert counts["cost_invoiced"].value == Decimal("475.50")
    assert counts["cost_recovered"].value == Decimal("475.50")
    # Each line links to its rows.
    page = client.get(
        reverse("annual:count", args=[str(year), "cost_recovered"])
    ).content.decode()
    assert (
        "$475.50" in page
        and fine.case.charges.get(kind="corrective_invoice").get_absolute_url() in page
    )
