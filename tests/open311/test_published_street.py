"""Addresses never leak: the public map's GeoJSON and Open311 (JSON and XML)
publish one of the village's own streets, as the base map spells it, or nothing;
never the address as typed (house numbers, names, e-mail addresses, phone
numbers, unit numbers)."""

import json
from decimal import Decimal

import pytest

from intake.streets import published_street, village_streets

from .test_open311 import BASE, parse, web_report

pytestmark = pytest.mark.django_db

GEOJSON = "/map/reports.geojson"

SPELLINGS = [
    # (typed, published: "" for nothing)
    ("12 Birchwood Avenue", "Birchwood Avenue"),
    ("Birchwood Avenue 12", "Birchwood Avenue"),
    ("Birchwood Avenue #12", "Birchwood Avenue"),
    ("12, Birchwood Avenue", "Birchwood Avenue"),
    ("12 - Birchwood Avenue", "Birchwood Avenue"),
    ("12Birchwood Avenue", "Birchwood Avenue"),
    ("12½ Birchwood Avenue", "Birchwood Avenue"),
    ("12 1/2 Birchwood Avenue", "Birchwood Avenue"),
    ("12A-14 birchwood ave", "Birchwood Avenue"),
    ("12 BIRCHWOOD AV.", "Birchwood Avenue"),
    ("١٢ Birchwood Avenue", "Birchwood Avenue"),  # Arabic-Indic digits
    ("１２ Birchwood Avenue", "Birchwood Avenue"),  # full-width digits
    ("Apt 3, 7 Washington St", "Washington Street"),
    ("Lot 7 Homestead Rd", "Homestead Road"),
    ("Ann Neighbour, 12 Thompson Street", "Thompson Street"),
    ("9 Van Brunt Manor Rd opposite the Smiths", "Van Brunt Manor Road"),
    ("Rte 25A by the light", "Route 25A"),
    ("Outside 45 Birchwood Avenue, by the drain", "Birchwood Avenue"),
    ("Ann Neighbour", ""),
    ("ann.neighbour@example.com", ""),
    ("(631) 555-0142", ""),
    ("631.555.0142 call after 5", ""),
    ("PO Box 12", ""),
    ("Apt 3", ""),
    ("12 Sound Road", ""),  # not a street of the village's list
    ("3rd Street and Main", ""),
    ("Route 25", ""),  # not Route 25A
    ("", ""),
]


def test_the_table_covers_every_street_of_the_list_it_publishes():
    names = {name for name, _words in village_streets()}
    published = {p for _typed, p in SPELLINGS if p}
    assert published <= names
    assert len(SPELLINGS) >= 20


@pytest.mark.parametrize(("typed", "published"), SPELLINGS)
def test_the_function(typed, published):
    assert published_street(typed) == published


@pytest.mark.parametrize(("typed", "published"), SPELLINGS)
def test_what_each_public_surface_publishes(client, typed, published):
    report = web_report(
        address=typed,
        latitude=Decimal("40.952349"),
        longitude=Decimal("-73.088751"),
    )
    rid = str(report.pk)
    expected = published or None

    as_json = client.get(f"{BASE}/requests.json")
    row = next(r for r in parse(as_json, "json") if r["service_request_id"] == rid)
    assert row["address"] == expected

    as_xml = client.get(f"{BASE}/requests/{rid}.xml")
    doc = parse(as_xml, "xml")
    assert (doc.findtext("request/address") or None) == expected

    geojson = client.get(GEOJSON)
    assert geojson.status_code == 200
    feature = next(f for f in json.loads(geojson.content)["features"] if f["id"] == rid)
    assert feature["properties"]["address"] == expected

    if typed and typed != published:
        for response in (as_json, as_xml, geojson):
            assert typed not in response.content.decode(), typed
