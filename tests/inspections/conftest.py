"""Fixtures of the inspections tests: places, a facility, an outfall, a clock."""

import datetime as dt
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from cases.models import Outfall, Premises
from inspections import services
from inspections.models import Facility, Inspection

NY = ZoneInfo("America/New_York")


def at(y, m, d, hh=9, mm=0):
    """An aware datetime in the village's time zone."""
    return dt.datetime(y, m, d, hh, mm, tzinfo=NY)


@pytest.fixture
def clock(monkeypatch):
    """Set "now" (timezone.now, hence localdate) to a chosen moment."""

    def set_now(moment: dt.datetime):
        monkeypatch.setattr(timezone, "now", lambda: moment.astimezone(dt.UTC))
        return moment

    return set_now


@pytest.fixture
def premises(db):
    return Premises.objects.create(
        address="1 Shore Road", land_use=Premises.LandUse.RESIDENTIAL
    )


@pytest.fixture
def yard(db):
    return Premises.objects.create(
        address="40 Washington Street", land_use=Premises.LandUse.INDUSTRIAL
    )


@pytest.fixture
def facility(yard, smo_user):
    return services.facility_save(
        actor=smo_user,
        premises=yard,
        name="Boat Yard",
        permit_type=Facility.PermitType.INDUSTRIAL,
        permit_number="NYR00A001",
        permit_issued_on=dt.date(2025, 1, 1),
        permit_expires_on=dt.date(2030, 1, 1),
        ms4_approval_on=dt.date(2025, 2, 1),
        ms4_approval_reference="SMO letter 12",
        contact_email="yard@example.org",
    )


@pytest.fixture
def construction_fields(yard):
    return {
        "premises": yard,
        "name": "Harbor Heights subdivision",
        "permit_type": Facility.PermitType.CONSTRUCTION,
        "permit_number": "NYR10C999",
        "permit_issued_on": dt.date(2026, 3, 1),
        "disturbed_acres": Decimal("0.125"),
    }


@pytest.fixture
def outfall(db):
    return Outfall.objects.create(
        code="PQ-009",
        location_description="End of Birchwood Road",
        receiving_water="Port Jefferson Harbor",
        is_303d_listed=True,
    )


@pytest.fixture
def scheduled(smo_user, premises):
    return services.inspection_schedule(
        actor=smo_user,
        kind=Inspection.Kind.COMPLAINT,
        premises=premises,
        officer=smo_user,
        scheduled_for=timezone.now() + dt.timedelta(days=1),
    )


def record(inspection, user, outcome="granted", notes="", when=None):
    return services.inspection_record(
        actor=user,
        inspection=inspection,
        performed_at=when or timezone.now() - dt.timedelta(hours=1),
        attendees="S. Officer, J. Tech",
        access_outcome=outcome,
        access_notes=notes,
        findings="Floor drain to storm sewer.",
    )
