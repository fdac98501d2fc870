"""Each payment's receipt (issue 27): a document of the pipeline saying what was
received, against what and what remains; e-mailed through the outbox when the
payer gave an address, not otherwise."""

import datetime as dt

import pytest

from documents.selectors import latest_document
from documents.services import document_render
from ledger import services
from ledger.document_kinds import LedgerDocument
from outbox.models import OutgoingMessage

from .conftest import ISSUED

pytestmark = pytest.mark.django_db
KIND = LedgerDocument.PAYMENT_RECEIPT


def _pay(charge, actor, amount):
    return services.payment_record(
        charge=charge,
        actor=actor,
        received_on=ISSUED + dt.timedelta(days=1),
        amount=amount,
        method="check",
        check_number="1042",
    )


def test_a_payment_issues_its_receipt(fine, smo_user, client_as):
    payment = _pay(fine, smo_user, "100")
    receipt = latest_document(payment, KIND)
    assert receipt.document_number == payment.receipt_number
    assert receipt.case == fine.case
    html = receipt.html
    for words in (
        "Receipt for a payment",
        payment.receipt_number,
        "Pat Owner",
        "$100.00",
        "check no. 1042",
        fine.reference,
        "$250.00",
        "$150.00",
        "How to pay the balance",
        "Monday to Friday",
    ):
        assert words in html, words
    page = client_as("smo").get(fine.get_absolute_url()).content.decode()
    assert 'data-testid="receipt-link"' in page


def test_paid_in_full_the_receipt_says_so(fine, smo_user):
    payment = _pay(fine, smo_user, "250")
    html = latest_document(payment, KIND).html
    assert "is paid in full" in html and "How to pay the balance" not in html


def test_the_receipt_is_emailed_when_the_payer_gave_an_address(fine, smo_user):
    _pay(fine, smo_user, "10")
    assert (
        not OutgoingMessage.objects.filter(recipient__isnull=False)
        .exclude(recipient="")
        .filter(subject__contains="Receipt")
        .exists()
    )
    fine.payer.email = "pat@example.com"
    fine.payer.save()
    payment = _pay(fine, smo_user, "10")
    message = OutgoingMessage.objects.get(recipient="pat@example.com")
    assert payment.receipt_number in message.subject


def test_a_voided_payment_is_issued_again_marked_void_with_the_reason(fine, smo_user):
    """A treasurer reconciling receipts finds the voided one marked so, not only
    struck through on the ledger; the first version stays, superseded."""
    payment = _pay(fine, smo_user, "100")
    first = document_render(document_id=latest_document(payment, KIND).pk)
    assert "This receipt is void" not in first.html
    services.payment_void(payment=payment, actor=smo_user, reason="Check bounced.")
    void = latest_document(payment, KIND)
    assert void.pk != first.pk
    assert void.document_number == payment.receipt_number
    for words in (
        "This receipt is void",
        "Check bounced.",
        "It no longer counts toward " + fine.reference,
        "Paid to date, without this payment",
        "$250.00",  # the balance is the whole fine again
    ):
        assert words in void.html, words


def test_a_void_while_the_first_receipt_still_renders_voids_the_payment(fine, smo_user):
    payment = _pay(fine, smo_user, "100")  # its PDF not made yet
    voided = services.payment_void(
        payment=payment, actor=smo_user, reason="Typed twice."
    )
    assert voided.is_voided
    assert fine.balance() == fine.amount
    assert latest_document(payment, KIND).version == 1
