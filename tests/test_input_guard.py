"""The 500s found by fuzzing (issue 15), each now a 400 or 404 with a clear
message: a NUL character (kernel.input_guard, one middleware for every page),
an Open311 date whose window overflows, and Unicode digits that str.isdigit
accepts but int() and the database do not."""

import json

import pytest
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile

from kernel.input_guard import NOT_ALLOWED, ascii_digits
from tests.api_keys import known_key

pytestmark = pytest.mark.django_db
OPEN311 = "/open311/v2"


@pytest.fixture(autouse=True)
def _fresh_rate_limits(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def api_key(db):
    return known_key("test-key", "Test client")


def open311_errors(response):
    return [e["description"] for e in json.loads(response.content)]


def a_request(**extra):
    data = {
        "api_key": "test-key",
        "service_code": "wash-water",
        "lat": "40.952300",
        "long": "-73.088700",
        "description": "Suds coming out of the outfall pipe.",
    }
    data.update(extra)
    return data


# --- NUL ------------------------------------------------------------------------
@pytest.mark.parametrize(
    "field", ["description", "service_code", "api_key", "first_name", "attribute[x]"]
)
def test_nul_in_an_open311_post_field_is_a_400_in_the_spec_shape(
    client, api_key, field
):
    response = client.post(f"{OPEN311}/requests.json", a_request(**{field: "a\x00b"}))
    assert response.status_code == 400
    assert open311_errors(response) == [NOT_ALLOWED]


def test_nul_in_an_open311_query_is_a_400_in_xml_too(client):
    response = client.get(f"{OPEN311}/requests.xml", {"service_code": "\x00"})
    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/xml")
    assert NOT_ALLOWED in response.content.decode()


def test_nul_in_an_uploaded_file_name_is_a_400(client, api_key):
    media = SimpleUploadedFile("photo\x00.png", b"not read", "image/png")
    response = client.post(f"{OPEN311}/requests.json", a_request(media=media))
    assert response.status_code == 400


def test_nul_in_the_file_contents_is_left_to_the_image_check(client, api_key):
    media = SimpleUploadedFile("photo.png", b"\x00" * 100, "image/png")
    response = client.post(f"{OPEN311}/requests.json", a_request(media=media))
    assert response.status_code == 400
    assert "not a photo we can read" in open311_errors(response)[0]


def test_nul_in_the_ical_token_is_a_400(client):
    response = client.get("/deadlines/ical/abc%00def.ics")
    assert response.status_code == 400
    assert response.content.decode() == NOT_ALLOWED


def test_nul_in_the_deadline_api_is_a_400_in_json(client):
    response = client.get("/api/deadlines/compute", {"rule": "R-APL-1\x00"})
    assert response.status_code == 400
    assert response.json() == {"error": NOT_ALLOWED}


def test_nul_in_staff_pages_is_a_400(smo_client):
    assert smo_client.get("/inspections/", {"status": "\x00"}).status_code == 400
    assert smo_client.get("/staff/cases/2026-%00001/").status_code == 400


def test_nul_in_the_report_form_is_a_400(client):
    response = client.post("/report/", {"description": "soap\x00"})
    assert response.status_code == 400
    assert response.content.decode() == NOT_ALLOWED


def test_a_request_without_nul_goes_through(client):
    assert client.get("/", {"q": "ABC"}).status_code == 200


# --- dates --------------------------------------------------------------------------
@pytest.mark.parametrize(
    "query",
    [
        {"end_date": "0001-01-01T00:00:00Z"},  # a date alone is a 400 of its own
        {"end_date": "0001-01-01T00:00:00+14:00"},
        {"start_date": "9999-12-31T23:59:59-12:00"},
        {"start_date": "1899-12-31T00:00:00Z", "end_date": "2026-01-01T00:00:00Z"},
    ],
)
def test_open311_dates_beyond_the_years_we_serve_are_a_400(client, query):
    response = client.get(f"{OPEN311}/requests.json", query)
    assert response.status_code == 400
    assert "must be between the years 1900 and 2999" in open311_errors(response)[0]


# --- digits -------------------------------------------------------------------------
@pytest.mark.parametrize("value", ["²", "1,²", "١٢", "1" * 19, "-1", "1.0"])
def test_open311_ids_must_be_ascii_numbers(client, value):
    response = client.get(f"{OPEN311}/requests.json", {"service_request_id": value})
    assert response.status_code == 400
    assert open311_errors(response) == [
        "service_request_id must be numbers, comma-separated."
    ]


@pytest.mark.parametrize("notice", ["²", "9" * 30, "9" * 5000])
def test_the_appeal_form_ignores_a_notice_that_is_no_id(smo_client, notice):
    response = smo_client.get("/enforcement/appeals/new/", {"notice": notice})
    assert response.status_code == 200


@pytest.mark.parametrize("pk", ["²", "9" * 5000])
def test_a_category_not_in_ascii_digits_is_refused_not_a_500(client, pk):
    response = client.post("/report/", {"pollutant_categories": [pk]})
    assert response.status_code == 400


@pytest.mark.parametrize(
    ("value", "digits"),
    [
        ("123", True),
        ("9" * 18, True),
        ("9" * 19, False),
        ("", False),
        ("²", False),
        ("١", False),
        ("12a", False),
    ],
)
def test_ascii_digits(value, digits):
    assert ascii_digits(value) is digits
