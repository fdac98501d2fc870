"""Open311 GeoReport v2 at /open311/v2/: every endpoint in JSON and XML,
including each error."""

import json
from xml.etree import ElementTree as ET

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from cases.models import Note
from cases.services import case_run_transition
from intake.models import Report
from intake.services import report_submit
from tests.api_keys import known_key

from ..reports.helpers import HTML_TRAILER, category, open_case_for, png_bytes, upload

pytestmark = pytest.mark.django_db
BASE = "/open311/v2"
FORMATS = ["json", "xml"]


@pytest.fixture
def api_key(db):
    return known_key("test-key", "Test client")


def parse(response, fmt):
    if fmt == "json":
        assert response["Content-Type"].startswith("application/json")
        return json.loads(response.content)
    assert response["Content-Type"].startswith("text/xml")
    return ET.fromstring(response.content)


def errors_of(response, fmt):
    doc = parse(response, fmt)
    if fmt == "json":
        assert isinstance(doc, list)
        return [(e["code"], e["description"]) for e in doc]
    assert doc.tag == "errors"
    return [(int(e.findtext("code")), e.findtext("description")) for e in doc]


def post_request(client, fmt, data, query=""):
    return client.post(f"{BASE}/requests.{fmt}{query}", data)


def a_request(**extra):
    data = {
        "api_key": "test-key",
        "service_code": "wash-water",
        "lat": "40.952300",
        "long": "-73.088700",
        "description": "Suds coming out of the outfall pipe.",
        "attribute[suds]": "yes",
        "attribute[flow]": "dry",
        "email": "client-user@example.org",
        "first_name": "Olive",
        "last_name": "Open",
        "phone": "631-555-0177",
    }
    data.update(extra)
    return {k: v for k, v in data.items() if v is not None}


def web_report(**fields):
    base = {"description": "Secret words of Ann", "address": "3 Washington Street"}
    base.update(fields)
    return report_submit(
        channel=Report.Channel.WEB,
        fields=base,
        pollutant_categories=[category("pool-water")],
    )


# --- discovery, services, definitions ---------------------------------------------
@pytest.mark.parametrize("fmt", FORMATS)
def test_discovery(client, fmt):
    response = client.get(f"{BASE}/discovery.{fmt}")
    assert response.status_code == 200
    doc = parse(response, fmt)
    if fmt == "json":
        endpoint = doc["endpoints"][0]
        assert endpoint["specification"] == "http://wiki.open311.org/GeoReport_v2"
        assert endpoint["url"].endswith("/open311/v2")
        assert set(endpoint["formats"]) == {"text/xml", "application/json"}
        assert doc["contact"]
    else:
        assert doc.tag == "discovery"
        formats = [f.text for f in doc.find("endpoints/endpoint/formats")]
        assert set(formats) == {"text/xml", "application/json"}


@pytest.mark.parametrize("fmt", FORMATS)
def test_service_list(client, fmt):
    doc = parse(client.get(f"{BASE}/services.{fmt}"), fmt)
    if fmt == "json":
        assert isinstance(doc, list)
        codes = {s["service_code"]: s for s in doc}
        assert codes["wash-water"]["metadata"] is True
        # The POST answers the service_request_id at once: "realtime".
        assert codes["wash-water"]["type"] == "realtime"
        assert "911" in codes["oil-fuel"]["description"]
    else:
        assert doc.tag == "services"
        codes = {s.findtext("service_code"): s for s in doc.findall("service")}
        assert codes["wash-water"].findtext("metadata") == "true"
    assert "sewage" in codes


@pytest.mark.parametrize("fmt", FORMATS)
def test_service_definition_has_the_screening_signs(client, fmt):
    doc = parse(client.get(f"{BASE}/services/wash-water.{fmt}"), fmt)
    if fmt == "json":
        assert doc["service_code"] == "wash-water"
        attrs = {a["code"]: a for a in doc["attributes"]}
        assert attrs["colour"]["datatype"] == "singlevaluelist"
        assert {"key": "brown", "name": "Brown or muddy"} in attrs["colour"]["values"]
        assert attrs["observed_at"]["datatype"] == "datetime"
    else:
        assert doc.tag == "service_definition"
        attrs = {a.findtext("code"): a for a in doc.find("attributes")}
        keys = [v.findtext("key") for v in attrs["flow"].find("values")]
        assert "dry" in keys
    assert set(attrs) == {
        "colour",
        "odour",
        "sheen",
        "suds",
        "floatables",
        "flow",
        "observed_at",
    }


