"""The ledger's services (issue 27): a notice's fine is a charge with its due
date from the engine; payments paid in full, partial then full, voided; an
overpayment, a bad date, a duplicate receipt refused; a balance written off."""

import datetime as dt
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from enforcement.models import NoticeOfViolation
from kernel.models import CaseEvent
from kernel.roles import Role
from kernel.workflow import Refused
from ledger import services
from ledger.models import Charge, ChargeStatus, Payment
from tests.conftest import make_user

from .conftest import ISSUED

pytestmark = pytest.mark.django_db
TODAY = timezone.localdate


def pay(charge, actor, amount, **more):
    values = {
        "charge": charge,
        "actor": actor,
        "received_on": ISSUED + dt.timedelta(days=2),
        "amount": Decimal(amount),
        "method": "cash",
    }
    values.update(more)
    return services.payment_record(**values)


def test_issuing_a_notice_with_a_fine_charges_it_to_the_recipient(fined_notice, fine):
    assert fine.amount == Decimal("250.00")
    assert fine.payer == fined_notice.recipient
    assert fine.reference == f"NOV-{fined_notice.pk}"
    assert fine.issued_on == ISSUED
    assert fine.status == ChargeStatus.UNPAID and fine.balance() == Decimal(250)


def test_the_fine_is_due_on_the_last_day_to_appeal_from_the_engine(fined_notice, fine):
    # R-APL-1: no payment period in the law; the fine is final once the 15 days
    # to appeal are over (the stored deadline the notice printed).
    appeal = fined_notice.last_day_to_appeal()
    assert fine.due_on == appeal.due_date
    assert fine.due_rule_id == "R-APL-1"
    assert "last day to appeal" in fine.due_explanation


def test_a_notice_without_a_fine_charges_nothing(issued_notice):
    assert not Charge.objects.filter(notice=issued_notice).exists()


def test_paid_in_full_in_one_payment(fine, smo_user):
    payment = pay(fine, smo_user, "250.00", method="check", check_number="1042")
    assert payment.receipt_number.startswith("R-2026-")
    fine.refresh_from_db()
    assert fine.status == ChargeStatus.PAID and fine.balance() == 0
    event = CaseEvent.objects.filter(case=fine.case).order_by("-pk").first()
    assert "$250.00" in event.summary and "paid in full" in event.summary
    assert payment.receipt_number in event.summary
    assert event.actor == smo_user


def test_partial_then_full(fine, smo_user):
    first = pay(fine, smo_user, "100")
    assert fine.balance() == Decimal("150.00")
    assert Charge.objects.get(pk=fine.pk).status == ChargeStatus.PARTLY_PAID
    second = pay(fine, smo_user, "150.00")
    assert first.receipt_number != second.receipt_number
    assert Charge.objects.get(pk=fine.pk).status == ChargeStatus.PAID


def test_an_overpayment_is_refused_naming_the_balance(fine, smo_user):
    pay(fine, smo_user, "200")
    with pytest.raises(ValidationError) as err:
        pay(fine, smo_user, "50.01")
    assert "$50.00" in err.value.message_dict["amount"][0]
    assert Payment.objects.count() == 1


@pytest.mark.parametrize(
    ("amount", "words"),
    [
        ("0", "more than $0.00"),
        ("-5", "more than $0.00"),
        ("10.005", "at most two decimals"),
        ("ten", "dollars and cents"),
    ],
)
def test_bad_amounts_are_refused_on_their_field(fine, smo_user, amount, words):
    with pytest.raises(ValidationError) as err:
        services.payment_record(
            charge=fine,
            actor=smo_user,
            received_on=ISSUED,
            amount=amount,
            method="cash",
        )
    assert words in err.value.message_dict["amount"][0]


def test_dates_in_the_future_or_before_the_charge_are_refused(fine, smo_user):
    with pytest.raises(ValidationError) as err:
        pay(fine, smo_user, "10", received_on=TODAY() + dt.timedelta(days=1))
    assert "future" in err.value.message_dict["received_on"][0]
    with pytest.raises(ValidationError) as err:
        pay(fine, smo_user, "10", received_on=ISSUED - dt.timedelta(days=1))
    assert "cannot precede" in err.value.message_dict["received_on"][0]


def test_a_duplicate_receipt_number_is_refused(fine, smo_user):
    pay(fine, smo_user, "10", receipt_number="BOOK-17")
    with pytest.raises(ValidationError) as err:
        pay(fine, smo_user, "10", receipt_number="BOOK-17")
    assert "already used" in err.value.message_dict["receipt_number"][0]


