"""Resolving a case with an unpaid balance (issue 27): refused, saying what is
owed, until the balance is paid, written off by the SMO with a reason, or
referred to the Justice Court; the case page says which."""

import datetime as dt

import pytest

from cases.models import CaseStatus
from cases.services import case_run_transition
from kernel.workflow import Refused
from ledger import services

from .conftest import ISSUED

pytestmark = pytest.mark.django_db


def _resolve(case, smo):
    return case_run_transition(
        case=case,
        transition="resolve",
        actor=smo,
        eliminated_on=ISSUED + dt.timedelta(days=5),
        verification="Dye test at the catch basin: clear.",
    )


def test_an_unpaid_fine_stops_the_case_from_being_resolved(fine, smo_user):
    with pytest.raises(Refused) as err:
        _resolve(fine.case, smo_user)
    assert f"$250.00 on {fine.reference}" in str(err.value)
    assert "written off" in str(err.value) and "Justice Court" in str(err.value)


def test_a_part_payment_still_stops_it_and_paid_in_full_lets_it(fine, smo_user):
    services.payment_record(
        charge=fine, actor=smo_user, received_on=ISSUED, amount="200", method="cash"
    )
    with pytest.raises(Refused, match=r"\$50.00 on"):
        _resolve(fine.case, smo_user)
    services.payment_record(
        charge=fine, actor=smo_user, received_on=ISSUED, amount="50", method="cash"
    )
    assert _resolve(fine.case, smo_user).status == CaseStatus.RESOLVED


def test_a_balance_written_off_lets_it(fine, smo_user, client_as):
    services.charge_write_off(charge=fine, actor=smo_user, reason="Hardship")
    page = client_as("smo").get(fine.case.get_absolute_url()).content.decode()
    assert "Written off" in page
    assert "Every charge is paid, written off, referred or cancelled." in page
    assert _resolve(fine.case, smo_user).status == CaseStatus.RESOLVED


def test_the_case_page_says_why_it_cannot_be_resolved(fine, client_as):
    client = client_as("smo")
    page = client.get(fine.case.get_absolute_url()).content.decode()
    assert "Unpaid balance on " + fine.reference in page
    # "Record resolved" is shown disabled with the reason, in words.
    assert f"settle the unpaid balance first ($250.00 on {fine.reference})" in page
    fine.case.refresh_from_db()
    assert fine.case.status != CaseStatus.RESOLVED
