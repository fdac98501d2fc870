"""Open311 API keys (issue 28): generated in the admin (at least 128 bits),
stored as a hash, shown once; wrong keys limited per address; the demo key
refused where demo data is not allowed."""

import base64
import hashlib
import re

import pytest
from django.contrib.messages import get_messages
from django.test import override_settings

from intake.models import ApiKey, Report
from intake.open311 import keys
from tests.api_keys import known_key

pytestmark = pytest.mark.django_db
ADD = "/admin/intake/apikey/add/"
CHANGELIST = "/admin/intake/apikey/"
WRONG_KEY_LIMIT = 20  # OPEN311_WRONG_KEY_LIMIT's default: 20 an hour


def a_request(api_key, **extra):
    return {
        "api_key": api_key,
        "service_code": "wash-water",
        "lat": "40.952300",
        "long": "-73.088700",
        "description": "Suds coming out of the outfall pipe.",
        **extra,
    }


def post(client, api_key, fmt="json", address="10.0.0.1"):
    return client.post(
        f"/open311/v2/requests.{fmt}", a_request(api_key), REMOTE_ADDR=address
    )


def add_client_in_admin(client):
    """The SMO adds a client; returns the response followed and the key shown."""
    response = client.post(
        ADD,
        {
            "client_name": "Harbor app",
            "contact_email": "dev@harbor.example",
            "reports_per_hour": "100",  # the form's initial value
            "active": "on",
            # Not a field of the form: a typed key is never taken.
            "key": "typed-by-hand",
            "key_hash": hashlib.sha256(b"typed-by-hand").hexdigest(),
        },
        follow=True,
    )
    shown = [str(m) for m in get_messages(response.wsgi_request)]
    shown += re.findall(r"The key for Harbor app is (\S+)", response.content.decode())
    found = re.search(r"The key for Harbor app is (\S+)", " ".join(shown))
    assert found, shown
    return response, found.group(1)


def bits(raw: str) -> int:
    return len(base64.urlsafe_b64decode(raw + "=" * (-len(raw) % 4))) * 8


# --- generated, hashed, shown once -------------------------------------------------
def test_adding_a_client_generates_a_key_shown_once_and_stores_its_hash(
    client, superuser
):
    client.force_login(superuser)
    add_page = client.get(ADD).content.decode()
    assert 'name="key"' not in add_page and 'name="key_hash"' not in add_page
    response, raw = add_client_in_admin(client)
    assert response.status_code == 200
    assert bits(raw) >= 128
    stored = ApiKey.objects.get(client_name="Harbor app")
    assert stored.key_hash == hashlib.sha256(raw.encode()).hexdigest()
    assert stored.key_prefix == raw[:8]
    values = [str(getattr(stored, f.attname)) for f in ApiKey._meta.concrete_fields]
    assert not any(raw in value for value in values)
    # Never shown again: not on the list, not on the client's page.
    for url in (CHANGELIST, f"{CHANGELIST}{stored.pk}/change/"):
        page = client.get(url).content.decode()
        assert raw not in page
        assert raw[:8] in page  # the prefix, to recognise it
    # The key works; the typed one does not.
    assert post(client, raw).status_code == 201
    assert Report.objects.get().api_client == stored
    assert post(client, "typed-by-hand").status_code == 403


def test_every_generated_key_is_new_and_at_least_128_bits():
    generated = {keys.api_key_generate() for _ in range(50)}
    assert len(generated) == 50
    assert min(bits(raw) for raw in generated) >= 128


def test_a_key_cannot_be_given_in_clear_text():
    with pytest.raises(TypeError):
        ApiKey(client_name="Typed", key="my-own-key")


def test_a_revoked_key_is_refused(client):
    api_key, raw = keys.api_key_issue(client_name="Old app")
    assert post(client, raw).status_code == 201
    api_key.active = False
    api_key.save()
    assert post(client, raw).status_code == 403


