"""Shared helpers for the report and Open311 tests."""

import io

from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image

from cases.models import Case
from cases.services import case_open
from intake.models import PollutantCategory

HTML_TRAILER = b"<html><script>alert('x')</script></html>"


def png_bytes(size=(40, 30), colour=(200, 30, 30), trailer=b"") -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, colour).save(out, format="PNG")
    return out.getvalue() + trailer


def jpeg_with_gps() -> bytes:
    image = Image.new("RGB", (32, 32), (10, 120, 200))
    exif = Image.Exif()
    exif[0x010F] = "PhoneMaker"  # Make
    gps = {1: "N", 2: (40.0, 57.0, 8.0), 3: "W", 4: (73.0, 5.0, 20.0)}
    exif[0x8825] = gps
    out = io.BytesIO()
    image.save(out, format="JPEG", exif=exif)
    return out.getvalue()


def upload(name="drain.png", data=None, content_type="image/png"):
    return SimpleUploadedFile(name, png_bytes() if data is None else data, content_type)


def category(code) -> PollutantCategory:
    return PollutantCategory.objects.get(code=code)


def valid_post(**overrides) -> dict:
    data = {
        "pollutant_categories": [str(category("wash-water").pk)],
        "description": "Soapy water running into the drain.",
        "colour": "grey",
        "odour": "soapy",
        "suds": "on",
        "flow": "dry",
        "observed_at": "",
        "address": "12 Birchwood Avenue",
        "latitude": "",
        "longitude": "",
        "reporter_name": "",
        "reporter_email": "",
        "reporter_phone": "",
        "website": "",
    }
    data.update(overrides)
    return {k: v for k, v in data.items() if v is not None}


def open_case_for(report, actor) -> Case:
    """Open a case and attach the report (the triage step), as staff would."""
    from cases.services import case_attach_reports

    case = case_open(
        actor=actor,
        source=report.channel,
        summary="Suds at 12 Birchwood Avenue — Mr. Neighbour's laundry line",
        description="Internal: owner John Q. Neighbour, 631-555-0199",
    )
    case_attach_reports(case=case, reports=[report], actor=actor)
    return case
