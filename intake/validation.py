"""The rules every report must meet, whatever the channel: the one place the web
form (intake.forms.ReportForm, and the staff's copy of it) and the
Open311 POST (intake.open311.forms.parse_request) accept or refuse a report.

Each channel first reads its own wire format (form fields, GeoReport v2
parameters) into typed values, and says so when a value cannot be read (a
date that is no date, a pin that is no number). Then `report_problems` checks
those values, and both channels refuse exactly the same reports. A problem has
a code, the field it is about and the words a resident reads; Open311 words
some of them with its parameter names (intake.open311.forms.OPEN311_WORDS).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.core.validators import EmailValidator
from django.utils import timezone

from kernel.input_guard import ascii_digits

from .models import Report

DESCRIPTION_MAX = 4000  # Open311 GeoReport v2's limit, used on every channel
ADDRESS_MAX = 200
NAME_MAX = 120
PHONE_MAX = 40
PHONE_CHARACTERS = set("0123456789 +-().x")
# A clock a few minutes fast is not a report from the future.
FUTURE_SLACK = dt.timedelta(minutes=10)
# Older than this, the office takes the report by telephone (and asks).
OLDEST = dt.timedelta(days=366)

# A box around the Village of Poquott (village hall ~40.952, -73.089) with room
# for the shore and the neighbouring streets that drain through it. A pin outside
# it is a mistake (or a report for another municipality).
BOUNDS = {
    "south": Decimal("40.930"),
    "north": Decimal("40.975"),
    "west": Decimal("-73.120"),
    "east": Decimal("-73.060"),
}

OUT_OF_BOUNDS = (
    "That spot is outside the Village of Poquott. Move the pin to where you saw "
    "the discharge, or type the street address. Outside the village, please call "
    "the Town of Brookhaven."
)


def in_bounds(lat: Decimal, lon: Decimal) -> bool:
    return (
        BOUNDS["south"] <= lat <= BOUNDS["north"]
        and BOUNDS["west"] <= lon <= BOUNDS["east"]
    )


@dataclass(frozen=True)
class Problem:
    field: str  # the report field it is about ("address" for the pin)
    code: str
    message: str


def _text(fields: Mapping, name: str) -> str:
    return str(fields.get(name) or "").strip()


def report_problems(fields: Mapping, *, pollutant_categories=()) -> list[Problem]:
    """What keeps `fields` (the typed values of a Report, as report_submit takes
    them; a missing or None value is empty) from being filed, or []."""
    problems: list[Problem] = []

    def refuse(field, code, message):
        problems.append(Problem(field, code, message))

    # What was seen.
    description = _text(fields, "description")
    seen = (
        description
        or pollutant_categories
        or fields.get("colour")
        or fields.get("odour")
        or fields.get("sheen")
        or fields.get("suds")
        or fields.get("floatables")
        or fields.get("flow") == Report.Flow.DRY_WEATHER
    )
    if not seen:
        refuse(
            "description",
            "nothing_seen",
            "Tell us what you saw: tick what applies or describe it.",
        )
    if len(description) > DESCRIPTION_MAX:
        refuse(
            "description",
            "description_too_long",
            f"Describe it in at most {DESCRIPTION_MAX:,} characters.",
        )

    # When.
    observed_at = fields.get("observed_at")
    if observed_at is not None:
        now = timezone.now()
        if observed_at > now + FUTURE_SLACK:
            refuse("observed_at", "future", "That time is in the future.")
        elif observed_at < now - OLDEST:
            refuse(
                "observed_at",
                "too_old",
                "That is more than a year ago; please call the office instead.",
            )

    # Where.
    address = _text(fields, "address")
    lat, lon = fields.get("latitude"), fields.get("longitude")
    if len(address) > ADDRESS_MAX:
        refuse(
            "address",
            "address_too_long",
            f"Keep the address to {ADDRESS_MAX} characters.",
        )
    if (lat is None) != (lon is None):
        refuse("address", "half_pin", "The map pin was incomplete; drop it again.")
    elif lat is not None and not in_bounds(lat, lon):
        refuse("address", "bounds", OUT_OF_BOUNDS)
    elif lat is None and not address:
        refuse(
            "address",
            "no_location",
            "Tell us where: type an address or drop a pin on the map.",
        )

    # Who (only for updates).
    if len(_text(fields, "reporter_name")) > NAME_MAX:
        refuse(
            "reporter_name", "name_too_long", f"Keep the name to {NAME_MAX} characters."
        )
    email = _text(fields, "reporter_email")
    if email:
        try:
            EmailValidator()(email)
        except ValidationError:
            refuse("reporter_email", "email", "Enter a valid email address.")
    elif fields.get("wants_updates"):
        refuse(
            "reporter_email",
            "email_for_updates",
            "Give an e-mail address so we can send you updates.",
        )
    phone = _text(fields, "reporter_phone")
    digits = [c for c in phone if ascii_digits(c)]
    if phone and (
        not 7 <= len(digits) <= 15
        or len(phone) > PHONE_MAX
        or any(c not in PHONE_CHARACTERS for c in phone)
    ):
        refuse(
            "reporter_phone",
            "phone",
            "Please give a phone number such as (631) 555-0100.",
        )
    return problems
