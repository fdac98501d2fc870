"""The GeoReport v2 documents: discovery, services, service definitions and
service requests, as plain data for serializers.respond.

Service requests carry the same facts as the public status page and nothing
more: no reporter name, e-mail or phone, no description (residents' words can
name neighbours), no photos, no case number or staff-only notes. Unlike the
status page (read with the tracking code), anyone can read them, so the place
is given to the street, not the house: coordinates rounded to
LOCATION_DECIMALS places and the address as the village street it names
(intake.streets.published_street), never the text as typed."""

from decimal import Decimal

from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from kernel.citations import citation

from ..forms import COLOUR_CHOICES, FLOW_CHOICES, ODOUR_CHOICES
from ..models import PollutantCategory
from ..selectors import Open311Row
from ..streets import published_street
from .serializers import iso

SPEC_URL = "http://wiki.open311.org/GeoReport_v2"
CHANGESET = "2026-01-01T00:00:00-05:00"  # bump when services or attributes change
AGENCY = "Village of Poquott — Stormwater Management Officer"


def hazard_notice() -> str:
    """The 911 warning, citing the spill rule from the citation table."""
    return (
        "A hazardous spill (fuel, chemicals, anything that harms people) must be "
        f"reported to 911 immediately (Poquott Code {citation('R-SPL-2').section}, "
        "R-SPL-2); this service is for everything else."
    )


YES_NO = [("yes", "Yes"), ("no", "No")]

# 3 decimal places of a degree: about 110 m north-south and 85 m east-west at
# Poquott's latitude, a stretch of one street (the village is about 2 km across).
LOCATION_DECIMALS = 3
LOCATION_STEP = Decimal(1).scaleb(-LOCATION_DECIMALS)


def street_level(degrees: Decimal | None) -> float | None:
    """A coordinate rounded to LOCATION_DECIMALS places, for the public."""
    if degrees is None:
        return None
    return float(Decimal(degrees).quantize(LOCATION_STEP))


# The screening signs as Open311 attributes: (code, description, values or None
# for a datetime, Report field).
ATTRIBUTES = [
    ("colour", "Colour of the water", COLOUR_CHOICES),
    ("odour", "Smell", ODOUR_CHOICES),
    ("sheen", "A rainbow sheen on the water", YES_NO),
    ("suds", "Suds or foam", YES_NO),
    ("floatables", "Floating trash, grease or other floating matter", YES_NO),
    ("flow", "Water flowing out of the pipe or drain in dry weather", FLOW_CHOICES),
    ("observed_at", "When it was seen (ISO 8601 date and time)", None),
]


def discovery(site: str) -> dict:
    """`site`: the site's address as kernel.site_url.site_url(request) gives it."""
    village = settings.VILLAGE
    return {
        "changeset": CHANGESET,
        "contact": f"{village['smo_name']}, {village['smo_email']}, "
        f"{village['smo_phone']}",
        "key_service": f"Ask {village['smo_email']} for an API key (one per client).",
        "endpoints": [
            {
                "specification": SPEC_URL,
                "url": site
                + reverse("open311:discovery", kwargs={"fmt": "json"}).rsplit("/", 1)[
                    0
                ],
                "changeset": CHANGESET,
                "type": "production",
                "formats": ["text/xml", "application/json"],
            }
        ],
    }


def service(category: PollutantCategory) -> dict:
    description = category.plain_name
    if category.hazardous:
        description = f"{description}. {hazard_notice()}"
    return {
        "service_code": category.code,
        "service_name": category.name,
        "description": description,
        "metadata": True,
        # The spec: "realtime: The service request ID will be returned
        # immediately after the service request is submitted" (it is; the token
        # too). "batch" promises only a token.
        "type": "realtime",
        "keywords": "stormwater, illicit discharge, storm drain",
        "group": "Hazardous — call 911 first"
        if category.hazardous
        else "Stormwater discharge",
    }


def services() -> list[dict]:
    return [service(c) for c in PollutantCategory.objects.filter(active=True)]


def definition(category: PollutantCategory) -> dict:
    attributes = []
    for order, (code, description, values) in enumerate(ATTRIBUTES, start=1):
        attribute = {
            "variable": True,
            "code": code,
            "datatype": "datetime" if values is None else "singlevaluelist",
            "required": False,
            "datatype_description": "ISO 8601, e.g. 2026-05-04T09:30:00-04:00"
            if values is None
            else "",
            "order": order,
            "description": description,
        }
        if values is not None:
            attribute["values"] = [
                {"key": key, "name": name} for key, name in values if key
            ]
        attributes.append(attribute)
    return {"service_code": category.code, "attributes": attributes}


def service_requests(rows: list[Open311Row]) -> list[dict]:
    """The reports as GeoReport v2 service requests."""
    names = service_names()
    zone = timezone.get_current_timezone()
    return [service_request(row, names, zone) for row in rows]


def service_request(row: Open311Row, names: dict[str, str], zone) -> dict:
    """One report as a GeoReport v2 service request (public facts only)."""
    status = row.status
    notes = row.public_notes[-1][0] if row.public_notes else status.explanation
    moments = [row.received_at, row.attached_at, row.closed_at]
    moments.extend(created_at for _, created_at in row.public_notes)
    return {
        "service_request_id": str(row.pk),
        "status": status.open311,
        "status_notes": f"{status.label}. {notes}",
        "service_name": names.get(row.service_code, row.service_code),
        "service_code": row.service_code,
        "description": None,
        "agency_responsible": AGENCY,
        "service_notice": None,
        "requested_datetime": iso(row.received_at, zone),
        "updated_datetime": iso(max(m for m in moments if m is not None), zone),
        "expected_datetime": None,
        "address": published_street(row.address) or None,
        "address_id": None,
        "zipcode": None,
        "lat": street_level(row.latitude),
        "long": street_level(row.longitude),
        "media_url": None,
    }


def service_names() -> dict[str, str]:
    return dict(PollutantCategory.objects.values_list("code", "name"))
