"""The map's points as GeoJSON (RFC 7946: [longitude, latitude]).

Staff layers (`staff_layer`): open cases by kind and status (the case list's
filters), reports of the last 90 days, outfalls coloured by their latest
screening, inspections due. Each point carries the words of its popup and the
link to its record; nothing here decides a status or a deadline, it only reads.

The public layer (`public_reports`) is the Open311 output drawn on a map: the
same reports (intake.selectors.open311_requests over the same window),
the same public statuses and the same street-level rounding, because every
property comes from intake.open311.documents.service_request itself. No name,
e-mail address, phone number or house number can reach it that Open311 does
not already leave out."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.db.models import OuterRef, Q, Subquery
from django.urls import reverse
from django.utils import timezone

from cases import selectors
from cases.models import CaseKind, CaseStatus, Outfall
from inspections.models import Inspection, InspectionStatus, OutfallScreening
from intake import selectors as report_selectors
from intake.models import Report
from intake.open311 import documents as open311_documents
from intake.open311.views import DEFAULT_WINDOW_DAYS, MAX_RESULTS
from kernel import humanize
from kernel.site_url import absolute_url
from kernel.templatetags.human_tags import plain_name

# A map of more points than this is unreadable and slow; the response says so.
MAX_FEATURES = 5000
RECENT_REPORT_DAYS = 90
# The outfall layer's styles with their words, for the legend.
SCREENING_LEGEND = (
    ("unscreened", "Not screened yet"),
    *OutfallScreening.Severity.choices,
)


@dataclass(frozen=True)
class Layer:
    key: str
    label: str


LAYERS = (
    Layer("cases", "Cases"),
    Layer("reports", "Reports (last 90 days)"),
    Layer("outfalls", "Outfalls by latest screening"),
    Layer("inspections", "Inspections due"),
)
LAYER_KEYS = tuple(layer.key for layer in LAYERS)


def _point(feature_id: str, lat, lon, properties: dict) -> dict | None:
    """A staff feature: an `id` a GIS keeps ("case-MS4-2026-0001"), and flat
    properties a GIS table can show: named fields, "details" (the popup's lines
    as one text, one per line) and "url", the record's page (made absolute by
    `with_absolute_urls`)."""
    if lat is None or lon is None:
        return None
    properties = dict(properties)
    properties["details"] = "\n".join(line for line in properties["details"] if line)
    return {
        "type": "Feature",
        "id": feature_id,
        "geometry": {"type": "Point", "coordinates": [float(lon), float(lat)]},
        "properties": properties,
    }


def with_absolute_urls(features, base: str) -> list[dict]:
    """The features with each "url" on the site's address `base`, so a GIS or
    a spreadsheet that reads the file elsewhere can open the record."""
    for feature in features:
        url = feature["properties"].get("url")
        if url:
            feature["properties"]["url"] = absolute_url(url, base)
    return features


def collection(features, *, truncated: bool = False, limit: bool = True) -> dict:
    """A FeatureCollection of the features (None: a record without a place).
    More than MAX_FEATURES (when `limit`) or `truncated` adds the foreign member
    "truncated": true, so a client knows it did not get everything."""
    features = [f for f in features if f is not None]
    if limit and len(features) > MAX_FEATURES:
        features, truncated = features[:MAX_FEATURES], True
    doc = {"type": "FeatureCollection", "features": features}
    if truncated:
        doc["truncated"] = True
    return doc


# --- staff layers -------------------------------------------------------------------
def case_features(filters: dict) -> list[dict]:
    """Cases matching the case list's filters (cases.selectors.case_search), at
    their own point or else their premises'."""
    kinds = dict(CaseKind.choices)
    statuses = dict(CaseStatus.choices)
    placed = Q(latitude__isnull=False, longitude__isnull=False) | Q(
        premises__latitude__isnull=False, premises__longitude__isnull=False
    )
    rows = (
        selectors.case_search(**filters)
        .filter(placed)
        .values_list(
            "number",
            "kind",
            "status",
            "summary",
            "latitude",
            "longitude",
            "premises__latitude",
            "premises__longitude",
            "premises__address",
            "location_description",
        )[: MAX_FEATURES + 1]
    )
    features = []
    for number, kind, status, summary, lat, lon, p_lat, p_lon, address, where in rows:
        if lat is None or lon is None:
            lat, lon = p_lat, p_lon
        kind_words = plain_name(kinds.get(kind, kind))
        status_words = str(statuses.get(status, status))
        features.append(
            _point(
                f"case-{number}",
                lat,
                lon,
                {
                    "layer": "cases",
                    "style": kind,
                    "title": number,
                    "case_number": number,
                    "kind": kind_words,
                    "status": status_words,
                    "where": address or where or summary,
                    "details": [kind_words, status_words, address or where or summary],
                    "url": reverse("cases:detail", args=[number]),
                    "link": f"Open case {number}",
                },
            )
        )
    return features


