"""Open311 as a real GeoReport v2 client sees it (issue 17, "Integrators"): the
service_code filter finds every report under the code it is listed with, the
documents name the host they were asked on, the spec's limits (90 days, 1,000
rows, then a next page), and the spec's errors for every bad path, method and
parameter."""

import importlib
import json
import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import quote, urlsplit
from xml.etree import ElementTree as ET

import pytest
from django.utils import timezone

from intake.models import Report
from intake.services import report_submit
from tests.api_keys import known_key

from ..cases.factories import ReportFactory
from ..reports.helpers import category, valid_post

pytestmark = pytest.mark.django_db
BASE = "/open311/v2"
FORMATS = ["json", "xml"]
ROOT = Path(__file__).resolve().parents[2]


def errors_of(response, fmt):
    """The spec's error body: [{code, description}] or <errors><error>…"""
    if fmt == "json":
        assert response["Content-Type"].startswith("application/json")
        return [(e["code"], e["description"]) for e in json.loads(response.content)]
    assert response["Content-Type"].startswith("text/xml")
    doc = ET.fromstring(response.content)
    assert doc.tag == "errors"
    return [(int(e.findtext("code")), e.findtext("description")) for e in doc]


def listed(client, query=""):
    response = client.get(f"{BASE}/requests.json{query}")
    assert response.status_code == 200, response.content
    return {int(r["service_request_id"]): r["service_code"] for r in response.json()}


def web_report(code="pool-water", **fields):
    base = {"description": "Suds", "address": "3 Washington Street"}
    base.update(fields)
    return report_submit(
        channel=Report.Channel.WEB,
        fields=base,
        pollutant_categories=[category(code)],
    )


# --- 1. service_code: the filter and the output agree ---------------------------
def test_a_report_from_the_web_form_is_found_by_the_code_it_is_listed_with(client):
    response = client.post("/report/", valid_post())
    assert response.status_code in (200, 302)
    report = Report.objects.get()
    assert report.service_code == "wash-water"  # stored when it was filed
    assert listed(client) == {report.pk: "wash-water"}
    assert listed(client, "?service_code=wash-water") == {report.pk: "wash-water"}
    assert listed(client, "?service_code=sewage") == {}


def test_a_report_stored_without_a_code_is_filtered_as_it_is_listed(client):
    """A report stored with no code (an older row, the admin, a fixture) is
    listed under its first category: the filter finds it there, not nowhere."""
    bare = ReportFactory()
    bare.pollutant_categories.set([category("sewage"), category("pool-water")])
    assert Report.objects.get(pk=bare.pk).service_code == ""
    shown = listed(client)[bare.pk]
    assert shown == bare.pollutant_categories.order_by("sort_order", "name")[0].code
    assert listed(client, f"?service_code={shown}") == {bare.pk: shown}
    no_kind = ReportFactory()
    assert listed(client, "?service_code=other") == {no_kind.pk: "other"}
    assert bare.pk not in listed(client, "?service_code=other")


def test_a_report_of_two_kinds_is_found_under_each_code_and_listed_once(client):
    """Issue 29: listed with one service_code (Open311 has one per request),
    found by `service_code=` under each of its categories."""
    both = ReportFactory()
    both.pollutant_categories.set([category("sewage"), category("pool-water")])
    shown = listed(client)[both.pk]
    for code in ("sewage", "pool-water"):
        assert listed(client, f"?service_code={code}") == {both.pk: shown}
    assert listed(client, "?service_code=sewage,pool-water") == {both.pk: shown}
    rows = client.get(f"{BASE}/requests.json?service_code=sewage,pool-water").json()
    assert len(rows) == 1


class _ModelsOfMigration20:
    """The models as migration 0020 names them (cases'); intake holds them now."""

    def __init__(self, apps):
        self.apps = apps

    def get_model(self, app_label, name):
        assert app_label == "cases"
        return self.apps.get_model("intake", name)


def test_the_migration_stores_the_listed_code_on_reports_without_one(client):
    from django.apps import apps

    migration = importlib.import_module(
        "cases.migrations.0020_store_service_code_of_every_report"
    )
    bare = ReportFactory()
    bare.pollutant_categories.set([category("sewage")])
    none = ReportFactory()
    own = web_report("pool-water")
    before = listed(client)
    migration.store_codes(_ModelsOfMigration20(apps), None)
    stored = dict(Report.objects.values_list("pk", "service_code"))
    assert stored == {bare.pk: "sewage", none.pk: "other", own.pk: "pool-water"}
    assert listed(client) == before == stored


# --- 2. the address the documents advertise ----------------------------------------
@pytest.fixture
def no_site_url(settings):
    """SITE_URL not set, as with `make run`."""
    settings.SITE_URL_SET = False
    settings.SITE_URL = "http://127.0.0.1:8000"  # settings' default, unused here
    settings.ALLOWED_HOSTS = ["127.0.0.1", "localhost"]


