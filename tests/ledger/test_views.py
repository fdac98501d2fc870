"""The ledger's staff pages (issue 27): the payment at the window with a clear
message on each field and the input kept, the "I confirm" box, void and
write-off with a reason (write-off: the SMO), the ledger's filters and exports,
and the treasurer's report reconciled to the payments."""

import csv
import datetime as dt
import io
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import timezone

from ledger import services
from ledger.models import Charge, ChargeStatus, Payment
from tests.steps import confirmed

from .conftest import ISSUED

pytestmark = pytest.mark.django_db


def _form(amount="100.00", **more):
    return confirmed(
        "pay",
        {
            "pay-received_on": ISSUED.isoformat(),
            "pay-amount": amount,
            "pay-method": "check",
            "pay-check_number": "1042",
            "pay-receipt_number": "",
        },
        **more,
    )


def _pay(client, charge, data):
    return client.post(reverse("ledger:payment_record", args=[charge.pk]), data)


def test_recording_a_payment_at_the_window(fine, client_as):
    client = client_as("smo")
    page = client.get(fine.get_absolute_url()).content.decode()
    assert "Record a payment at the window" in page and "I confirm:" in page
    response = _pay(client, fine, _form("100"))
    assert response.status_code == 302
    page = client.get(response.url).content.decode()
    assert "Payment of $100.00 recorded against" in page
    assert "$150.00 remains due" in page
    assert "Check no. 1042" in page
    assert Charge.objects.get(pk=fine.pk).status == ChargeStatus.PARTLY_PAID


def test_without_the_confirmation_nothing_is_recorded(fine, client_as):
    data = _form()
    data.pop("pay-confirm")
    page = _pay(client_as("smo"), fine, data).content.decode()
    assert "Tick “I confirm”" in page
    assert not Payment.objects.exists()


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        ("pay-amount", "-5", "must be more than $0.00"),
        ("pay-amount", "0", "must be more than $0.00"),
        ("pay-amount", "10.005", "at most two decimals"),
        ("pay-amount", "ten dollars", "in dollars and cents"),
        ("pay-amount", "250.01", "more than the $250.00 that remains due"),
        ("pay-received_on", "2999-01-01", "cannot be in the future"),
        ("pay-received_on", "2026-03-01", "cannot precede the charge"),
        ("pay-check_number", "", "Give the check number"),
    ],
)
def test_bad_input_is_said_on_its_field_and_the_rest_is_kept(
    fine, client_as, field, value, words
):
    data = _form("100.00")
    data[field] = value
    response = _pay(client_as("smo"), fine, data)
    assert response.status_code == 200
    body = response.content.decode().replace("&#x27;", "'")
    assert words in body
    # The rest of the form is kept.
    if field != "pay-check_number":
        assert 'value="1042"' in body
    if field != "pay-amount":
        assert 'value="100.00"' in body
    assert not Payment.objects.exists()


def test_a_duplicate_receipt_number_is_said_on_its_field(fine, client_as):
    client = client_as("smo")
    _pay(client, fine, _form("10", **{"pay-receipt_number": "BOOK-1"}))
    body = _pay(client, fine, _form("10", **{"pay-receipt_number": "BOOK-1"}))
    assert "Receipt number BOOK-1 is already used" in body.content.decode()
    assert Payment.objects.count() == 1


def test_the_clerk_reads_the_charge_but_records_nothing(fine, client_as):
    client = client_as("clerk")
    page = client.get(fine.get_absolute_url())
    assert page.status_code == 200
    assert "Record a payment" not in page.content.decode()
    assert _pay(client, fine, _form()).status_code == 403


def test_voiding_a_payment_with_its_reason(fine, smo_user, client_as):
    payment = services.payment_record(
        charge=fine, actor=smo_user, received_on=ISSUED, amount="250", method="cash"
    )
    client = client_as("smo")
    url = reverse("ledger:payment_void", args=[payment.pk])
    prefix = f"void{payment.pk}"
    page = client.post(url, confirmed(prefix, {f"{prefix}-reason": ""}))
    assert "Give the reason" in page.content.decode()
    response = client.post(url, confirmed(prefix, {f"{prefix}-reason": "Typo"}))
    page = client.get(response.url).content.decode()
    assert f"Receipt {payment.receipt_number} ($250.00) voided" in page
    assert "Typo" in page
    assert Charge.objects.get(pk=fine.pk).balance() == Decimal(250)


def test_writing_off_with_a_reason(fine, client_as):
    url = reverse("ledger:charge_write_off", args=[fine.pk])
    assert client_as("clerk").post(url, {}).status_code == 403
    client = client_as("smo")
    response = client.post(
        url, confirmed("writeoff", {"writeoff-reason": "Uncollectable"})
    )
    page = client.get(response.url).content.decode()
    assert "The balance of $250.00 on" in page and "Uncollectable" in page
    assert Charge.objects.get(pk=fine.pk).status == ChargeStatus.WRITTEN_OFF


