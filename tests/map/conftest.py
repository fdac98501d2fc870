"""Fixtures of the map tests: a few records with places, built through the
services where the project has one (cases and reports by factory Traits)."""

import datetime as dt
from decimal import Decimal

import pytest
from django.core.cache import cache
from django.utils import timezone

from cases.models import CaseKind, Outfall, Premises
from cases.services import case_open
from inspections import services as field_services
from inspections.models import Inspection, OutfallScreening
from intake.models import Report
from intake.services import report_submit

from ..cases.factories import CaseFactory
from ..reports.helpers import category


@pytest.fixture(autouse=True)
def _fresh_rate_limits(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    cache.clear()
    yield
    cache.clear()


def report_at(lat, lon, *, days_ago=0, **fields):
    """A web report pinned at (lat, lon), received `days_ago` days ago."""
    base = {
        "description": "Grey water from Mrs. Reporter's neighbour's pipe",
        "address": "12 Birchwood Avenue",
        "latitude": Decimal(lat),
        "longitude": Decimal(lon),
        "reporter_name": "Rita Reporter",
        "reporter_email": "rita.reporter@example.org",
        "reporter_phone": "631-555-0142",
        "wants_updates": True,
    }
    base.update(fields)
    report = report_submit(
        channel=Report.Channel.WEB,
        fields=base,
        pollutant_categories=[category("wash-water")],
    )
    if days_ago:
        Report.objects.filter(pk=report.pk).update(
            received_at=timezone.now() - dt.timedelta(days=days_ago)
        )
        report.refresh_from_db()
    return report


@pytest.fixture
def places(smo_user):
    """Two open cases (one pinned, one at its premises), a resolved one, a
    recent and an old report, two outfalls (one screened twice), an inspection
    due and a cancelled one."""
    premises = Premises.objects.create(
        address="30 Washington Street",
        latitude=Decimal("40.954100"),
        longitude=Decimal("-73.085000"),
    )
    open_pinned = case_open(
        actor=smo_user,
        source="phone",
        summary="Suds in the drain",
        kind=CaseKind.ILLICIT_DISCHARGE,
        latitude=Decimal("40.952300"),
        longitude=Decimal("-73.090500"),
    )
    open_at_premises = case_open(
        actor=smo_user,
        source="phone",
        summary="A pipe to the street",
        kind=CaseKind.ILLICIT_CONNECTION,
        premises=premises,
    )
    resolved = CaseFactory(
        resolved=True,
        latitude=Decimal("40.948000"),
        longitude=Decimal("-73.086000"),
    )
    recent = report_at("40.951234", "-73.087654", days_ago=10)
    old = report_at("40.949000", "-73.084000", days_ago=120)
    screened = Outfall.objects.create(
        code="PQ-001",
        location_description="End of Washington Street",
        receiving_water="Port Jefferson Harbor",
        latitude=Decimal("40.954500"),
        longitude=Decimal("-73.079800"),
    )
    unscreened = Outfall.objects.create(
        code="PQ-002",
        location_description="Birchwood Avenue ditch",
        receiving_water="Port Jefferson Harbor",
        latitude=Decimal("40.950000"),
        longitude=Decimal("-73.096000"),
    )
    for days, severity in ((20, "none"), (3, "obvious")):
        field_services.screening_record(
            actor=smo_user,
            outfall=screened,
            screened_at=timezone.now() - dt.timedelta(days=days),
            hours_since_rain=96,
            flow_present=severity == "obvious",
            flow_rate="trickle" if severity == "obvious" else "none",
            colour="strong" if severity == "obvious" else "none",
            severity=getattr(OutfallScreening.Severity, severity.upper()),
        )
    due = field_services.inspection_schedule(
        actor=smo_user,
        kind=Inspection.Kind.COMPLAINT,
        premises=premises,
        officer=smo_user,
        scheduled_for=timezone.now() + dt.timedelta(days=2),
    )
    cancelled = field_services.inspection_schedule(
        actor=smo_user,
        kind=Inspection.Kind.ROUTINE,
        premises=premises,
        officer=smo_user,
        scheduled_for=timezone.now() + dt.timedelta(days=5),
    )
    field_services.inspection_cancel(
        actor=smo_user, inspection=cancelled, reason="Owner away"
    )
    return {
        "premises": premises,
        "open_pinned": open_pinned,
        "open_at_premises": open_at_premises,
        "resolved": resolved,
        "recent": recent,
        "old": old,
        "screened": screened,
        "unscreened": unscreened,
        "due": due,
        "cancelled": cancelled,
    }
