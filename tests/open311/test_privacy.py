"""What the public Open311 feed tells anyone (no key needed): the street, not the
house; only the notes staff marked public; by id, any report, with no more."""

from decimal import Decimal

import pytest
from django.utils import timezone

from cases.models import Note
from intake.models import Report
from intake.open311.documents import street_level

from ..reports.helpers import open_case_for
from .test_open311 import BASE, FORMATS, parse, web_report

pytestmark = pytest.mark.django_db


def age(report, days):
    Report.objects.filter(pk=report.pk).update(
        received_at=timezone.now() - timezone.timedelta(days=days)
    )


def listed(client, query):
    rows = client.get(f"{BASE}/requests.json{query}").json()
    return {int(r["service_request_id"]) for r in rows}


def test_a_report_answers_by_its_own_id_whatever_its_age(client):
    """Issue 29: the 90-day window is for lists; by id (the detail or
    service_request_id=) a report of any age answers, without an api_key (no
    standard client sends one on a GET), with only what the feed publishes."""
    old = web_report(description="Secret words of Ann", reporter_name="Ann Reporter")
    age(old, 400)
    recent = web_report()
    assert listed(client, "") == {recent.pk}  # the default list: 90 days
    response = client.get(f"{BASE}/requests/{old.pk}.json")
    assert response.status_code == 200
    body = response.content.decode()
    assert "Secret words" not in body and "Ann Reporter" not in body
    [row] = response.json()
    assert row["service_request_id"] == str(old.pk)
    assert row["description"] is None
    assert listed(client, f"?service_request_id={old.pk},{recent.pk}") == {
        old.pk,
        recent.pk,
    }
    assert client.get(f"{BASE}/requests/{recent.pk + 1000}.json").status_code == 404


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
