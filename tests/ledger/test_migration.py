"""The data migration of issue 27: the invoices and the payments recorded
before the ledger (enforcement.RemedyPayment) are copied onto it, each payment
with a receipt number of its year, before the old table is removed."""

import datetime as dt
from decimal import Decimal

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

OLD = ("enforcement", "0016_hearing_notice_sent_by_email")
NEW = ("enforcement", "0017_remedy_payments_on_the_ledger")
RECEIVED = ("ledger", "0004_received")


def _migrate(targets, state):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(state).apps


@pytest.mark.django_db(transaction=True)
def test_remedy_payments_are_copied_onto_the_ledger():
    try:
        old = _migrate([OLD, ("ledger", None)], [OLD])
        User = old.get_model("auth", "User")
        Party = old.get_model("cases", "Party")
        Case = old.get_model("cases", "Case")
        Notice = old.get_model("enforcement", "NoticeOfViolation")
        Action = old.get_model("enforcement", "CorrectiveAction")
        RemedyPayment = old.get_model("enforcement", "RemedyPayment")
        smo = User.objects.create(username="old-smo")
        pat = Party.objects.create(name="Pat Owner")
        case = Case.objects.create(
            number="MS4-2025-0001", source="web", summary="Old", responsible_party=pat
        )
        notice = Notice.objects.create(
            case=case,
            recipient=pat,
            violation_date=dt.date(2025, 5, 1),
            findings="x",
            status="escalated",
        )
        action = Action.objects.create(
            case=case,
            notice=notice,
            request_letter_on=dt.date(2025, 6, 1),
            status="paid",
            invoice_number="INV-CM-7",
            invoice_amount=Decimal("475.50"),
            invoiced_on=dt.date(2025, 7, 1),
            paid_on=dt.date(2025, 7, 1),
        )
        for amount, method, ref in (("400", "check", "1042"), ("75.50", "cash", "")):
            RemedyPayment.objects.create(
                corrective_action=action,
                paid_on=dt.date(2025, 7, 1),
                amount=Decimal(amount),
                method=method,
                reference=ref,
                recorded_by=smo,
            )
        new = _migrate([NEW], [NEW])
        Charge = new.get_model("ledger", "Charge")
        Payment = new.get_model("ledger", "Payment")
        charge = Charge.objects.get(corrective_action_id=action.pk)
        assert (charge.kind, charge.amount, charge.reference) == (
            "corrective_invoice",
            Decimal("475.50"),
            "INV-CM-7",
        )
        assert charge.payer_id == pat.pk
        payments = list(Payment.objects.filter(charge=charge).order_by("pk"))
        assert [p.amount for p in payments] == [Decimal("400.00"), Decimal("75.50")]
        assert [p.receipt_number for p in payments] == ["R-2025-00001", "R-2025-00002"]
        assert payments[0].check_number == "1042"
        # Each charge's copy of what was received, filled in from the payments
        # the data migration copied (issue 28).
        newer = _migrate([RECEIVED], [RECEIVED])
        charge = newer.get_model("ledger", "Charge").objects.get(pk=charge.pk)
        assert charge.received == Decimal("475.50")
    finally:
        # Every app at its latest, as every other test expects.
        executor = MigrationExecutor(connection)
        _migrate(executor.loader.graph.leaf_nodes(), [])