@pytest.mark.parametrize("fmt", FORMATS)
def test_unknown_service_definition_is_404(client, fmt):
    response = client.get(f"{BASE}/services/nope.{fmt}")
    assert response.status_code == 404
    assert errors_of(response, fmt)[0][0] == 404


def test_unknown_format_is_404(client):
    assert client.get(f"{BASE}/services.html").status_code == 404


# --- POST service request -------------------------------------------------------
@pytest.mark.parametrize("fmt", FORMATS)
def test_post_form_encoded_creates_a_report_in_the_triage_queue(client, api_key, fmt):
    response = post_request(client, fmt, a_request())
    assert response.status_code == 201
    doc = parse(response, fmt)
    report = Report.objects.get()
    if fmt == "json":
        row = doc[0]
        assert row["service_request_id"] == str(report.pk)
        assert row["token"] == report.tracking_code
        assert "911" in row["service_notice"]
        assert row["account_id"] is None
    else:
        assert doc.tag == "service_requests"
        assert doc.findtext("request/service_request_id") == str(report.pk)
    assert report.channel == Report.Channel.OPEN311
    assert report.api_client == api_key
    assert report.in_triage_queue
    assert report.suds and report.flow == "dry"
    assert report.reporter_name == "Olive Open"
    assert list(report.pollutant_categories.all()) == [category("wash-water")]


def test_post_with_api_key_in_query_string(client, api_key):
    data = a_request(api_key=None)
    response = post_request(client, "json", data, query="?api_key=test-key")
    assert response.status_code == 201


def test_post_multipart_with_media_photo(client, api_key):
    data = a_request()
    data["media"] = upload("m.png", png_bytes(trailer=HTML_TRAILER))
    response = client.post(f"{BASE}/requests.json", data)  # multipart
    assert response.status_code == 201
    photo = Report.objects.get().photos.get()
    assert HTML_TRAILER not in photo.display.read()


def test_post_with_address_only(client, api_key):
    data = a_request(lat=None, long=None, address_string="45 Birchwood Avenue")
    assert post_request(client, "json", data).status_code == 201
    assert Report.objects.get().address == "45 Birchwood Avenue"


def test_post_needs_no_csrf_token(api_key):
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    assert strict.post(f"{BASE}/requests.json", a_request()).status_code == 201


def test_the_web_form_still_needs_its_csrf_token(db):
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    assert strict.post("/report/", {"description": "x"}).status_code == 403


POST_ERRORS = [
    ("no key", {"api_key": None}, 403, "api_key"),
    ("wrong key", {"api_key": "nope"}, 403, "api_key"),
    ("no service code", {"service_code": None}, 400, "service_code was not provided"),
    # The spec: "404 - service_code or service_request_id not found".
    ("unknown service code", {"service_code": "nope"}, 404, "was not found"),
    ("no location", {"lat": None, "long": None}, 400, "A location is required"),
    (
        "address_id only",
        {"lat": None, "long": None, "address_id": "77"},
        400,
        "address_id",
    ),
    ("far away", {"lat": "40.7128", "long": "-74.0060"}, 400, "outside the Village"),
    ("bad lat", {"lat": "north"}, 400, "decimal degrees"),
    ("nan lat", {"lat": "NaN"}, 400, "decimal degrees"),
    ("long description", {"description": "x" * 4001}, 400, "longer than 4000"),
    ("bad email", {"email": "nope"}, 400, "email"),
    ("bad attribute", {"attribute[colour]": "plaid"}, 400, "attribute[colour]"),
    ("bad datetime", {"attribute[observed_at]": "soon"}, 400, "ISO 8601"),
    ("bad media_url", {"media_url": "javascript:alert(1)"}, 400, "media_url"),
]


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize(
    ("why", "changes", "status", "text"), POST_ERRORS, ids=[e[0] for e in POST_ERRORS]
)
def test_post_errors(client, api_key, fmt, why, changes, status, text):
    response = post_request(client, fmt, a_request(**changes))
    assert response.status_code == status
    errors = errors_of(response, fmt)
    assert errors[0][0] == status
    assert any(text in description for _code, description in errors)
    assert Report.objects.count() == 0


