"""What the SMO sees of the fine tier (§ 132-13 B, R-PEN-1..3, issue 25): only
convictions of offenses committed within five years raise it; a charge pending in
court is shown as "pending, not counted" on the draft, the issued notice and the
person's offense history."""

import datetime as dt
from decimal import Decimal

import pytest
from django.urls import reverse

from enforcement.models import NoticeStatus, OffenseRecord, RequirementKind
from tests.steps import confirmed

from .conftest import draft

pytestmark = pytest.mark.django_db

# The fixtures' violation was committed on 2026-03-02.
PENDING_ON = dt.date(2025, 6, 1)
CONVICTED_ON = dt.date(2024, 1, 10)


def offense(party, committed_on, outcome, description):
    return OffenseRecord.objects.create(
        party=party,
        committed_on=committed_on,
        description=description,
        outcome=outcome,
    )


def fine_form(case, amount):
    return {
        "recipient": case.responsible_party_id,
        "violation_date": "2026-03-02",
        "findings": "Pool water pumped to the catch basin.",
        "req_fine": "on",
        "particulars_fine": "Pay the fine.",
        "proposed_fine": amount,
    }


def test_a_pending_charge_is_shown_on_the_draft_and_leaves_a_first_offense(
    confirmed_case, owner, client_as
):
    offense(owner, PENDING_ON, OffenseRecord.Outcome.PENDING, "Oil to the drain")
    client = client_as("smo")
    url = reverse("enforcement:notice_create", args=[confirmed_case.pk])

    page = client.get(url).content.decode()
    assert "Jun 1, 2025 (Oil to the drain), pending, not counted" in page
    assert "a first offense (R-PEN-1)" in page

    # A second offense's fine is refused: the pending charge does not count.
    page = client.post(url, fine_form(confirmed_case, "500")).content.decode()
    assert "outside the range of a first offense" in page
    assert not confirmed_case.notices.exists()


def test_a_conviction_within_five_years_makes_the_issued_notice_a_second_offense(
    confirmed_case, owner, smo_user, client_as
):
    offense(owner, CONVICTED_ON, OffenseRecord.Outcome.CONVICTED, "Pool water")
    offense(owner, PENDING_ON, OffenseRecord.Outcome.PENDING, "Oil to the drain")
    notice = draft(
        confirmed_case,
        smo_user,
        requirements=[(RequirementKind.FINE, "Pay the fine.")],
        remediation_days=None,
        proposed_fine=Decimal("500"),
    )
    client = client_as("smo")
    detail = reverse("enforcement:notice_detail", args=[notice.pk])
    page = client.get(detail).content.decode()
    assert "a second offense (R-PEN-2)" in page
    assert "pending, not counted" in page

    client.post(
        reverse("enforcement:notice_step", args=[notice.pk, "issue"]),
        confirmed("issue"),
    )
    notice.refresh_from_db()
    assert notice.status == NoticeStatus.ISSUED
    assert notice.fine_tier == 2
    page = client.get(detail).content.decode()
    assert "Prior convictions within five years: 1 — Jan 10, 2024 (Pool water)" in page
    assert "Jun 1, 2025 (Oil to the drain), pending, not counted" in page


def test_the_offense_history_says_what_counts_toward_the_tier(owner, client_as):
    offense(owner, CONVICTED_ON, OffenseRecord.Outcome.CONVICTED, "Pool water")
    offense(owner, PENDING_ON, OffenseRecord.Outcome.PENDING, "Oil to the drain")
    offense(owner, dt.date(2023, 3, 1), OffenseRecord.Outcome.DISMISSED, "Hose")
    page = (
        client_as("smo")
        .get(reverse("enforcement:party_offenses", args=[owner.pk]))
        .content.decode()
    )
    assert "A charge still pending in court is shown but not counted" in page
    rows = {
        description: row
        for row in page.split("<tr>")
        for description in ("Pool water", "Oil to the drain", "Hose")
        if description in row
    }
    assert "Counted (a conviction)" in rows["Pool water"]
    assert "Pending, not counted" in rows["Oil to the drain"]
    assert "Not counted (no offense)" in rows["Hose"]
