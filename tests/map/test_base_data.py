"""The offline base map (static/geo/poquott.geojson) agrees with the area the
report validation accepts: everything drawn lies in its box, Village Hall (the
map's centre) lies in the village outline, and the streets have their names."""

import json
from decimal import Decimal
from pathlib import Path

from django.conf import settings

from intake.forms import CENTRE
from intake.validation import BOUNDS, in_bounds

BASE = Path(settings.BASE_DIR) / "static" / "geo" / "poquott.geojson"


def base_features():
    return json.loads(BASE.read_text(encoding="utf-8"))["features"]


def points_of(geometry):
    if geometry["type"] == "Point":
        return [geometry["coordinates"]]
    if geometry["type"] == "LineString":
        return geometry["coordinates"]
    return [p for ring in geometry["coordinates"] for p in ring]


def inside(polygon, lon, lat) -> bool:
    """Ray casting over the outer ring."""
    ring = polygon["coordinates"][0]
    hit = False
    for (x1, y1), (x2, y2) in zip(ring, ring[1:], strict=False):
        if (y1 > lat) != (y2 > lat) and lon < (x2 - x1) * (lat - y1) / (y2 - y1) + x1:
            hit = not hit
    return hit


def test_everything_drawn_lies_in_the_area_a_report_is_accepted_in():
    for feature in base_features():
        for lon, lat in points_of(feature["geometry"]):
            assert in_bounds(Decimal(str(lat)), Decimal(str(lon))), feature
    assert BOUNDS["south"] < BOUNDS["north"]


def test_the_village_outline_holds_village_hall_and_is_closed():
    outlines = [f for f in base_features() if f["properties"]["kind"] == "outline"]
    assert len(outlines) == 1
    polygon = outlines[0]["geometry"]
    ring = polygon["coordinates"][0]
    assert ring[0] == ring[-1]
    assert inside(polygon, float(CENTRE[1]), float(CENTRE[0]))


def test_the_main_streets_are_there_with_their_names():
    streets = {
        f["properties"]["name"]
        for f in base_features()
        if f["properties"]["kind"] == "street"
    }
    assert {
        "Birchwood Avenue",
        "Van Brunt Manor Road",
        "Washington Street",
        "Thompson Street",
        "Homestead Road",
    } <= streets
