"""The map's GeoJSON: what each staff layer holds, who may read it, and the
public reports at street level exactly as Open311 gives them (issue 17)."""

import json

import pytest
from django.urls import reverse
from django.utils import timezone

from intake.open311.documents import street_level

from .conftest import report_at

pytestmark = pytest.mark.django_db

POINTS = "/staff/map/points.geojson"
PUBLIC = "/map/reports.geojson"


def features(response, layer=None):
    assert response.status_code == 200, response.content[:300]
    assert response["Content-Type"].startswith("application/geo+json")
    doc = json.loads(response.content)
    assert doc["type"] == "FeatureCollection"
    return [
        f for f in doc["features"] if layer is None or f["properties"]["layer"] == layer
    ]


def titles(found):
    return {f["properties"]["title"] for f in found}


@pytest.mark.parametrize(
    "role, expected",
    [
        ("anonymous", 302),
        ("no_role", 403),
        ("attorney", 403),
        ("inspector", 403),
        ("clerk", 200),
        ("smo", 200),
        ("superuser", 200),
    ],
)
@pytest.mark.parametrize("url", ["/staff/map/", POINTS, POINTS + "?layer=reports"])
def test_the_staff_map_and_its_geojson_are_for_case_readers_only(
    client_as, role, expected, url
):
    response = client_as(role).get(url)
    assert response.status_code == expected
    if expected == 302:
        assert "/accounts/login/" in response["Location"]


def test_the_public_map_and_geojson_need_no_sign_in(client):
    assert client.get("/map/").status_code == 200
    assert features(client.get(PUBLIC)) == []


def test_the_cases_layer_shows_open_cases_at_their_point_or_their_premises(
    smo_client, places
):
    found = features(smo_client.get(POINTS + "?layer=cases"))
    by_title = {f["properties"]["title"]: f for f in found}
    pinned, at_premises = places["open_pinned"], places["open_at_premises"]
    assert set(by_title) == {pinned.number, at_premises.number}  # not the resolved
    assert by_title[pinned.number]["geometry"]["coordinates"] == [-73.0905, 40.9523]
    assert by_title[at_premises.number]["geometry"]["coordinates"] == [-73.085, 40.9541]
    props = by_title[at_premises.number]["properties"]
    assert props["url"] == "http://testserver" + reverse(
        "cases:detail", args=[at_premises.number]
    )
    assert props["link"] == f"Open case {at_premises.number}"
    # The kind in words, without its rule id; the premises' address.
    assert props["kind"] == "Illicit connection"
    assert props["where"].startswith("30 Washington Street")
    assert props["details"].split("\n")[0] == "Illicit connection"
    assert by_title[at_premises.number]["id"] == f"case-{at_premises.number}"


def test_the_cases_layer_takes_the_case_lists_filters(smo_client, places):
    closed = features(smo_client.get(POINTS + "?layer=cases&status=closed"))
    assert titles(closed) == {places["resolved"].number}
    any_status = features(smo_client.get(POINTS + "?layer=cases&status="))
    assert len(any_status) == 3
    connections = features(
        smo_client.get(POINTS + "?layer=cases&kind=illicit_connection")
    )
    assert titles(connections) == {places["open_at_premises"].number}
    searched = features(smo_client.get(POINTS + "?layer=cases&q=Suds"))
    assert titles(searched) == {places["open_pinned"].number}


def test_the_reports_layer_shows_the_last_90_days_or_the_dates_asked(
    smo_client, places
):
    recent, old = places["recent"], places["old"]
    found = features(smo_client.get(POINTS + "?layer=reports"))
    assert titles(found) == {f"Report {recent.tracking_code}"}
    props = found[0]["properties"]
    assert props["url"] == "http://testserver" + reverse(
        "reports:detail", args=[recent.pk]
    )
    assert found[0]["id"] == f"report-{recent.pk}"
    day = timezone.localtime(old.received_at).date().isoformat()  # the village's day
    older = features(
        smo_client.get(POINTS + f"?layer=reports&opened_from={day}&opened_to={day}")
    )
    assert titles(older) == {f"Report {old.tracking_code}"}