def test_revoked_key_is_refused(client, api_key):
    api_key.active = False
    api_key.revoked_at = timezone.now()
    api_key.save()
    assert post_request(client, "json", a_request()).status_code == 403


@pytest.mark.parametrize("fmt", FORMATS)
def test_post_non_image_media_is_refused(client, api_key, fmt):
    data = a_request()
    data["media"] = upload("x.jpg", b"MZ\x90\x00 not a picture" * 10, "image/jpeg")
    response = client.post(f"{BASE}/requests.{fmt}", data)
    assert response.status_code == 400
    assert "not a photo we can read" in errors_of(response, fmt)[0][1]
    assert Report.objects.count() == 0


@pytest.mark.parametrize("fmt", FORMATS)
def test_post_rate_limit_gives_429_error_body(client, api_key, fmt):
    api_key.reports_per_hour = 3
    api_key.save()
    for _ in range(3):
        assert post_request(client, fmt, a_request()).status_code == 201
    response = post_request(client, fmt, a_request())
    assert response.status_code == 429
    [(code, description)] = errors_of(response, fmt)
    assert code == 429
    assert "3 reports an hour" in description
    assert 3500 < int(response["Retry-After"]) <= 3600
    assert Report.objects.count() == 3


# --- GET service requests ---------------------------------------------------------
PRIVATE = [
    "Secret words of Ann",
    "Ann Private",
    "ann@example.org",
    "555-0123",
    "Internal: owner",
    "Neighbour",
    "Private note",
]


@pytest.mark.parametrize("fmt", FORMATS)
def test_get_requests_lists_public_facts_only(client, smo_user, fmt):
    report = web_report(
        reporter_name="Ann Private",
        reporter_email="ann@example.org",
        reporter_phone="(631) 555-0123",
        latitude="40.950000",
        longitude="-73.090000",
    )
    case = open_case_for(report, smo_user)
    Note.objects.create(case=case, author=smo_user, text="Private note")
    response = client.get(f"{BASE}/requests.{fmt}")
    assert response.status_code == 200
    body = response.content.decode()
    for secret in PRIVATE + [report.tracking_code, case.number]:
        assert secret not in body, secret
    doc = parse(response, fmt)
    if fmt == "json":
        row = doc[0]
        assert row["service_request_id"] == str(report.pk)
        assert row["status"] == "open"
        assert row["service_code"] == "pool-water"
        assert row["address"] == "Washington Street"  # the street, not the house
        assert row["lat"] == 40.95 and row["long"] == -73.09
        assert row["requested_datetime"].endswith(("-05:00", "-04:00"))
        assert timezone.datetime.fromisoformat(row["updated_datetime"]).tzinfo
        assert row["media_url"] is None and row["description"] is None
    else:
        assert doc.tag == "service_requests"
        assert doc.findtext("request/status") == "open"


def test_status_notes_are_the_shared_note_and_closed_status(client, smo_user):
    report = web_report()
    case = open_case_for(report, smo_user)
    case_run_transition(case=case, transition="start_investigation", actor=smo_user)
    Note.objects.create(case=case, author=smo_user, text="Not our pipe.", public=True)
    case.closing_reason = "Nothing found"
    case_run_transition(
        case=case,
        transition="close_unfounded",
        actor=smo_user,
        closing_reason="Nothing found",
    )
    row = client.get(f"{BASE}/requests/{report.pk}.json").json()[0]
    assert row["status"] == "closed"
    assert "Closed — not a violation" in row["status_notes"]
    assert "Not our pipe." in row["status_notes"]


