"""Issue 29: the public read endpoints may be fetched by a web page elsewhere
(a county 311 app, a GIS viewer): `Access-Control-Allow-Origin: *` on GET and a
preflight answered for GET; never on staff URLs or on a POST."""

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db

ORIGIN = {"HTTP_ORIGIN": "https://county311.example"}
PREFLIGHT = {**ORIGIN, "HTTP_ACCESS_CONTROL_REQUEST_METHOD": "GET"}

PUBLIC_READS = [
    "/open311/v2/discovery.json",
    "/open311/v2/services.json",
    "/open311/v2/services.xml",
    "/open311/v2/requests.json",
    "/open311/v2/requests/1.json",
    "/map/reports.geojson",
    "/annual-report/1/pdf/",
]


def test_the_public_reads_are_the_routes_they_claim():
    from django.urls import resolve

    from poquott_ms4.middleware import PUBLIC_READ_VIEWS

    assert {resolve(url.split("?")[0]).view_name for url in PUBLIC_READS} <= (
        PUBLIC_READ_VIEWS
    )
    assert reverse("public_annual:pdf", args=[1]) == "/annual-report/1/pdf/"


@pytest.mark.parametrize("url", PUBLIC_READS)
def test_a_public_read_allows_any_origin_and_answers_its_preflight(client, url):
    response = client.get(url, **ORIGIN)
    assert response["Access-Control-Allow-Origin"] == "*"
    assert "Access-Control-Allow-Credentials" not in response
    preflight = client.options(url, **PREFLIGHT)
    assert preflight.status_code == 204
    assert preflight["Access-Control-Allow-Origin"] == "*"
    assert preflight["Access-Control-Allow-Methods"] == "GET, HEAD"


def test_a_post_to_open311_gets_no_cross_origin_header(client):
    response = client.post(
        "/open311/v2/requests.json", {"service_code": "x", "api_key": "nope"}, **ORIGIN
    )
    assert response.status_code in (400, 403, 429)
    assert "Access-Control-Allow-Origin" not in response


@pytest.mark.parametrize(
    "url",
    ["/staff/map/points.geojson", "/staff/", "/", "/report/", "/status/"],
)
def test_staff_and_other_pages_get_no_cross_origin_header(client, smo_user, url):
    client.force_login(smo_user)
    response = client.get(url, **ORIGIN)
    assert "Access-Control-Allow-Origin" not in response
    preflight = client.options(url, **PREFLIGHT)
    assert "Access-Control-Allow-Origin" not in preflight