# --- wrong keys limited per address ------------------------------------------------
@pytest.mark.parametrize("fmt", ["json", "xml"])
def test_wrong_keys_from_one_address_are_429_then_even_the_right_key(client, fmt):
    _api_key, raw = keys.api_key_issue(client_name="Harbor app")
    for n in range(WRONG_KEY_LIMIT):
        assert post(client, f"guess-{n}", fmt).status_code == 403
    over = post(client, "guess-again", fmt)
    assert over.status_code == 429
    assert int(over["Retry-After"]) == 3600
    body = over.content.decode()
    assert "Too many wrong api_key values" in body and "429" in body
    if fmt == "xml":
        assert body.lstrip().startswith("<?xml") and "<errors>" in body
    else:
        assert over.json()[0]["code"] == 429
    # From there the right key is refused too: a guess learns nothing.
    assert post(client, raw, fmt).status_code == 429
    # Another address is not held back.
    assert post(client, raw, fmt, address="10.0.0.2").status_code == 201
    assert post(client, "guess-0", fmt, address="10.0.0.2").status_code == 403


def test_wrong_keys_on_a_read_count_too(client):
    known_key("mine-key")  # a client exists; the reads below guess at its key
    one = "/open311/v2/requests/1.json"

    def read(**query):
        return client.get(one, query, REMOTE_ADDR="10.9.0.1").status_code

    for n in range(WRONG_KEY_LIMIT):
        assert read(api_key=f"guess-{n}") == 404
    assert read(api_key="guess-again") == 429
    assert read(api_key="mine-key") == 429
    # Reading without a key is not limited by it.
    assert read() == 404


# --- the demo key ------------------------------------------------------------------
def test_the_demo_key_works_where_demo_data_is_allowed(client):
    keys.api_key_install_demo()
    assert post(client, "demo-key").status_code == 201


def test_the_demo_key_is_refused_where_demo_data_is_not(client):
    keys.api_key_install_demo()  # a row left from a demo load
    with override_settings(DEMO_DATA_ALLOWED=False):
        response = post(client, "demo-key")
        assert response.status_code == 403
        assert "api_key" in response.json()[0]["description"]
        with pytest.raises(PermissionError):
            keys.api_key_install_demo()
    assert not Report.objects.exists()


# --- issue 29: an aggregator's allowance is per key, not per address --------------


def test_an_aggregator_sends_past_the_old_per_address_limit_up_to_its_keys_allowance(
    client,
):
    """A county 311 app forwards many residents from one server: 31 reports
    from one address pass (the old per-address limit was 30 an hour) while the
    key's allowance lasts; another client from the same address is not held
    back by the first's count."""
    county = known_key("county-311-key", "County 311")
    county.reports_per_hour = 32
    county.save()
    for _ in range(32):
        assert post(client, "county-311-key").status_code == 201
    refused = post(client, "county-311-key", address="10.9.9.9")  # any address
    assert refused.status_code == 429
    assert "32 reports an hour" in refused.json()[0]["description"]
    other = known_key("village-app-key", "Village app")
    assert other.reports_per_hour == 100  # the default
    assert post(client, "village-app-key").status_code == 201
    assert Report.objects.filter(api_client=county).count() == 32


def test_the_retry_after_is_the_real_wait_until_the_window_ends(client):
    from datetime import timedelta

    from django.utils import timezone

    from limits.models import Counter

    key = known_key("small-key", "Small client")
    key.reports_per_hour = 1
    key.save()
    assert post(client, "small-key").status_code == 201
    # 50 minutes into the hour's window: 10 minutes are left
    Counter.objects.update(expires_at=timezone.now() + timedelta(minutes=10))
    refused = post(client, "small-key")
    assert refused.status_code == 429
    assert 590 <= int(refused["Retry-After"]) <= 600
    assert "Try again in 10 minutes" in refused.json()[0]["description"]


def test_the_allowance_is_set_in_the_admin_and_refuses_zero(admin_client):
    key = known_key("allowance-key", "Aggregator")
    page = f"{CHANGELIST}{key.pk}/change/"
    form = {"client_name": "Aggregator", "contact_email": "", "active": "on"}
    response = admin_client.post(page, {**form, "reports_per_hour": "0"})
    assert response.status_code == 200  # the form again, with the message
    assert "greater than or equal to 1" in response.content.decode()
    admin_client.post(page, {**form, "reports_per_hour": "2000"})
    key.refresh_from_db()
    assert key.reports_per_hour == 2000
