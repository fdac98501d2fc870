"""Validating an Open311 POST service request into the fields of a Report.

The parameters are read here (a service code, decimal degrees, ISO 8601 times,
the attribute values); whether the report can be filed is the rule of every
channel, intake.validation.report_problems, which the web form uses too,
with the photo checks of kernel.uploads. Each problem becomes one GeoReport v2
error, worded with the parameter names where they differ (OPEN311_WORDS)."""

import re
from decimal import Decimal, InvalidOperation

from django.core.exceptions import ValidationError
from django.core.validators import URLValidator
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from kernel.uploads import process_image_upload

from ..models import PollutantCategory
from ..validation import (
    ADDRESS_MAX,
    DESCRIPTION_MAX,
    NAME_MAX,
    report_problems,
)
from .documents import ATTRIBUTES

BOOL_ATTRIBUTES = {"sheen", "suds", "floatables"}

# The shared problems, in the words of the GeoReport v2 parameters (the others
# are said as to a resident).
OPEN311_WORDS = {
    "no_location": "A location is required: lat and long, or address_string.",
    "description_too_long": f"description is longer than {DESCRIPTION_MAX} characters.",
    "address_too_long": f"address_string is longer than {ADDRESS_MAX} characters.",
    "name_too_long": f"first_name and last_name are longer than {NAME_MAX} characters.",
    "email": "email is not a valid e-mail address.",
    "phone": "phone is not a telephone number, e.g. (631) 555-0100.",
    "future": "attribute[observed_at] is in the future.",
    "too_old": "attribute[observed_at] is more than a year ago; please call the "
    "office instead.",
}


class Open311Invalid(Exception):
    """`status` is the answer's HTTP code: 404 when the service_code is unknown
    (the spec: "404 - service_code or service_request_id not found"), else 400."""

    def __init__(self, messages: list[str], status: int = 400):
        super().__init__("; ".join(messages))
        self.messages = messages
        self.status = status


# A date and a time: "2026-05-04" alone is not one (datetime.fromisoformat
# would read it as midnight).
_HAS_TIME = re.compile(r"^\d{4}-\d{2}-\d{2}[Tt +]\d{2}:\d{2}")


def parse_datetime_param(raw: str, *, require_zone: bool = False):
    """ISO 8601 date and time, or None. With `require_zone` (the list's
    start_date/end_date: the spec's W3C datetime, with its zone) a date alone or
    a time without a zone is None; otherwise a time without a zone is read in
    the village's zone. A "+" sent unescaped in a query arrives as a space."""
    raw = (raw or "").strip().replace(" ", "+")
    if not raw:
        return None
    if require_zone and not _HAS_TIME.match(raw):
        return None
    try:
        value = parse_datetime(raw)
    except ValueError:  # well-formed but impossible, e.g. month 13
        return None
    if value is None:
        return None
    if timezone.is_naive(value):
        if require_zone:
            return None
        value = timezone.make_aware(value)
    return value


def parse_request(data, files) -> dict:
    """POST parameters → report_submit keyword arguments. Raises Open311Invalid."""
    problems = []
    code = (data.get("service_code") or "").strip()
    category = None
    status = 400
    if not code:
        problems.append("service_code was not provided.")
    else:
        category = PollutantCategory.objects.filter(code=code, active=True).first()
        if category is None:
            problems.append(f"service_code {code[:40]!r} was not found.")
            status = 404

    lat_raw, lon_raw = data.get("lat", "").strip(), data.get("long", "").strip()
    address = (data.get("address_string") or "").strip()
    lat = lon = None
    unread = set()  # fields already refused because they could not be read
    if category is None:
        unread.add("description")  # what was seen: the service_code, said above
    if lat_raw or lon_raw:
        try:
            lat, lon = Decimal(lat_raw), Decimal(lon_raw)
            if not (lat.is_finite() and lon.is_finite()):
                raise InvalidOperation
            lat, lon = round(lat, 6), round(lon, 6)
        except InvalidOperation:
            problems.append("lat and long must both be decimal degrees.")
            lat = lon = None
            unread.add("address")
    if lat is None and lon is None and not address and data.get("address_id"):
        problems.append("address_id is not supported; send lat/long or address_string.")
        unread.add("address")

    description = (data.get("description") or "").strip()
    email = (data.get("email") or "").strip()
    media_url = (data.get("media_url") or "").strip()
    if media_url:
        try:
            URLValidator(schemes=["http", "https"])(media_url)
        except ValidationError:
            problems.append("media_url is not a valid http(s) URL.")
        if len(media_url) > 500:
            problems.append("media_url is longer than 500 characters.")

    fields = {
        "description": description,
        "address": address,
        "latitude": lat,
        "longitude": lon,
        "reporter_name": " ".join(
            p for p in (data.get("first_name", ""), data.get("last_name", "")) if p
        ).strip(),
        "reporter_email": email,
        "reporter_phone": (data.get("phone") or "").strip(),
        "wants_updates": False,
        "media_url": media_url[:500],
    }
    for attr_code, _description, values in ATTRIBUTES:
        raw = (data.get(f"attribute[{attr_code}]") or "").strip()
        if not raw:
            continue
        if values is None:
            when = parse_datetime_param(raw)
            if when is None:
                problems.append(f"attribute[{attr_code}] must be an ISO 8601 datetime.")
            else:
                fields["observed_at"] = when
            continue
        keys = {key for key, _name in values if key}
        if raw not in keys:
            problems.append(
                f"attribute[{attr_code}] must be one of: {', '.join(sorted(keys))}."
            )
            continue
        fields[attr_code] = raw == "yes" if attr_code in BOOL_ATTRIBUTES else raw

    photos = []
    media = files.getlist("media") if files else []
    if len(media) > 1:
        problems.append("Send one media file per request.")
    for upload in media[:1]:
        try:
            photos.append(process_image_upload(upload))
        except ValidationError as exc:
            problems.extend(f"media: {m}" for m in exc.messages)

    # The rules of every channel, on what could be read (a parameter that could
    # not be read is said once, above).
    problems += [
        OPEN311_WORDS.get(p.code, p.message)
        for p in report_problems(
            fields, pollutant_categories=[category] if category else ()
        )
        if p.field not in unread
    ]
    if problems:
        raise Open311Invalid(problems, status=status)
    return {
        "fields": fields,
        "pollutant_categories": [category],
        "photos": photos,
        "service_code": code,
    }