@pytest.mark.parametrize("fmt", FORMATS)
def test_discovery_names_the_host_it_was_asked_on(client, no_site_url, fmt):
    response = client.get(f"{BASE}/discovery.{fmt}", HTTP_HOST="127.0.0.1:8123")
    assert response.status_code == 200
    if fmt == "json":
        url = response.json()["endpoints"][0]["url"]
    else:
        url = ET.fromstring(response.content).findtext("endpoints/endpoint/url")
    assert url == "http://127.0.0.1:8123/open311/v2"


def test_the_service_notice_names_the_host_it_was_asked_on(client, no_site_url):
    known_key("k", "Client")
    response = client.post(
        f"{BASE}/requests.json",
        {"api_key": "k", "service_code": "wash-water", "address_string": "Sound Road"},
        HTTP_HOST="127.0.0.1:8123",
    )
    assert response.status_code == 201
    assert "http://127.0.0.1:8123/status/" in response.json()[0]["service_notice"]


def test_a_host_not_allowed_is_refused_not_advertised(client, no_site_url):
    response = client.get(f"{BASE}/discovery.json", HTTP_HOST="evil.example")
    assert response.status_code == 400  # Django's DisallowedHost


def test_a_set_site_url_wins_over_the_host(client, settings):
    settings.SITE_URL_SET = True
    settings.SITE_URL = "https://ms4.poquott.example"
    response = client.get(f"{BASE}/discovery.json", HTTP_HOST="127.0.0.1:8123")
    url = response.json()["endpoints"][0]["url"]
    assert url == "https://ms4.poquott.example/open311/v2"