def test_filters_by_id_code_dates_and_status(client, smo_user):
    old = web_report()
    Report.objects.filter(pk=old.pk).update(
        received_at=timezone.now() - timezone.timedelta(days=120)
    )
    fresh = web_report()
    other = report_submit(
        channel=Report.Channel.WEB,
        fields={"description": "sewage", "address": "Thompson Street"},
        pollutant_categories=[category("sewage")],
    )
    closed = web_report()
    case = open_case_for(closed, smo_user)
    case_run_transition(
        case=case, transition="close_unfounded", actor=smo_user, closing_reason="none"
    )

    def ids(query):
        rows = client.get(f"{BASE}/requests.json{query}").json()
        return {int(r["service_request_id"]) for r in rows}

    # Default window: the last 90 days.
    assert ids("") == {fresh.pk, other.pk, closed.pk}
    # By id, whatever the age (issue 29: the window is for lists).
    assert ids(f"?service_request_id={old.pk},{fresh.pk}") == {old.pk, fresh.pk}
    # service_request_id wins over every other parameter (the spec).
    assert ids(f"?service_request_id={closed.pk}&status=open") == {closed.pk}
    assert ids("?service_code=sewage") == {other.pk}
    assert ids("?service_code=sewage,pool-water") == {fresh.pk, other.pk, closed.pk}
    assert ids("?status=closed") == {closed.pk}
    assert ids("?status=open") == {fresh.pk, other.pk}
    assert ids("?status=open,closed") == {fresh.pk, other.pk, closed.pk}
    start = (timezone.now() - timezone.timedelta(days=150)).isoformat()
    end = (timezone.now() - timezone.timedelta(days=100)).isoformat()
    from urllib.parse import quote

    assert ids(f"?start_date={quote(start)}&end_date={quote(end)}") == {old.pk}
    assert ids(f"?end_date={quote(end)}") == {old.pk}


def test_list_is_capped_at_1000(client, monkeypatch):
    from intake.open311 import views

    monkeypatch.setattr(views, "MAX_RESULTS", 2)
    for _ in range(3):
        web_report()
    assert len(client.get(f"{BASE}/requests.json").json()) == 2


GET_ERRORS = [
    ("?start_date=yesterday", "start_date"),
    ("?end_date=2026-13-45T00:00:00Z", "end_date"),
    ("?status=pending", "status must be"),
    ("?service_request_id=1,abc", "service_request_id"),
    (
        "?start_date=2026-02-01T00:00:00Z&end_date=2026-01-01T00:00:00Z",
        "after end_date",
    ),
]


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize(("query", "text"), GET_ERRORS)
def test_get_requests_errors(client, fmt, query, text):
    response = client.get(f"{BASE}/requests.{fmt}{query}")
    assert response.status_code == 400
    errors = errors_of(response, fmt)
    assert errors[0][0] == 400 and any(text in d for _c, d in errors)


def test_get_requests_query_count_does_not_grow_with_rows(client, smo_user):
    for _ in range(3):
        open_case_for(web_report(), smo_user)
    with CaptureQueriesContext(connection) as three:
        assert len(client.get(f"{BASE}/requests.json").json()) == 3
    for _ in range(27):
        open_case_for(web_report(), smo_user)
    with CaptureQueriesContext(connection) as thirty:
        assert len(client.get(f"{BASE}/requests.json").json()) == 30
    assert len(three) == len(thirty)


@pytest.mark.parametrize("fmt", FORMATS)
def test_get_one_request(client, fmt):
    report = web_report()
    response = client.get(f"{BASE}/requests/{report.pk}.{fmt}")
    assert response.status_code == 200
    doc = parse(response, fmt)
    if fmt == "json":
        assert [r["service_request_id"] for r in doc] == [str(report.pk)]
    else:
        assert doc.findtext("request/service_request_id") == str(report.pk)
    assert "Secret words of Ann" not in response.content.decode()


@pytest.mark.parametrize("fmt", FORMATS)
def test_get_unknown_request_is_404(client, fmt):
    response = client.get(f"{BASE}/requests/999999.{fmt}")
    assert response.status_code == 404
    assert errors_of(response, fmt)[0][0] == 404


@pytest.mark.parametrize("fmt", FORMATS)
def test_token_gives_the_request_id(client, api_key, fmt):
    token = post_request(client, "json", a_request()).json()[0]["token"]
    report = Report.objects.get()
    doc = parse(client.get(f"{BASE}/tokens/{token}.{fmt}"), fmt)
    if fmt == "json":
        assert doc == [{"service_request_id": str(report.pk), "token": token}]
    else:
        assert doc.findtext("request/service_request_id") == str(report.pk)
        assert doc.findtext("request/token") == token


