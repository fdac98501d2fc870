"""No 5xx from the public endpoints, whatever they are sent (issue 15: 28 500s
from ten causes in about 2,450 fuzzed requests). Property-based, with the Django
test client: a 500 raises its exception here, so hypothesis shrinks to the
smallest input that causes it.

Every endpoint a visitor reaches without signing in: the home page, the report
form, the status lookup, Open311 (GET and POST, JSON and XML), the deadline API,
the iCal feed and /healthz. The inputs mix random text with the values that
broke before (a NUL, a superscript digit, year-1 dates, huge numbers)."""

from urllib.parse import quote

import pytest
from django.core.cache import cache
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from intake.models import PollutantCategory
from tests.api_keys import known_key

pytestmark = pytest.mark.django_db

FUZZ = settings(
    max_examples=50,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)

NASTY = [
    "\x00",
    "a\x00b",
    "²",
    "1,²",
    "١٢٣",
    "0",
    "-1",
    "9" * 30,
    "9" * 5000,
    "1e999",
    "NaN",
    "Infinity",
    "0001-01-01",
    "0001-01-01T00:00:00+14:00",
    "9999-12-31T23:59:59-12:00",
    "2026-02-30",
    "2026-13-45T00:00:00Z",
    "open,closed",
    ",,,",
    "%",
    "%00",
    "' OR 1=1 --",
    "<script>alert(1)</script>",
    "\u202e\ufeff",
    "x" * 5000,
    "wash-water",
    "demo-key",
    "fuzz-key",
    "yes",
    "on",
    "R-APL-1",
]
# The values that broke before weigh as much as all the random ones together.
value = st.one_of(
    st.sampled_from(NASTY),
    st.one_of(
        st.text(max_size=40),
        st.integers(min_value=-(10**20), max_value=10**20).map(str),
        st.dates().map(str),
        st.datetimes().map(lambda d: d.isoformat()),
    ),
)
values = st.one_of(value, st.lists(value, min_size=1, max_size=3))


def params(names):
    """A query or form: each of the endpoint's own names, or not, and a few
    random ones."""
    return st.builds(
        lambda own, other: {**other, **own},
        st.fixed_dictionaries({}, optional=dict.fromkeys(names, values)),
        st.dictionaries(st.text(max_size=12), values, max_size=3),
    )


@pytest.fixture
def fuzz_client(client, db):
    known_key("fuzz-key", "Fuzz")
    return client


def answered(response, allowed_5xx=()):
    assert response.status_code < 500 or response.status_code in allowed_5xx, (
        response.status_code,
        response.content[:300],
    )


def fresh_limits():
    """The limits are per address; one address sends every example here."""
    cache.clear()


@FUZZ
@given(query=params(["q", "page", "lang"]))
def test_home(fuzz_client, query):
    answered(fuzz_client.get("/", query))


REPORT_FIELDS = [
    "pollutant_categories",
    "description",
    "colour",
    "odour",
    "sheen",
    "suds",
    "floatables",
    "flow",
    "observed_at",
    "address",
    "latitude",
    "longitude",
    "reporter_name",
    "reporter_email",
    "reporter_phone",
    "wants_updates",
    "website",
]


@FUZZ
@given(form=params(REPORT_FIELDS), category=st.booleans())
@example(form={"pollutant_categories": "²"}, category=False)
@example(form={"pollutant_categories": "9" * 5000}, category=False)
@example(form={"description": "\x00"}, category=True)
def test_report_form_post(fuzz_client, form, category):
    fresh_limits()
    if category:  # past the category check, so the other fields are read
        form["pollutant_categories"] = str(PollutantCategory.objects.first().pk)
    answered(fuzz_client.post("/report/", form))


@FUZZ
@given(query=params(["code"]))
def test_status_lookup(fuzz_client, query):
    fresh_limits()
    answered(fuzz_client.get("/status/", query))


OPEN311_GET = [
    "service_request_id",
    "service_code",
    "start_date",
    "end_date",
    "status",
    "api_key",
    "jurisdiction_id",
]


@FUZZ
@given(
    query=params(OPEN311_GET),
    fmt=st.sampled_from(["json", "xml"]),
    document=st.sampled_from(["requests", "services", "discovery"]),
)
# The 500s found before, always tried: the window before year 1, a superscript
# id, a NUL in a filter.
@example(query={"end_date": "0001-01-01"}, fmt="json", document="requests")
@example(query={"service_request_id": "²"}, fmt="xml", document="requests")
@example(query={"service_code": "\x00"}, fmt="json", document="requests")
def test_open311_get(fuzz_client, query, fmt, document):
    answered(fuzz_client.get(f"/open311/v2/{document}.{fmt}", query))


@FUZZ
@given(
    segment=st.one_of(value, st.sampled_from(["1", "wash-water", "00000000000"])),
    document=st.sampled_from(["requests", "services", "tokens"]),
    fmt=st.sampled_from(["json", "xml"]),
)
def test_open311_get_one(fuzz_client, segment, document, fmt):
    path = f"/open311/v2/{document}/{quote(segment, safe='')}.{fmt}"
    answered(fuzz_client.get(path))


OPEN311_POST = [
    "api_key",
    "service_code",
    "lat",
    "long",
    "address_string",
    "address_id",
    "description",
    "email",
    "first_name",
    "last_name",
    "phone",
    "media_url",
    "attribute[colour]",
    "attribute[odour]",
    "attribute[sheen]",
    "attribute[flow]",
    "attribute[observed_at]",
]


@FUZZ
@given(
    form=params(OPEN311_POST),
    keyed=st.booleans(),
    fmt=st.sampled_from(["json", "xml"]),
)
@example(form={"api_key": "\x00"}, keyed=False, fmt="json")
@example(form={"service_code": "\x00", "api_key": "fuzz-key"}, keyed=False, fmt="json")
@example(form={"description": "a\x00b"}, keyed=True, fmt="xml")
def test_open311_post(fuzz_client, form, keyed, fmt):
    fresh_limits()
    if keyed:  # past the key check, so the request's fields are read
        form.update(api_key="fuzz-key", service_code="wash-water")
    answered(fuzz_client.post(f"/open311/v2/requests.{fmt}", form))


@FUZZ
@given(query=params(["rule", "from", "days", "months", "business_days"]))
@example(query={"rule": "R-APL-1", "from": "2026-12-10", "days": "²"})
@example(query={"rule": "R-APL-1", "from": "9999-12-31", "days": "9999"})
def test_deadline_api(fuzz_client, query):
    answered(fuzz_client.get("/api/deadlines/compute", query))


@FUZZ
@given(token=st.one_of(value, st.text(alphabet="abcdef0123456789-_", max_size=64)))
@example(token="\x00")
def test_ical_feed(fuzz_client, token):
    answered(fuzz_client.get(f"/deadlines/ical/{quote(token, safe='')}.ics"))


@FUZZ
@given(query=params(["format", "verbose"]))
def test_healthz(fuzz_client, query):
    # 503 is /healthz's own answer when something the site needs is down.
    answered(fuzz_client.get("/healthz", query), allowed_5xx=(503,))
