"""The staff map (CASE_READERS) and the public map of reports, with their GeoJSON.

The pages only carry where the data is (data- attributes and json_script: the
CSP allows no inline script); static/js/map.js fetches and draws it."""

import json
from urllib.parse import urlencode

from django.conf import settings
from django.http import HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET

from cases.forms import CaseFilterForm
from intake.forms import BOUNDS, CENTRE
from kernel.roles import CASE_READERS, role_required
from kernel.site_url import site_url

from . import geo

GEOJSON = "application/geo+json"
# The case filter's own fields (cases.forms.CaseFilterForm), carried to each layer.
FILTER_FIELDS = ("q", "status", "kind", "officer", "opened_from", "opened_to")


def geojson_response(doc: dict, *, status: int = 200) -> HttpResponse:
    return HttpResponse(
        json.dumps(doc, ensure_ascii=False),
        content_type=f"{GEOJSON}; charset=utf-8",
        status=status,
    )


def _filter_form(params) -> CaseFilterForm:
    """The case list's filter form; on the map, open cases unless asked."""
    data = params.copy()
    if "status" not in data:
        data["status"] = "open"
    return CaseFilterForm(data)


def _case_filters(form: CaseFilterForm) -> dict:
    data = form.cleaned_data
    return {name: data[name] for name in FILTER_FIELDS}


def map_settings() -> dict:
    """What every map needs to draw the village without tiles."""
    return {
        "tile_url": settings.MAP_TILE_URL,
        "centre": CENTRE,
        "bounds": BOUNDS,
    }


@role_required(*CASE_READERS)
@require_GET
def staff_map(request):
    form = _filter_form(request.GET)
    layers = []
    unplaced_count, unplaced = 0, []
    if form.is_valid():
        filters = _case_filters(form)
        unplaced_count, unplaced = geo.unplaced(
            case_filters=filters,
            reports_from=filters["opened_from"],
            reports_to=filters["opened_to"],
        )
        # The filters as the user gave them (the default "open" included), so
        # that every layer reads exactly what the form shows.
        query = {name: form.data.get(name, "") for name in FILTER_FIELDS}
        query = {name: value for name, value in query.items() if value}
        for layer in geo.LAYERS:
            url = reverse("map:points") + "?" + urlencode({"layer": layer.key, **query})
            layers.append({"key": layer.key, "label": layer.label, "url": url})
    return render(
        request,
        "map/staff_map.html",
        {
            "form": form,
            "layers": layers,
            "map": map_settings(),
            "severities": geo.SCREENING_LEGEND,
            "unplaced_count": unplaced_count,
            "unplaced": unplaced,
        },
    )


@role_required(*CASE_READERS)
@require_GET
def points(request):
    """One layer (`layer=`) or all of them as GeoJSON, for the map and for the
    office's GIS; the case filters as on the case list."""
    wanted = request.GET.get("layer", "")
    if wanted and wanted not in geo.LAYER_KEYS:
        return geojson_response(
            {
                "error": f"Unknown layer {wanted[:40]!r}; one of: "
                + ", ".join(geo.LAYER_KEYS)
                + ", or none for all."
            },
            status=400,
        )
    form = _filter_form(request.GET)
    if not form.is_valid():
        return geojson_response(
            {
                "error": "The filters are not valid.",
                "fields": {
                    name: [e["message"] for e in errors]
                    for name, errors in form.errors.get_json_data().items()
                },
            },
            status=400,
        )
    filters = _case_filters(form)
    features, truncated = [], False
    for key in [wanted] if wanted else geo.LAYER_KEYS:
        found = geo.staff_layer(
            key,
            case_filters=filters,
            reports_from=filters["opened_from"],
            reports_to=filters["opened_to"],
        )
        # Each layer has its own cap, so one crowded layer hides no other.
        truncated = truncated or len(found) > geo.MAX_FEATURES
        features.extend(found[: geo.MAX_FEATURES])
    features = geo.with_absolute_urls(features, site_url(request))
    doc = geo.collection(features, truncated=truncated, limit=False)
    return geojson_response(doc)


@require_GET
def public_map(request):
    return render(
        request,
        "map/public_map.html",
        {
            "map": map_settings(),
            "points_url": reverse("public_map:reports"),
            "layers": [
                {
                    "key": "public",
                    "label": "Reports (last 90 days)",
                    "url": reverse("public_map:reports"),
                }
            ],
        },
    )


@require_GET
def public_reports(request):
    """Reports at street level, as the Open311 feed gives them (no key needed)."""
    return geojson_response(geo.public_reports())