def test_the_ledger_filters_and_exports(fine, smo_user, client_as):
    services.payment_record(
        charge=fine, actor=smo_user, received_on=ISSUED, amount="50", method="cash"
    )
    client = client_as("clerk")
    page = client.get(reverse("ledger:list"), {"status": "partly_paid"})
    assert fine.reference in page.content.decode()
    page = client.get(reverse("ledger:list"), {"status": "paid"})
    assert fine.reference not in page.content.decode()
    page = client.get(reverse("ledger:list"), {"kind": "court_fine"})
    assert fine.reference not in page.content.decode()
    page = client.get(
        reverse("ledger:list"), {"issued_from": "2026-03-04", "issued_to": "2026-12-31"}
    )
    assert fine.reference not in page.content.decode()
    export = client.get(reverse("ledger:export_csv"), {"status": "partly_paid"})
    text = b"".join(export.streaming_content).decode("utf-8-sig")
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [r["Reference"] for r in rows] == [fine.reference]
    assert rows[0]["Balance"] == "200.00" and rows[0]["Issued on"] == "2026-03-03"
    xlsx = client.get(reverse("ledger:export_xlsx"))
    assert xlsx.status_code == 200


def test_the_treasurers_report_reconciles_to_the_payments(fine, smo_user, client_as):
    days = [ISSUED, ISSUED, ISSUED + dt.timedelta(days=1), dt.date(2026, 4, 2)]
    amounts = ["10.25", "20.50", "30.00", "40.10"]
    made = [
        services.payment_record(
            charge=fine, actor=smo_user, received_on=d, amount=a, method="cash"
        )
        for d, a in zip(days, amounts, strict=True)
    ]
    services.payment_void(payment=made[1], actor=smo_user, reason="Entered twice")
    client = client_as("clerk")
    page = client.get(
        reverse("ledger:treasurer"), {"start": "2026-03-01", "end": "2026-04-30"}
    ).content.decode()
    counted = Payment.objects.filter(
        voided_at__isnull=True, received_on__range=("2026-03-01", "2026-04-30")
    )
    total = sum(p.amount for p in counted)
    assert total == Decimal("80.35")
    assert "Total received: <strong>$80.35</strong> in 3 payments" in page
    assert "March 2026: $40.25" in page and "April 2026: $40.10" in page
    for p in counted:
        assert p.receipt_number in page
    assert "Entered twice" in page  # the voided one is listed apart
    export = client.get(
        reverse("ledger:payments_csv"), {"start": "2026-03-01", "end": "2026-04-30"}
    )
    text = b"".join(export.streaming_content).decode("utf-8-sig")
    rows = list(csv.DictReader(io.StringIO(text)))
    assert sum(Decimal(r["Amount"]) for r in rows) == total
    assert timezone.localdate()  # the default period is this month (no error)
    assert client.get(reverse("ledger:treasurer")).status_code == 200


@pytest.mark.parametrize("act", ["void", "writeoff", "refer", "dispose"])
def test_each_binding_act_asks_for_the_confirmation(act, fine, smo_user, client_as):
    from ledger import court

    client = client_as("smo")
    if act == "void":
        payment = services.payment_record(
            charge=fine, actor=smo_user, received_on=ISSUED, amount="5", method="cash"
        )
        url = reverse("ledger:payment_void", args=[payment.pk])
        data = {f"void{payment.pk}-reason": "Typo"}
    elif act == "writeoff":
        url = reverse("ledger:charge_write_off", args=[fine.pk])
        data = {"writeoff-reason": "Hardship"}
    elif act == "refer":
        url = reverse("ledger:charge_refer", args=[fine.pk])
        data = {"refer-referred_on": "2026-04-20"}
    else:
        referral = court.court_refer(
            charge=fine, actor=smo_user, referred_on=dt.date(2026, 4, 20)
        )
        url = reverse("ledger:referral_disposition", args=[referral.pk])
        data = {
            "dispose-docket_number": "1",
            "dispose-outcome": "dismissed",
            "dispose-outcome_on": "2026-05-01",
        }
    page = client.post(url, data)
    assert page.status_code == 200
    assert "Tick “I confirm”" in page.content.decode()
    fine = Charge.objects.get(pk=fine.pk)
    assert not fine.is_written_off
    assert not Payment.objects.filter(voided_at__isnull=False).exists()
    if act == "refer":
        assert fine.referred_on is None
    if act == "dispose":
        assert not referral.__class__.objects.get(pk=referral.pk).outcome


def test_the_ledger_list_reads_a_fixed_number_of_queries(
    fine, smo_user, client_as, django_assert_max_num_queries
):
    from cases.models import Party
    from ledger.models import ChargeKind

    client = client_as("clerk")
    client.get(reverse("ledger:list"))  # warm the session and the user's roles
    with django_assert_max_num_queries(12) as few:
        client.get(reverse("ledger:list"))
    for n in range(5):
        payer = Party.objects.create(name=f"Payer {n}")
        charge = services.charge_create(
            kind=ChargeKind.COURT_FINE,
            case=fine.case,
            payer=payer,
            amount="10",
            reference=f"JC-{n}",
            issued_on=ISSUED,
            actor=smo_user,
        )
        services.payment_record(
            charge=charge, actor=smo_user, received_on=ISSUED, amount="5", method="cash"
        )
    with django_assert_max_num_queries(len(few.captured_queries)):
        page = client.get(reverse("ledger:list"))
    assert "JC-4" in page.content.decode()


def test_the_notice_page_links_its_fine_on_the_ledger(fine, fined_notice, client_as):
    page = client_as("smo").get(fined_notice.get_absolute_url()).content.decode()
    assert "On the ledger:" in page and fine.get_absolute_url() in page
    assert "balance $250.00" in page
