"""The web report form and the Open311 POST accept and refuse the same reports:
one table of reports, sent through both endpoints (intake.validation)."""

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from intake.models import Report
from tests.api_keys import known_key

from ..reports.helpers import category

pytestmark = pytest.mark.django_db

WEB = reverse("public:report")
OPEN311 = "/open311/v2/requests.json"

BASE = {
    "description": "Soapy water running into the drain.",
    "address": "",
    "lat": "40.952300",
    "lon": "-73.088700",
    "observed_ago": None,  # timedelta before now, or None for "just now"
    "email": "",
    "phone": "",
    "name": "",
}


def _when(ago):
    return timezone.localtime(timezone.now() - ago)


def web_post(report):
    return {
        "pollutant_categories": [str(category("wash-water").pk)],
        "description": report["description"],
        "address": report["address"],
        "latitude": report["lat"],
        "longitude": report["lon"],
        "observed_at": (
            _when(report["observed_ago"]).strftime("%Y-%m-%dT%H:%M")
            if report["observed_ago"] is not None
            else ""
        ),
        "reporter_name": report["name"],
        "reporter_email": report["email"],
        "reporter_phone": report["phone"],
        "website": "",
    }


def open311_post(report):
    first, _, last = report["name"].partition(" ")
    data = {
        "api_key": "test-key",
        "service_code": "wash-water",
        "description": report["description"],
        "address_string": report["address"],
        "lat": report["lat"],
        "long": report["lon"],
        "email": report["email"],
        "phone": report["phone"],
        "first_name": first,
        "last_name": last,
    }
    if report["observed_ago"] is not None:
        data["attribute[observed_at]"] = _when(report["observed_ago"]).isoformat()
    return data


# (why, changes, accepted)
TABLE = [
    ("a plain report", {}, True),
    ("seen an hour ago", {"observed_ago": dt.timedelta(hours=1)}, True),
    ("seen eleven months ago", {"observed_ago": dt.timedelta(days=335)}, True),
    ("seen more than a year ago", {"observed_ago": dt.timedelta(days=400)}, False),
    ("seen tomorrow", {"observed_ago": -dt.timedelta(days=1)}, False),
    (
        "an address, no pin",
        {"address": "12 Birchwood Avenue", "lat": "", "lon": ""},
        True,
    ),
    ("no location", {"lat": "", "lon": ""}, False),
    ("a pin in Manhattan", {"lat": "40.712800", "lon": "-74.006000"}, False),
    ("an address of 200 characters", {"address": "a" * 200}, True),
    ("an address of 201 characters", {"address": "a" * 201}, False),
    ("a description of 4000 characters", {"description": "x" * 4000}, True),
    ("a description of 4001 characters", {"description": "x" * 4001}, False),
    ("a telephone number", {"phone": "(631) 555-0100"}, True),
    ("words for a telephone", {"phone": "call me maybe"}, False),
    ("a telephone of 41 characters", {"phone": "631 555 0100" + " " * 29}, True),
    ("a telephone padded to 41", {"phone": "(631) 555-0100" + "-" * 27}, False),
    ("an e-mail", {"email": "pat@example.org"}, True),
    ("not an e-mail", {"email": "not-an-email"}, False),
    ("a name of 120 characters", {"name": "Pat " + "e" * 116}, True),
    ("a name of 121 characters", {"name": "Pat " + "e" * 117}, False),
]


@pytest.fixture
def api_key(db):
    return known_key("test-key", "Test client")


@pytest.mark.parametrize(
    ("why", "changes", "accepted"), TABLE, ids=[row[0] for row in TABLE]
)
def test_the_form_and_open311_accept_and_refuse_alike(
    client, api_key, why, changes, accepted
):
    report = {**BASE, **changes}
    web = client.post(WEB, web_post(report))
    api = client.post(OPEN311, open311_post(report))
    assert (web.status_code, api.status_code) == (
        (302, 201) if accepted else (400, 400)
    ), (why, api.content.decode())
    assert Report.objects.filter(channel=Report.Channel.WEB).count() == int(accepted)
    assert Report.objects.filter(channel=Report.Channel.OPEN311).count() == int(
        accepted
    )


def test_a_report_more_than_a_year_old_is_refused_in_words_by_both(client, api_key):
    report = {**BASE, "observed_ago": dt.timedelta(days=400)}
    web = client.post(WEB, web_post(report)).content.decode()
    api = client.post(OPEN311, open311_post(report)).json()
    assert "more than a year ago; please call the office" in web
    assert any(
        "more than a year ago; please call the office" in e["description"] for e in api
    )
