"""Demo records of the inspections app (loaded by `manage.py load_demo_data`).

Idempotent: each record is looked up by a natural key before it is created."""

import datetime as dt

from django.contrib.auth import get_user_model
from django.utils import timezone

from cases.models import Outfall, Premises

from . import services
from .models import Facility, Inspection, SpillNotification


def load(stdout):
    smo = get_user_model().objects.filter(username="smo").first()
    if smo is None:
        stdout.write("inspections demo skipped: no 'smo' user")
        return
    today = timezone.localdate()
    yard, _ = Premises.objects.get_or_create(
        address="40 Washington Street (Poquott Boat Yard)",
        defaults={"land_use": Premises.LandUse.INDUSTRIAL},
    )
    facility = Facility.objects.filter(permit_number="NYR00X123").first()
    if facility is None:
        facility = services.facility_save(
            actor=smo,
            premises=yard,
            name="Poquott Boat Yard",
            contact_email="office@boatyard.example",
            permit_type=Facility.PermitType.INDUSTRIAL,
            permit_number="NYR00X123",
            permit_issued_on=today - dt.timedelta(days=400),
            permit_expires_on=today + dt.timedelta(days=1400),
            ms4_approval_on=today - dt.timedelta(days=390),
            ms4_approval_reference="SMO letter 2025-07",
        )
    for code, where, water, listed in (
        (
            "PQ-001",
            "Foot of Washington Street, bulkhead",
            "Port Jefferson Harbor",
            True,
        ),
        ("PQ-002", "Walnut Beach drainage pipe", "Setauket Harbor", False),
    ):
        if not Outfall.objects.filter(code=code).exists():
            services.outfall_save(
                actor=smo,
                code=code,
                location_description=where,
                receiving_water=water,
                is_303d_listed=listed,
                has_tmdl=False,
                active=True,
            )
    if not Inspection.objects.filter(facility=facility).exists():
        start = timezone.localtime() + dt.timedelta(days=2)
        services.inspection_schedule(
            actor=smo,
            kind=Inspection.Kind.ROUTINE,
            premises=yard,
            facility=facility,
            officer=smo,
            scheduled_for=start.replace(hour=10, minute=0, second=0, microsecond=0),
            purpose="Annual industrial stormwater inspection",
        )
    if not SpillNotification.objects.filter(premises=yard).exists():
        known = timezone.localtime() - dt.timedelta(hours=3)
        services.spill_record(
            actor=smo,
            premises=yard,
            facility=facility,
            reported_by="Pat Quinn, yard manager",
            reporter_email="office@boatyard.example",
            known_at=known,
            material="Bilge water with traces of diesel",
            quantity="about 20 gallons",
            hazardous=False,
            containment_steps="Absorbent boom placed around the catch basin.",
            cleanup_steps="Vacuum truck booked; pads bagged for disposal.",
            notice_method=SpillNotification.NoticeMethod.TELEPHONE,
            notice_at=known + dt.timedelta(hours=1),
            commercial_or_industrial=True,
        )
    stdout.write("Inspections demo: a facility, two outfalls, an inspection, a spill.")
