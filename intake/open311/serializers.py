"""Rendering GeoReport v2 documents as JSON and XML, shaped as the spec shapes
them: list responses are JSON arrays and XML <root><item>…</item></root>;
datetimes are ISO 8601 with the zone; errors are [{code, description}] and
<errors><error>…</error></errors>."""

import json
from datetime import datetime
from xml.etree import ElementTree as ET

from django.http import HttpResponse
from django.utils import timezone

JSON_TYPE = "application/json; charset=utf-8"
XML_TYPE = "text/xml; charset=utf-8"

# How a list inside an element is spelled in XML: the list's tag → item tag.
XML_ITEM_TAGS = {
    "endpoints": "endpoint",
    "formats": "format",
    "attributes": "attribute",
    "values": "value",
    "services": "service",
    "service_requests": "request",
    "errors": "error",
}


def iso(dt: datetime | None, zone=None) -> str | None:
    """2026-05-04T09:30:00-04:00 (the village's zone, with its offset). A list
    passes `zone` (timezone.get_current_timezone()) once for all its rows."""
    if dt is None:
        return None
    zone = zone or timezone.get_current_timezone()
    return dt.astimezone(zone).replace(microsecond=0).isoformat()


def _text(value) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _append(parent: ET.Element, tag: str, value) -> None:
    element = ET.SubElement(parent, tag)
    if isinstance(value, dict):
        for key, item in value.items():
            _append(element, key, item)
    elif isinstance(value, list | tuple):
        item_tag = XML_ITEM_TAGS.get(tag, "item")
        for item in value:
            _append(element, item_tag, item)
    else:
        element.text = _text(value)


def to_xml(root: str, data) -> bytes:
    """`data` is a list (items under <root>) or a dict (fields of <root>)."""
    element = ET.Element(root)
    if isinstance(data, dict):
        for key, item in data.items():
            _append(element, key, item)
    else:
        item_tag = XML_ITEM_TAGS[root]
        for item in data:
            _append(element, item_tag, item)
    return b'<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(
        element, encoding="utf-8", xml_declaration=False
    )


def respond(fmt: str, root: str, data, status: int = 200) -> HttpResponse:
    if fmt == "xml":
        return HttpResponse(to_xml(root, data), content_type=XML_TYPE, status=status)
    body = json.dumps(data, ensure_ascii=False)
    return HttpResponse(body, content_type=JSON_TYPE, status=status)


def error(fmt: str, status: int, *descriptions: str) -> HttpResponse:
    errors = [{"code": status, "description": d} for d in descriptions]
    return respond(fmt, "errors", errors, status=status)


def refusal_answer(request, message: str) -> HttpResponse | None:
    """The input guard's 400 (kernel.input_guard) in GeoReport's own error format,
    for the .json and .xml documents; None for other Open311 paths."""
    path = request.path
    if not path.endswith((".json", ".xml")):
        return None
    return error("xml" if path.endswith(".xml") else "json", 400, message)
