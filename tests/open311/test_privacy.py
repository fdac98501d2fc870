"""What the public Open311 feed tells anyone (no key needed): the street, not the
house; no report older than the window, by id either; only the notes staff
marked public."""

from decimal import Decimal

import pytest
from django.utils import timezone

from cases.models import Note, Report
from cases.open311.documents import street_level
from cases.reports.services import report_submit
from tests.api_keys import known_key

from ..reports.helpers import category, open_case_for
from .test_open311 import BASE, FORMATS, parse, web_report

pytestmark = pytest.mark.django_db


def age(report, days):
    Report.objects.filter(pk=report.pk).update(
        received_at=timezone.now() - timezone.timedelta(days=days)
    )


def listed(client, query):
    rows = client.get(f"{BASE}/requests.json{query}").json()
    return {int(r["service_request_id"]) for r in rows}


def test_sequential_ids_do_not_reach_reports_older_than_the_window(client):
    reports = [web_report() for _ in range(3)]
    age(reports[0], 91)
    age(reports[1], 89)
    around = range(max(1, reports[0].pk - 5), reports[-1].pk + 5)
    every_id = ",".join(str(n) for n in around)
    assert listed(client, f"?service_request_id={every_id}") == {
        reports[1].pk,
        reports[2].pk,
    }
    response = client.get(f"{BASE}/requests/{reports[0].pk}.json")
    assert response.status_code == 404
    assert client.get(f"{BASE}/requests/{reports[1].pk}.json").status_code == 200


def test_the_client_that_sent_a_report_still_finds_it_by_id_with_its_key(client):
    mine = known_key("mine-key", "Village app")
    known_key("other-key", "Other app")
    report = report_submit(
        channel=Report.Channel.OPEN311,
        api_client=mine,
        fields={"description": "suds", "address": "Sound Road"},
        pollutant_categories=[category("wash-water")],
    )
    age(report, 400)
    one = f"{BASE}/requests/{report.pk}.json"
    assert client.get(one).status_code == 404
    assert client.get(one + "?api_key=other-key").status_code == 404
    assert client.get(one + "?api_key=mine-key").status_code == 200
    query = f"?service_request_id={report.pk}"
    assert listed(client, query) == set()
    assert listed(client, query + "&api_key=mine-key") == {report.pk}
    mine.active = False
    mine.save()
    assert client.get(one + "?api_key=mine-key").status_code == 404


@pytest.mark.parametrize("fmt", FORMATS)
def test_location_is_published_to_the_street_not_the_house(client, fmt):
    web_report(
        address="12 Birchwood Avenue",
        latitude=Decimal("40.952349"),
        longitude=Decimal("-73.088751"),
    )
    response = client.get(f"{BASE}/requests.{fmt}")
    body = response.content.decode()
    for exact in ("40.952349", "-73.088751", "40.9523", "-73.0887", "12 Birchwood"):
        assert exact not in body, exact
    doc = parse(response, fmt)
    if fmt == "json":
        row = doc[0]
        assert (row["lat"], row["long"]) == (40.952, -73.089)
        assert row["address"] == "Birchwood Avenue"
    else:
        assert doc.findtext("request/lat") == "40.952"
        assert doc.findtext("request/long") == "-73.089"
        assert doc.findtext("request/address") == "Birchwood Avenue"


# What each spelling of an address publishes: test_published_street.py.


def test_street_level_rounds_to_three_places():
    assert street_level(Decimal("40.9525")) == 40.952  # half to even
    assert street_level(Decimal("-73.0886")) == -73.089
    assert street_level(None) is None


def test_only_notes_staff_marked_public_are_published(client, smo_user):
    report = web_report()
    case = open_case_for(report, smo_user)
    other = open_case_for(web_report(), smo_user)
    Note.objects.create(case=case, author=smo_user, text="Owner is J. Neighbour")
    Note.objects.create(case=other, author=smo_user, text="Other case", public=True)
    ids = f"?service_request_id={report.pk}"
    row = client.get(f"{BASE}/requests.json{ids}").json()[0]
    assert "Neighbour" not in row["status_notes"]
    assert "Other case" not in row["status_notes"]
    Note.objects.create(case=case, author=smo_user, text="Cleaned up.", public=True)
    row = client.get(f"{BASE}/requests.json{ids}").json()[0]
    assert row["status_notes"].endswith("Cleaned up.")
    body = client.get(f"{BASE}/requests.json").content.decode()
    assert "Neighbour" not in body


def test_the_note_form_says_a_public_note_is_read_by_anyone(smo_client, smo_user):
    case = open_case_for(web_report(), smo_user)
    page = smo_client.get(f"/staff/cases/{case.number}/notes/add/")
    assert page.status_code == 200
    assert "public Open311 feed" in page.content.decode()