def report_features(*, since: dt.datetime, until: dt.datetime | None = None):
    """Reports received since `since` (staff see the address as typed)."""
    qs = Report.objects.filter(
        received_at__gte=since, latitude__isnull=False, longitude__isnull=False
    )
    if until is not None:
        qs = qs.filter(received_at__lte=until)
    rows = qs.order_by("-received_at").values_list(
        "pk", "tracking_code", "received_at", "address", "latitude", "longitude"
    )[: MAX_FEATURES + 1]
    return [
        _point(
            f"report-{pk}",
            lat,
            lon,
            {
                "layer": "reports",
                "style": "report",
                "title": f"Report {code}",
                "tracking_code": code,
                "received": humanize.machine_value(received),
                "where": address or "",
                "details": [
                    f"Received {humanize.human_datetime(received)}",
                    address or "Pin on the map (no address given)",
                ],
                "url": reverse("reports:detail", args=[pk]),
                "link": f"Open report {code}",
            },
        )
        for pk, code, received, address, lat, lon in rows
    ]


def outfall_features() -> list[dict]:
    """Active outfalls, styled by the severity of their latest screening."""
    latest = OutfallScreening.objects.filter(outfall=OuterRef("pk")).order_by(
        "-screened_at", "-pk"
    )
    severities = dict(OutfallScreening.Severity.choices)
    rows = (
        Outfall.objects.filter(
            active=True, latitude__isnull=False, longitude__isnull=False
        )
        .annotate(
            last_severity=Subquery(latest.values("severity")[:1]),
            last_screened=Subquery(latest.values("screened_at")[:1]),
        )
        .values_list(
            "pk",
            "code",
            "location_description",
            "receiving_water",
            "latitude",
            "longitude",
            "last_severity",
            "last_screened",
        )[: MAX_FEATURES + 1]
    )
    features = []
    for pk, code, where, water, lat, lon, severity, screened in rows:
        if severity:
            screening = (
                f"Last screened {humanize.human_date(screened)}: "
                f"{severities.get(severity, severity)}"
            )
        else:
            screening = "Not screened yet"
        features.append(
            _point(
                f"outfall-{code}",
                lat,
                lon,
                {
                    "layer": "outfalls",
                    "style": severity or "unscreened",
                    "title": f"Outfall {code}",
                    "outfall": code,
                    "where": where,
                    "receiving_water": water,
                    "last_screened": humanize.machine_value(screened),
                    "severity": str(severities.get(severity, "")) if severity else "",
                    "details": [where, f"To {water}", screening],
                    "url": reverse("inspections:outfall_detail", args=[pk]),
                    "link": f"Open outfall {code}",
                },
            )
        )
    return features


def inspection_features() -> list[dict]:
    """Scheduled inspections (overdue ones too: still due), at their premises."""
    kinds = dict(Inspection.Kind.choices)
    rows = (
        Inspection.objects.filter(status=InspectionStatus.SCHEDULED)
        .filter(
            Q(premises__latitude__isnull=False, premises__longitude__isnull=False)
            | Q(case__latitude__isnull=False, case__longitude__isnull=False)
        )
        .order_by("scheduled_for")
        .values_list(
            "pk",
            "kind",
            "scheduled_for",
            "premises__address",
            "premises__latitude",
            "premises__longitude",
            "case__latitude",
            "case__longitude",
        )[: MAX_FEATURES + 1]
    )
    now = timezone.now()
    features = []
    for pk, kind, when, address, lat, lon, c_lat, c_lon in rows:
        if lat is None or lon is None:
            lat, lon = c_lat, c_lon
        due = "Overdue since" if when < now else "Scheduled for"
        features.append(
            _point(
                f"inspection-{pk}",
                lat,
                lon,
                {
                    "layer": "inspections",
                    "style": "overdue" if when < now else "due",
                    "title": f"{kinds.get(kind, kind)} inspection",
                    "kind": str(kinds.get(kind, kind)),
                    "where": address or "",
                    "scheduled_for": humanize.machine_value(when),
                    "overdue": when < now,
                    "details": [address, f"{due} {humanize.human_datetime(when)}"],
                    "url": reverse("inspections:inspection_detail", args=[pk]),
                    "link": f"Open inspection {pk}",
                },
            )
        )
    return features


def staff_layer(
    key: str,
    *,
    case_filters: dict,
    reports_from: dt.date | None = None,
    reports_to: dt.date | None = None,
) -> list[dict]:
    """The features of one staff layer (`key` one of LAYER_KEYS), records with a
    place only, at most MAX_FEATURES + 1 (one more says "there are more").
    Reports are those of the last 90 days unless the date range says otherwise."""
    return [f for f in _layer(key, case_filters, reports_from, reports_to) if f]


def _layer(key, case_filters, reports_from, reports_to) -> list[dict | None]:
    if key == "cases":
        return case_features(case_filters)
    if key == "reports":
        since, until = _report_window(reports_from, reports_to)
        return report_features(since=since, until=until)
    if key == "outfalls":
        return outfall_features()
    if key == "inspections":
        return inspection_features()
    raise KeyError(key)