def test_outfalls_are_styled_by_their_latest_screening(smo_client, places):
    found = features(smo_client.get(POINTS + "?layer=outfalls"))
    style = {f["properties"]["title"]: f["properties"]["style"] for f in found}
    assert style == {"Outfall PQ-001": "obvious", "Outfall PQ-002": "unscreened"}
    screened = next(f for f in found if f["properties"]["title"] == "Outfall PQ-001")
    assert screened["properties"]["severity"].startswith("Obvious")
    assert "Obvious" in screened["properties"]["details"]
    assert screened["properties"]["url"] == "http://testserver" + reverse(
        "inspections:outfall_detail", args=[places["screened"].pk]
    )
    assert screened["id"] == "outfall-PQ-001"


def test_inspections_due_are_the_scheduled_ones(smo_client, places):
    found = features(smo_client.get(POINTS + "?layer=inspections"))
    assert [f["properties"]["url"] for f in found] == [
        "http://testserver"
        + reverse("inspections:inspection_detail", args=[places["due"].pk])
    ]
    assert found[0]["id"] == f"inspection-{places['due'].pk}"
    assert found[0]["properties"]["style"] == "due"
    assert found[0]["geometry"]["coordinates"] == [-73.085, 40.9541]


def test_without_a_layer_every_layer_comes_at_once_for_the_gis(smo_client, places):
    found = features(smo_client.get(POINTS))
    assert {f["properties"]["layer"] for f in found} == {
        "cases",
        "reports",
        "outfalls",
        "inspections",
    }
    assert len(found) == 2 + 1 + 2 + 1


def test_an_unknown_layer_or_a_bad_filter_is_a_clear_400_not_a_crash(smo_client):
    response = smo_client.get(POINTS + "?layer=secrets")
    assert response.status_code == 400
    assert "Unknown layer" in json.loads(response.content)["error"]
    response = smo_client.get(POINTS + "?layer=cases&opened_from=31/02/2026")
    assert response.status_code == 400
    assert "opened_from" in json.loads(response.content)["fields"]
    page = smo_client.get("/staff/map/?opened_from=2026-05-01&opened_to=2026-04-01")
    assert page.status_code == 200
    text = page.content.decode()
    assert "The end date is before the start date." in text
    assert "cannot show these filters" in text
    assert 'value="2026-05-01"' in text  # the input kept


def test_the_staff_map_page_carries_the_filters_to_every_layer(smo_client, places):
    page = smo_client.get("/staff/map/?kind=illicit_connection")
    layers = page.context["layers"]
    assert [layer["key"] for layer in layers] == [
        "cases",
        "reports",
        "outfalls",
        "inspections",
    ]
    for layer in layers:
        assert "kind=illicit_connection" in layer["url"]
        assert "status=open" in layer["url"]
    # What the page's script will fetch gives the filtered cases.
    cases_url = layers[0]["url"]
    assert titles(features(smo_client.get(cases_url))) == {
        places["open_at_premises"].number
    }


def test_the_navigation_links_the_map_for_smo_and_clerk(client_as):
    for role in ("smo", "clerk"):
        page = client_as(role).get("/staff/").content.decode()
        assert 'href="/staff/map/"' in page
    page = client_as("attorney").get("/staff/").content.decode()
    assert 'href="/staff/map/"' not in page


# --- the public GeoJSON ---------------------------------------------------------------
def test_the_public_geojson_is_the_open311_output_on_a_map(client, places):
    public = features(client.get(PUBLIC))
    open311 = client.get("/open311/v2/requests.json").json()
    pinned = {r["service_request_id"]: r for r in open311 if r["lat"] is not None}
    assert {f["id"] for f in public} == set(pinned) == {str(places["recent"].pk)}
    for feature in public:
        request = pinned[feature["id"]]
        assert feature["geometry"]["coordinates"] == [request["long"], request["lat"]]
        for name in ("status", "status_notes", "service_name", "address"):
            assert feature["properties"][name] == request[name]
    # Street level: the same rounding as Open311, not the pin as dropped.
    recent = places["recent"]
    assert public[0]["geometry"]["coordinates"] == [
        street_level(recent.longitude),
        street_level(recent.latitude),
    ]
    assert public[0]["geometry"]["coordinates"] != [
        float(recent.longitude),
        float(recent.latitude),
    ]
    assert public[0]["properties"]["address"] == "Birchwood Avenue"


