"""Demo: a visit sent from a phone, with a photo, for an inspection the office
cancelled after the download, kept for the SMO to decide (issue 31). The demo's SMO also has an
inspection in two days and two outfalls to take offline (inspections.demo)."""

import datetime as dt
import io

from django.contrib.auth import get_user_model
from django.core.files.base import ContentFile
from django.utils import timezone
from PIL import Image

from cases.models import Premises
from inspections import services as inspection_services
from inspections.models import Inspection

from . import services
from .models import FieldRecord
from .package import inspection_version

DEMO_KEY = "demo-field-record-0001"
DEMO_PHOTO_KEY = "demo-field-photo-0001"


def load(stdout) -> None:
    smo = get_user_model().objects.filter(username="smo").first()
    premises = Premises.objects.order_by("pk").first()
    if smo is None or premises is None:
        stdout.write("fieldwork demo skipped: no 'smo' user or premises")
        return
    if FieldRecord.objects.filter(key=DEMO_KEY).exists():
        return
    now = timezone.now()
    inspection = inspection_services.inspection_schedule(
        actor=smo,
        kind=Inspection.Kind.FOLLOW_UP,
        premises=premises,
        officer=smo,
        scheduled_for=now - dt.timedelta(hours=2),
        purpose="Check the floor drain was sealed",
    )
    downloaded = inspection_version(inspection)
    inspection_services.inspection_cancel(
        actor=smo,
        inspection=inspection,
        reason="The owner called: the contractor comes next week.",
    )
    services.field_record_receive(
        actor=smo,
        key=DEMO_KEY,
        kind=FieldRecord.Kind.VISIT,
        item_id=inspection.pk,
        version=downloaded,
        recorded_on_site_at=now - dt.timedelta(minutes=50),
        fields={
            "performed_at": timezone.localtime(now - dt.timedelta(hours=1)).strftime(
                "%Y-%m-%dT%H:%M"
            ),
            "attendees": "S. Officer",
            "access_outcome": "granted",
            "access_notes": "",
            "findings": "Floor drain sealed with concrete; no flow to the street.",
        },
    )
    services.field_photo_receive(
        actor=smo,
        record_key=DEMO_KEY,
        key=DEMO_PHOTO_KEY,
        upload=_photo(),
        caption="The floor drain, sealed",
    )
    stdout.write("Field work demo: a visit sent from a phone, kept for the SMO.")


def _photo() -> ContentFile:
    """A plain grey photo, as the phone resizes one (a JPEG without metadata)."""
    out = io.BytesIO()
    Image.new("RGB", (640, 480), (118, 124, 130)).save(out, format="JPEG")
    return ContentFile(out.getvalue(), name="floor-drain.jpg")