def test_a_check_needs_its_number(fine, smo_user):
    with pytest.raises(ValidationError) as err:
        pay(fine, smo_user, "10", method="check")
    assert "check number" in err.value.message_dict["check_number"][0]


def test_receipt_numbers_follow_a_sequence_and_skip_a_typed_one(fine, smo_user):
    a = pay(fine, smo_user, "10")
    n = int(a.receipt_number.rsplit("-", 1)[1])
    pay(fine, smo_user, "10", receipt_number=f"R-2026-{n + 1:05d}")
    c = pay(fine, smo_user, "10")
    assert c.receipt_number == f"R-2026-{n + 2:05d}"


def test_a_voided_payment_stays_and_no_longer_counts(fine, smo_user):
    payment = pay(fine, smo_user, "250")
    with pytest.raises(ValidationError):
        services.payment_void(payment=payment, actor=smo_user, reason=" ")
    services.payment_void(payment=payment, actor=smo_user, reason="Check bounced")
    payment.refresh_from_db()
    assert payment.is_voided and payment.void_reason == "Check bounced"
    assert Charge.objects.get(pk=fine.pk).balance() == Decimal(250)
    with pytest.raises(Refused):
        services.payment_void(payment=payment, actor=smo_user, reason="again")
    assert Payment.objects.filter(pk=payment.pk).exists()


def test_write_off_needs_the_smo_and_a_reason(fine, smo_user, clerk_user):
    pay(fine, smo_user, "50")
    with pytest.raises(Refused):
        services.charge_write_off(charge=fine, actor=clerk_user, reason="x")
    with pytest.raises(ValidationError):
        services.charge_write_off(charge=fine, actor=smo_user, reason="")
    services.charge_write_off(charge=fine, actor=smo_user, reason="Respondent died")
    fine = Charge.objects.get(pk=fine.pk)
    assert fine.status == ChargeStatus.WRITTEN_OFF and fine.balance() == 0
    with pytest.raises(Refused):
        pay(fine, smo_user, "10")


def test_only_the_smo_records_payments(fine, clerk_user):
    with pytest.raises(Refused):
        pay(fine, clerk_user, "10")
    other = make_user("attorney2", Role.ATTORNEY)
    with pytest.raises(Refused):
        pay(fine, other, "10")


def test_a_withdrawn_notice_cancels_its_fine(fined_notice, fine, smo_user):
    from enforcement.services import notices as notice_services

    notice_services.notice_withdraw(
        notice=fined_notice, actor=smo_user, reason="Issued to the wrong person"
    )
    fine = Charge.objects.get(pk=fine.pk)
    assert NoticeOfViolation.objects.get(pk=fined_notice.pk).status == "withdrawn"
    assert fine.status == ChargeStatus.CANCELLED and fine.balance() == 0


def test_the_fines_charge_is_in_the_chronology_by_the_smo_who_issued(fine, smo_user):
    event = CaseEvent.objects.get(
        case=fine.case, summary__startswith="Charged on the ledger"
    )
    assert event.actor == smo_user
    assert event.actor_kind == CaseEvent.ActorKind.STAFF
    assert "$250.00" in event.summary and fine.reference in event.summary
    assert "R-NOV" not in event.summary  # the rule id is the event's own field
    assert event.rule_id == "R-NOV-1"


def test_only_the_smo_puts_a_charge_on_the_ledger_by_hand(fine, clerk_user):
    with pytest.raises(Refused):
        services.charge_create(
            kind="court_fine",
            case=fine.case,
            payer=fine.payer,
            amount="10",
            reference="JC-1",
            issued_on=ISSUED,
            actor=clerk_user,
        )


def test_two_clerks_with_the_same_charge_cannot_both_take_its_balance(fine, smo_user):
    first, second = Charge.objects.get(pk=fine.pk), Charge.objects.get(pk=fine.pk)
    pay(first, smo_user, "200")
    # The second copy was read before the first payment: the locked row decides.
    with pytest.raises(ValidationError) as err:
        pay(second, smo_user, "100")
    assert "$50.00" in err.value.message_dict["amount"][0]


def test_a_withdrawn_notice_with_a_payment_says_it_is_to_refund(
    fined_notice, fine, smo_user, client_as
):
    from enforcement.services import notices as notice_services

    pay(fine, smo_user, "40")
    notice_services.notice_withdraw(
        notice=fined_notice, actor=smo_user, reason="Issued to the wrong person"
    )
    page = client_as("smo").get(fine.get_absolute_url()).content.decode()
    assert "$40.00 received: to refund or apply" in page