def test_the_public_geojson_names_no_reporter_and_no_respondent(
    client, places, smo_user
):
    from cases.models import Party

    from ..cases.factories import name_party
    from ..reports.helpers import open_case_for

    report = report_at(
        "40.953000",
        "-73.088000",
        address="7 Homestead Road",
        reporter_name="Harold Homeowner",
        reporter_email="harold@example.org",
        reporter_phone="(631) 555-0177",
    )
    case = open_case_for(report, smo_user)
    name_party(case, Party.objects.create(name="Rhonda Respondent"))
    body = client.get(PUBLIC).content.decode()
    assert str(report.pk) in body
    for secret in (
        "Rita Reporter",
        "rita.reporter@example.org",
        "555-0142",
        "Harold Homeowner",
        "harold@example.org",
        "555-0177",
        "Rhonda Respondent",
        "Neighbour",  # the case's summary and internal description
        "Grey water",  # the resident's own words
        "12 Birchwood",
        "7 Homestead",
        report.tracking_code,
    ):
        assert secret not in body, secret
    # The public page itself carries no record either (only where to fetch).
    page = client.get("/map/").content.decode()
    assert "Rita" not in page and "Rhonda" not in page


def test_a_crowded_layer_says_it_was_cut_and_hides_no_other_layer(
    smo_client, places, monkeypatch
):
    from reporting.map import geo

    monkeypatch.setattr(geo, "MAX_FEATURES", 1)
    doc = json.loads(smo_client.get(POINTS).content)
    assert doc["truncated"] is True
    layers = [f["properties"]["layer"] for f in doc["features"]]
    assert layers == ["cases", "reports", "outfalls", "inspections"]
    one = json.loads(smo_client.get(POINTS + "?layer=inspections").content)
    assert "truncated" not in one


def test_records_without_a_place_are_left_off_the_map(smo_client, smo_user, places):
    from cases.services import case_open

    nowhere = case_open(actor=smo_user, source="phone", summary="Somewhere")
    found = features(smo_client.get(POINTS + "?layer=cases"))
    assert nowhere.number not in titles(found)
    assert len(found) == 2


def test_the_geojson_of_every_layer_takes_a_handful_of_queries(
    smo_client, places, django_assert_max_num_queries
):
    with django_assert_max_num_queries(12):
        features(smo_client.get(POINTS))


def test_the_staff_map_counts_and_links_the_records_it_cannot_place(
    smo_client, smo_user, places
):
    from cases.models import Outfall
    from cases.services import case_open
    from intake.models import Report

    nowhere = case_open(actor=smo_user, source="phone", summary="Somewhere")
    unpinned = report_at("40.951000", "-73.087000", days_ago=5)
    Report.objects.filter(pk=unpinned.pk).update(latitude=None, longitude=None)
    lost = Outfall.objects.create(
        code="PQ-009",
        location_description="Behind the marina, not yet surveyed",
        receiving_water="Port Jefferson Harbor",
    )
    page = smo_client.get("/staff/map/")
    body = " ".join(page.content.decode().split())
    assert "Not on the map" in body
    assert "3 records of these filters have no location" in body
    assert f'href="{nowhere.get_absolute_url()}">Case {nowhere.number}</a>' in body
    assert f'href="{reverse("reports:detail", args=[unpinned.pk])}"' in body
    assert f"Report {unpinned.tracking_code}" in body
    outfall_url = reverse("inspections:outfall_detail", args=[lost.pk])
    assert f'href="{outfall_url}">Outfall PQ-009</a>' in body
    # records on the map are not listed
    assert f"Case {places['open_pinned'].number}</a>" not in body
    # the filters choose them as they choose the layers: resolved cases only
    resolved = " ".join(
        smo_client.get("/staff/map/", {"status": "resolved"}).content.decode().split()
    )
    assert f"Case {nowhere.number}" not in resolved
    assert "2 records of these filters have no location" in resolved


def test_a_map_of_placed_records_says_none_is_missing(smo_client, places):
    body = " ".join(smo_client.get("/staff/map/").content.decode().split())
    assert "Every record of these filters has a location." in body


def test_every_staff_feature_is_a_row_a_gis_table_can_show(smo_client, places):
    """Issue 29: an `id` per feature, unique; flat properties (text, numbers,
    booleans — no list or object a GIS table cannot show); absolute links."""
    found = features(smo_client.get(POINTS))
    assert {f["properties"]["layer"] for f in found} >= {"cases", "reports", "outfalls"}
    ids = [f["id"] for f in found]
    assert all(ids) and len(set(ids)) == len(ids)
    for feature in found:
        for name, value in feature["properties"].items():
            assert isinstance(value, str | int | float | bool) or value is None, name
        assert feature["properties"]["url"].startswith("http://testserver/")