def test_without_site_url_the_default_is_the_port_of_make_run():
    """What has no request (the worker's e-mails) says 127.0.0.1:$PORT."""
    env = {k: v for k, v in os.environ.items() if k != "SITE_URL"}
    env.update(PORT="8123", DJANGO_SETTINGS_MODULE="poquott_ms4.settings.test")
    code = (
        "from django.conf import settings;"
        "print(settings.SITE_URL, settings.SITE_URL_SET, settings.VILLAGE['site_url'])"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert out == ["http://127.0.0.1:8123", "False", "http://127.0.0.1:8123"]
    env["SITE_URL"] = "https://ms4.poquott.example/"
    out = subprocess.run(
        [sys.executable, "-c", code],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert out == ["https://ms4.poquott.example", "True", "https://ms4.poquott.example"]


def test_make_run_passes_the_port_to_the_site_and_the_worker():
    makefile = (ROOT / "Makefile").read_text()
    assert "\nexport PORT\n" in makefile
    assert "runserver 127.0.0.1:$(PORT)" in makefile


# --- 3. the spec's limits: 90 days, 1,000 rows, the next page ------------------------
@pytest.mark.parametrize("fmt", FORMATS)
def test_a_span_over_90_days_is_the_specs_400(client, fmt):
    end = timezone.now()
    start = end - timezone.timedelta(days=91)
    response = client.get(
        f"{BASE}/requests.{fmt}?start_date={quote(start.isoformat())}"
        f"&end_date={quote(end.isoformat())}"
    )
    assert response.status_code == 400
    assert any("90 days" in d for _c, d in errors_of(response, fmt))
    exactly = f"?start_date={quote((end - timezone.timedelta(days=90)).isoformat())}"
    assert client.get(f"{BASE}/requests.{fmt}{exactly}").status_code == 200


def test_a_start_date_alone_covers_90_days_from_it(client):
    old = web_report()
    Report.objects.filter(pk=old.pk).update(
        received_at=timezone.now() - timezone.timedelta(days=200)
    )
    fresh = web_report()
    start = quote((timezone.now() - timezone.timedelta(days=250)).isoformat())
    assert set(listed(client, f"?start_date={start}")) == {old.pk}
    start = quote((timezone.now() - timezone.timedelta(days=10)).isoformat())
    assert set(listed(client, f"?start_date={start}")) == {fresh.pk}


def test_more_than_1000_rows_say_so_with_a_next_page(client, monkeypatch, settings):
    from intake.open311 import views

    settings.SITE_URL_SET = True
    settings.SITE_URL = "https://ms4.poquott.example"
    monkeypatch.setattr(views, "MAX_RESULTS", 2)
    made = [web_report(), web_report(), web_report("sewage"), web_report()]
    newest_first = [r.pk for r in reversed(made)]
    first = client.get(f"{BASE}/requests.json?status=open&status=closed")
    assert [int(r["service_request_id"]) for r in first.json()] == newest_first[:2]
    link = first["Link"]
    assert link.endswith('>; rel="next"')
    url = urlsplit(link[1 : link.index(">")])
    assert url.scheme + "://" + url.netloc == "https://ms4.poquott.example"
    assert url.path == f"{BASE}/requests.json"
    assert "page=2" in url.query and url.query.count("status=") == 2
    second = client.get(f"{url.path}?{url.query}")
    assert [int(r["service_request_id"]) for r in second.json()] == newest_first[2:]
    assert "Link" not in second  # the last page
    assert client.get(f"{BASE}/requests.json?page=3").json() == []


@pytest.mark.parametrize("page", ["0", "-1", "two", "1.5", "9999999"])
def test_a_bad_page_is_400(client, page):
    response = client.get(f"{BASE}/requests.json?page={page}")
    assert response.status_code == 400
    assert any("page" in d for _c, d in errors_of(response, "json"))


def test_more_than_1000_ids_is_400_not_cut_short(client):
    ids = ",".join(str(i) for i in range(1, 1002))
    response = client.get(f"{BASE}/requests.json?service_request_id={ids}")
    assert response.status_code == 400
    assert any("1000" in d for _c, d in errors_of(response, "json"))


# --- 4. the spec's errors ----------------------------------------------------------
@pytest.mark.parametrize(
    ("path", "fmt"),
    [
        ("", "json"),
        ("nope.json", "json"),
        ("nope.xml", "xml"),
        ("requests/abc.xml", "xml"),
        ("requests/1/comments.json", "json"),
        ("services/wash-water/extra.xml", "xml"),
        ("services.html", "json"),
        ("requests.json/", "json"),
        ("a%01b%3C%26.xml", "xml"),  # the answer is well-formed XML whatever the path
    ],
)
def test_an_unknown_route_is_the_specs_404(client, path, fmt):
    response = client.get(f"{BASE}/{path}")
    assert response.status_code == 404
    assert errors_of(response, fmt)[0][0] == 404


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize(
    "path",
    ["discovery", "services", "services/wash-water", "requests/1", "tokens/PQ-1"],
)
def test_post_to_a_read_only_endpoint_is_the_specs_405(client, path, fmt):
    response = client.post(f"{BASE}/{path}.{fmt}", {"x": "1"})
    assert response.status_code == 405
    assert errors_of(response, fmt)[0][0] == 405
    assert set(response["Allow"].split(", ")) == {"GET", "HEAD"}


@pytest.mark.parametrize("fmt", FORMATS)
def test_other_methods_on_requests_are_the_specs_405(client, fmt):
    for method in (client.put, client.delete, client.patch):
        response = method(f"{BASE}/requests.{fmt}")
        assert response.status_code == 405
        assert errors_of(response, fmt)[0][0] == 405
        assert set(response["Allow"].split(", ")) == {"GET", "HEAD", "POST"}


@pytest.mark.parametrize("fmt", FORMATS)
def test_an_unknown_service_code_on_post_is_404(client, fmt):
    known_key("k", "Client")
    response = client.post(
        f"{BASE}/requests.{fmt}",
        {"api_key": "k", "service_code": "nope", "address_string": "Sound Road"},
    )
    assert response.status_code == 404
    assert errors_of(response, fmt)[0][0] == 404
    assert not Report.objects.exists()


def test_a_repeated_status_counts_every_value(client, smo_user):
    from cases.services import case_run_transition

    from ..reports.helpers import open_case_for

    open_one = web_report()
    closed = web_report()
    case_run_transition(
        case=open_case_for(closed, smo_user),
        transition="close_unfounded",
        actor=smo_user,
        closing_reason="none",
    )
    assert set(listed(client, "?status=open&status=closed")) == {open_one.pk, closed.pk}
    assert set(listed(client, "?status=closed&status=open")) == {open_one.pk, closed.pk}
    assert set(listed(client, "?status=closed&status=closed")) == {closed.pk}
    response = client.get(f"{BASE}/requests.json?status=open&status=pending")
    assert response.status_code == 400


def test_a_repeated_service_code_and_id_count_every_value(client):
    pool, sewage = web_report("pool-water"), web_report("sewage")
    both = "?service_code=pool-water&service_code=sewage"
    assert set(listed(client, both)) == {pool.pk, sewage.pk}
    ids = f"?service_request_id={pool.pk}&service_request_id={sewage.pk}"
    assert set(listed(client, ids)) == {pool.pk, sewage.pk}


@pytest.mark.parametrize("name", ["start_date", "end_date", "page"])
def test_a_single_parameter_given_twice_is_400(client, name):
    value = {"page": "1"}.get(name, quote(timezone.now().isoformat()))
    response = client.get(f"{BASE}/requests.json?{name}={value}&{name}={value}")
    assert response.status_code == 400
    assert any(
        f"{name} was given more than once" in d for _c, d in errors_of(response, "json")
    )


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize(
    "raw",
    [
        "2026-05-04",  # a date alone
        "2026-05-04T09:30:00",  # a time without zone
        "2026-05-04T09:30",
        "2026-05-04 09:30:00",
    ],
)
def test_a_date_without_time_or_zone_is_400_as_the_message_says(client, fmt, raw):
    response = client.get(f"{BASE}/requests.{fmt}?start_date={quote(raw)}")
    assert response.status_code == 400
    (code, description), *_ = errors_of(response, fmt)
    assert code == 400 and "start_date" in description and "with zone" in description


@pytest.mark.parametrize(
    "raw",
    [
        "2026-05-04T09:30:00-04:00",
        "2026-05-04T13:30:00Z",
        "2026-05-04T09:30:00+00:00",
        "2026-05-04T09:30:00 00:00",  # "+" sent unescaped: a space
    ],
)
def test_a_w3c_datetime_with_zone_is_accepted(client, raw):
    assert client.get(f"{BASE}/requests.json?end_date={quote(raw)}").status_code == 200
