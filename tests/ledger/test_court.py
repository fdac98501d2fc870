"""The Justice Court (issue 27): a charge past due is in the SMO's work queue
with "Refer to the Justice Court"; the referral prints a court packet; the
disposition is recorded: a conviction enters the offense history (and raises
the tier of a later notice) and its fine becomes a charge; dismissed and
adjourned do neither."""

import datetime as dt
import io
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from pypdf import PdfReader

from enforcement.models import OffenseRecord
from enforcement.penalties import tier_for_party
from kernel.workflow import Refused
from ledger import court, services
from ledger.models import Charge, ChargeKind, ChargeStatus, CourtReferral
from tests.jobs.worker import made_by_worker
from tests.steps import confirmed

from .conftest import ISSUED

pytestmark = pytest.mark.django_db
REFERRED = dt.date(2026, 4, 20)


def _refer(fine, smo_user):
    return court.court_refer(charge=fine, actor=smo_user, referred_on=REFERRED)


def test_a_past_due_charge_is_in_the_smos_queue_with_the_referral(fine, client_as):
    page = client_as("smo").get(reverse("cases:dashboard")).content.decode()
    assert "Charges past due" in page
    assert f"Refer to the Justice Court: {fine.reference}" in page
    assert "$250.00 unpaid" in page


def test_referring_from_the_charge_page_then_the_packet(fine, client_as):
    client = client_as("smo")
    url = reverse("ledger:charge_refer", args=[fine.pk])
    page = client.post(url, {"refer-referred_on": REFERRED.isoformat()})
    assert "Tick “I confirm”" in page.content.decode()
    response = client.post(
        url,
        confirmed(
            "refer", {"refer-referred_on": REFERRED.isoformat(), "refer-note": "x"}
        ),
    )
    referral = CourtReferral.objects.get(charge=fine)
    assert response.url == referral.get_absolute_url()
    assert Charge.objects.get(pk=fine.pk).status == ChargeStatus.REFERRED
    page = client.get(reverse("cases:dashboard")).content.decode()
    assert f"Refer to the Justice Court: {fine.reference}" not in page
    packet = made_by_worker(client, reverse("ledger:packet", args=[referral.pk]))
    assert packet["Content-Type"] == "application/pdf"
    reader = PdfReader(io.BytesIO(packet.content))
    text = " ".join(p.extract_text() for p in reader.pages).replace("\n", " ")
    for words in (
        "Justice Court packet · case",
        "Pat Owner",
        fine.reference,
        "Weeks of continued violation",
        "Ledger of the case",
        "Chronology",
        fine.case.number,
    ):
        assert words in text, words
    titles = [o.title for o in reader.outline]
    assert "Referral to the Justice Court" in titles


def test_a_referral_is_refused_twice_and_once_paid(fine, smo_user):
    _refer(fine, smo_user)
    with pytest.raises(Refused):
        _refer(fine, smo_user)


def test_convicted_enters_the_offense_history_and_the_court_fine_is_a_charge(
    fine, fined_notice, smo_user, clerk_user, owner
):
    referral = _refer(fine, smo_user)
    court.court_record_disposition(
        referral=referral,
        actor=clerk_user,
        docket_number="24-0117",
        outcome="convicted",
        outcome_on=dt.date(2026, 5, 14),
        fine_imposed="300",
        surcharge_imposed="25",
        imprisonment_days=None,
    )
    referral.refresh_from_db()
    offense = referral.offense
    assert offense.outcome == OffenseRecord.Outcome.CONVICTED
    assert (
        offense.party == owner and offense.committed_on == fined_notice.violation_date
    )
    assert offense.fine_imposed == Decimal("300.00")
    court_fine = referral.court_fine
    assert court_fine.kind == ChargeKind.COURT_FINE
    assert court_fine.amount == Decimal("325.00") and court_fine.payer == owner
    # A conviction counts for the tier of the next notice (R-PEN-2).
    later = tier_for_party(owner, dt.date(2026, 9, 1))
    assert later.tier.number == 2
    with pytest.raises(Refused):
        court.court_record_disposition(
            referral=referral,
            actor=smo_user,
            docket_number="24-0117",
            outcome="dismissed",
            outcome_on=dt.date(2026, 5, 15),
        )


def test_dismissed_and_adjourned_impose_nothing(fine, smo_user, owner):
    referral = _refer(fine, smo_user)
    with pytest.raises(ValidationError) as err:
        court.court_record_disposition(
            referral=referral,
            actor=smo_user,
            docket_number="24-0118",
            outcome="adjourned",
            outcome_on=dt.date(2026, 5, 1),
        )
    assert "adjourned to" in err.value.message_dict["adjourned_to"][0]
    court.court_record_disposition(
        referral=referral,
        actor=smo_user,
        docket_number="24-0118",
        outcome="adjourned",
        outcome_on=dt.date(2026, 5, 1),
        adjourned_to=dt.date(2026, 6, 1),
    )
    assert "Adjourned to" in CourtReferral.objects.get(pk=referral.pk).status_words()
    with pytest.raises(ValidationError):
        court.court_record_disposition(
            referral=referral,
            actor=smo_user,
            docket_number="24-0118",
            outcome="dismissed",
            outcome_on=dt.date(2026, 6, 1),
            fine_imposed="100",
        )
    court.court_record_disposition(
        referral=referral,
        actor=smo_user,
        docket_number="24-0118",
        outcome="dismissed",
        outcome_on=dt.date(2026, 6, 1),
    )
    assert not OffenseRecord.objects.filter(party=owner).exists()
    assert not Charge.objects.filter(kind=ChargeKind.COURT_FINE).exists()


def test_the_disposition_form_on_the_referral_page(fine, smo_user, client_as):
    referral = _refer(fine, smo_user)
    client = client_as("clerk")
    url = reverse("ledger:referral_disposition", args=[referral.pk])
    data = {
        "dispose-docket_number": "24-0119",
        "dispose-outcome": "convicted",
        "dispose-outcome_on": "2026-05-14",
        "dispose-fine_imposed": "10.005",
    }
    page = client.post(url, confirmed("dispose", data)).content.decode()
    assert "at most two decimals" in page and 'value="24-0119"' in page
    data["dispose-fine_imposed"] = "200"
    response = client.post(url, confirmed("dispose", data))
    page = client.get(response.url).content.decode()
    assert "Convicted" in page and "JC-24-0119" in page
    # A referred balance lets the case be resolved (the guard): settled.
    assert Charge.objects.get(pk=fine.pk).settled


def test_only_the_smo_refers(fine, clerk_user):
    with pytest.raises(Refused):
        court.court_refer(charge=fine, actor=clerk_user, referred_on=REFERRED)


def test_a_paid_charge_is_not_referred(fine, smo_user):
    services.payment_record(
        charge=fine, actor=smo_user, received_on=ISSUED, amount="250", method="cash"
    )
    with pytest.raises(Refused):
        _refer(fine, smo_user)