@pytest.mark.parametrize("fmt", FORMATS)
def test_unknown_token_is_404(client, fmt):
    response = client.get(f"{BASE}/tokens/PQ-AAAA-BBBB.{fmt}")
    assert response.status_code == 404
    assert errors_of(response, fmt)[0][0] == 404


def test_web_and_open311_reports_are_one_kind_of_record(client, api_key):
    post_request(client, "json", a_request())
    web = web_report()
    rows = client.get(f"{BASE}/requests.json").json()
    assert {r["service_request_id"] for r in rows} == {
        str(r.pk) for r in Report.objects.all()
    }
    assert Report.objects.filter(case__isnull=True).count() == 2
    assert web.channel == "web"


def test_open311_round_trip_with_demo_key(client):

    from intake.open311.keys import api_key_install_demo

    api_key_install_demo()
    services = client.get(f"{BASE}/services.json").json()
    code = services[0]["service_code"]
    created = client.post(
        f"{BASE}/requests.json",
        {"api_key": "demo-key", "service_code": code, "address_string": "Sound Road"},
    )
    assert created.status_code == 201
    request_id = created.json()[0]["service_request_id"]
    row = client.get(f"{BASE}/requests/{request_id}.json").json()[0]
    # Sound Road is not a street of the village's list: no street is published.
    assert row["status"] == "open" and row["address"] is None


def test_a_merged_duplicate_follows_the_case_it_was_merged_into(client, smo_user):
    """The list reads plain rows (bench/), yet says what the status page says:
    the merged report shows the main case's status, public note and dates."""
    from cases.services import case_open
    from intake import public_status

    report = web_report()
    duplicate = open_case_for(report, smo_user)
    main = case_open(actor=smo_user, source="web", summary="Main case")
    case_run_transition(case=main, transition="start_investigation", actor=smo_user)
    case_run_transition(
        case=duplicate, transition="mark_duplicate", actor=smo_user, merged_into=main
    )
    note = Note.objects.create(
        case=main, author=smo_user, text="Crew on site Monday.", public=True
    )
    Note.objects.create(
        case=duplicate, author=smo_user, text="Same pipe as the other.", public=True
    )
    row = client.get(f"{BASE}/requests/{report.pk}.json").json()[0]
    report.refresh_from_db()
    shown = public_status.for_report(report)
    assert shown.key == "investigating"
    assert row["status"] == "open"
    assert row["status_notes"] == f"{shown.label}. Crew on site Monday."
    updated = timezone.datetime.fromisoformat(row["updated_datetime"])
    assert updated == note.created_at.replace(microsecond=0)

    case_run_transition(
        case=main,
        transition="close_unfounded",
        actor=smo_user,
        closing_reason="Nothing found",
    )
    listed = {
        r["service_request_id"]: r for r in client.get(f"{BASE}/requests.json").json()
    }
    assert listed[str(report.pk)]["status"] == "closed"
    assert listed[str(report.pk)]["status_notes"].startswith(
        "Closed — not a violation."
    )


def test_a_report_without_a_service_code_is_listed_under_its_first_category(client):
    report = report_submit(
        channel=Report.Channel.WEB,
        fields={"description": "two kinds", "address": "1 Main Street"},
        pollutant_categories=[category("sewage"), category("pool-water")],
    )
    first = report.pollutant_categories.all()[0].code  # the categories' own order
    row = client.get(f"{BASE}/requests/{report.pk}.json").json()[0]
    assert row["service_code"] == first
    bare = report_submit(
        channel=Report.Channel.WEB,
        fields={"description": "no kind", "address": "2 Main Street"},
        pollutant_categories=[],
    )
    assert client.get(f"{BASE}/requests/{bare.pk}.json").json()[0]["service_code"] == (
        "other"
    )


def test_the_911_warning_cites_the_spill_section_of_the_table(client, api_key):
    from kernel.citations import citation

    response = client.post(
        "/open311/v2/requests.json",
        {
            "api_key": "test-key",
            "service_code": "wash-water",
            "lat": "40.952300",
            "long": "-73.088700",
            "description": "Suds.",
        },
    )
    assert response.status_code == 201
    notice = response.json()[0]["service_notice"]
    assert f"Poquott Code {citation('R-SPL-2').section}, R-SPL-2" in notice