# --- the records the map cannot place ---------------------------------------------
# The page lists at most this many of them (the count is of them all).
MAX_UNPLACED = 200


@dataclass(frozen=True)
class Unplaced:
    """A record a staff layer would show, but without a place to show it at."""

    layer: str
    title: str
    url: str


def unplaced(
    *,
    case_filters: dict,
    reports_from: dt.date | None = None,
    reports_to: dt.date | None = None,
) -> tuple[int, list[Unplaced]]:
    """(how many, the first MAX_UNPLACED) of the records the staff layers choose
    (the same filters and window) that have no location: a case without its own
    point or its premises', a report without a pin, an active outfall without
    coordinates, a scheduled inspection whose premises and case have none."""
    no_case_place = Q(latitude__isnull=True) | Q(longitude__isnull=True)
    no_premises_place = Q(premises__isnull=True) | Q(premises__latitude__isnull=True)
    no_premises_place |= Q(premises__longitude__isnull=True)
    cases = (
        selectors.case_search(**case_filters)
        .filter(no_case_place)
        .filter(no_premises_place)
        .order_by("number")
    )
    since, until = _report_window(reports_from, reports_to)
    reports = Report.objects.filter(received_at__gte=since).filter(
        Q(latitude__isnull=True) | Q(longitude__isnull=True)
    )
    if until is not None:
        reports = reports.filter(received_at__lte=until)
    reports = reports.order_by("-received_at")
    outfalls = (
        Outfall.objects.filter(active=True)
        .filter(Q(latitude__isnull=True) | Q(longitude__isnull=True))
        .order_by("code")
    )
    inspections = (
        Inspection.objects.filter(status=InspectionStatus.SCHEDULED)
        .filter(no_premises_place)
        .filter(
            Q(case__isnull=True)
            | Q(case__latitude__isnull=True)
            | Q(case__longitude__isnull=True)
        )
        .order_by("scheduled_for")
    )
    total = cases.count() + reports.count() + outfalls.count() + inspections.count()
    kinds = dict(Inspection.Kind.choices)
    found: list[Unplaced] = []
    for number in cases.values_list("number", flat=True)[:MAX_UNPLACED]:
        found.append(
            Unplaced("Case", f"Case {number}", reverse("cases:detail", args=[number]))
        )
    for pk, code in reports.values_list("pk", "tracking_code")[:MAX_UNPLACED]:
        found.append(
            Unplaced("Report", f"Report {code}", reverse("reports:detail", args=[pk]))
        )
    for pk, code in outfalls.values_list("pk", "code")[:MAX_UNPLACED]:
        found.append(
            Unplaced(
                "Outfall",
                f"Outfall {code}",
                reverse("inspections:outfall_detail", args=[pk]),
            )
        )
    rows = inspections.values_list("pk", "kind", "scheduled_for")[:MAX_UNPLACED]
    for pk, kind, when in rows:
        found.append(
            Unplaced(
                "Inspection",
                f"{kinds.get(kind, kind)} inspection of "
                f"{humanize.human_datetime(when)}",
                reverse("inspections:inspection_detail", args=[pk]),
            )
        )
    return total, found[:MAX_UNPLACED]


def _report_window(reports_from, reports_to):
    """The reports layer's window: the dates given, else the last 90 days."""
    zone = timezone.get_current_timezone()
    since = timezone.now() - dt.timedelta(days=RECENT_REPORT_DAYS)
    until = None
    if reports_from:
        since = dt.datetime.combine(reports_from, dt.time.min, tzinfo=zone)
    if reports_to:
        until = dt.datetime.combine(reports_to, dt.time.max, tzinfo=zone)
    return since, until


# --- the public layer ---------------------------------------------------------------
PUBLIC_PROPERTIES = (
    "service_request_id",
    "status",
    "status_notes",
    "service_name",
    "service_code",
    "requested_datetime",
    "updated_datetime",
    "address",
)


def public_reports() -> dict:
    """Reports of the Open311 default window as GeoJSON: each feature's point is
    the Open311 `long`/`lat` (street level) and its properties are Open311's."""
    rows = report_selectors.open311_requests(
        start=timezone.now() - dt.timedelta(days=DEFAULT_WINDOW_DAYS),
        limit=MAX_RESULTS,
    )
    features = []
    for request in open311_documents.service_requests(rows):
        if request["lat"] is None or request["long"] is None:
            continue
        features.append(
            {
                "type": "Feature",
                "id": request["service_request_id"],
                "geometry": {
                    "type": "Point",
                    "coordinates": [request["long"], request["lat"]],
                },
                "properties": {name: request[name] for name in PUBLIC_PROPERTIES},
            }
        )
    return collection(features, truncated=len(rows) >= MAX_RESULTS)
