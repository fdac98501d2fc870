"""Redis down is not a 500 (issue 15, hardening), and not an open door (issue
28): the report, Open311 and status limits fail open (allow, log, count) so a
resident's report is never lost; the staff and admin sign-in, password reset and
access-code limits count in the database and hold. /healthz answers 503 naming
the cache.

"Down" is a real Redis client pointed at a port nothing listens on (the
`dead_cache` fixture of tests/conftest.py); the healthy cases use the Redis of
REDIS_URL (or the local-memory cache without it)."""

import logging

import pytest
from django.core import mail
from django.core.cache import cache
from django.urls import reverse

from intake.models import Report
from limits import failsafe
from tests.api_keys import known_key

from .reports.helpers import valid_post

pytestmark = pytest.mark.django_db

THROTTLED = "Too many failed sign-ins"


@pytest.fixture(autouse=True)
def _fresh_counters(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    cache.clear()
    failsafe.reset_cache_failures()
    yield
    failsafe.reset_cache_failures()


@pytest.fixture
def api_key(db):
    return known_key("test-key", "Test client")


def open311_request():
    return {
        "api_key": "test-key",
        "service_code": "wash-water",
        "lat": "40.952300",
        "long": "-73.088700",
        "description": "Suds coming out of the outfall pipe.",
    }


# --- with the cache down ----------------------------------------------------------
def test_report_form_is_saved_and_confirmed_while_redis_is_down(
    client, dead_cache, caplog
):
    with caplog.at_level(logging.WARNING, logger="poquott_ms4.limits"):
        response = client.post(reverse("public:report"), valid_post())
    assert response.status_code == 302
    assert response.url == reverse("public:report_done")
    report = Report.objects.get()
    done = client.get(response.url).content.decode()
    assert report.tracking_code in done and "What happens next" in done
    assert failsafe.cache_failures()["count"] == 1
    assert failsafe.cache_failures()["last_limit"] == "report"
    assert "the report limit is not applied" in caplog.text


def test_status_lookup_answers_while_redis_is_down(client, dead_cache):
    response = client.post(reverse("public:report"), valid_post())
    code = Report.objects.get().tracking_code
    response = client.get(reverse("public:status"), {"code": code})
    assert response.status_code == 200
    assert code in response.content.decode()
    assert failsafe.cache_failures()["last_limit"] == "status"


def test_open311_post_is_accepted_while_redis_is_down(client, api_key, dead_cache):
    response = client.post("/open311/v2/requests.json", open311_request())
    assert response.status_code == 201
    assert Report.objects.get().channel == Report.Channel.OPEN311
    # The wrong-key check (in the cache) let it through; the key's allowance of
    # reports an hour counts in the database (issue 29) and still applies.
    assert failsafe.cache_failures()["last_limit"] == "open311-key"
    from limits.models import Counter

    assert Counter.objects.filter(count=1).count() == 1


def test_staff_sign_in_works_while_redis_is_down(client, smo_user, dead_cache):
    response = client.post(
        reverse("login"), {"username": "smo", "password": "demo-password"}
    )
    assert response.status_code == 302
    assert response.url == reverse("cases:dashboard")
    assert client.get(reverse("cases:dashboard")).status_code == 200
    # The sign-in throttle counts in the database: it skipped nothing.
    assert failsafe.cache_failures()["count"] == 0


def test_wrong_password_is_still_refused_while_redis_is_down(
    client, smo_user, dead_cache
):
    response = client.post(reverse("login"), {"username": "smo", "password": "x"})
    assert response.status_code == 200
    assert "Please enter a correct username" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_admin_sign_in_works_while_redis_is_down(client, superuser, dead_cache):
    response = client.post(
        "/admin/login/?next=/admin/",
        {"username": "admin", "password": "demo-password", "next": "/admin/"},
    )
    assert response.status_code == 302 and response.url == "/admin/"


def _sign_in(client, password, **extra):
    return client.post(
        reverse("login"), {"username": "smo", "password": password}, **extra
    )


def _admin_sign_in(client, password):
    return client.post(
        "/admin/login/?next=/admin/",
        {"username": "admin", "password": password, "next": "/admin/"},
    )


def test_wrong_staff_passwords_still_cool_off_while_redis_is_down(
    client, smo_user, dead_cache, settings
):
    settings.LOGIN_THROTTLE_PER_USER = 4
    for _ in range(4):
        wrong = _sign_in(client, "guess")
        assert "Please enter a correct username" in wrong.content.decode()
    refused = _sign_in(client, "demo-password")
    assert refused.status_code == 200
    assert THROTTLED in refused.content.decode()
    assert "_auth_user_id" not in client.session
    # Another address is not held back (the per-address bucket is looser).
    other = _sign_in(client, "demo-password", REMOTE_ADDR="192.0.2.60")
    assert other.status_code == 302
    assert failsafe.cache_failures()["count"] == 0


def test_forty_wrong_passwords_from_one_address_meet_the_cool_off_while_redis_is_down(
    client, smo_user, dead_cache
):
    answers = [_sign_in(client, f"guess-{n}").content.decode() for n in range(40)]
    # LOGIN_THROTTLE_PER_USER = 5: the sixth and every later try is refused.
    assert all("Please enter a correct username" in a for a in answers[:5])
    assert all(THROTTLED in a for a in answers[5:])


def test_wrong_admin_passwords_still_cool_off_while_redis_is_down(
    client, superuser, dead_cache, settings
):
    settings.LOGIN_THROTTLE_PER_USER = 3
    for _ in range(3):
        assert THROTTLED not in _admin_sign_in(client, "wrong").content.decode()
    refused = _admin_sign_in(client, "demo-password")
    assert refused.status_code == 200
    assert THROTTLED in refused.content.decode()
    assert client.get("/admin/").status_code == 302  # still signed out


def test_password_reset_is_still_limited_while_redis_is_down(
    client, smo_user, dead_cache
):
    reset = reverse("password_reset")
    for _ in range(5):  # PASSWORD_RESET: 5 an hour
        response = client.post(reset, {"email": "smo@poquott.example"})
        assert response.status_code == 302
    assert len(mail.outbox) == 5
    refused = client.post(reset, {"email": "smo@poquott.example"})
    assert refused.status_code == 429
    assert "Too many password-reset requests" in refused.content.decode()
    assert len(mail.outbox) == 5


def test_healthz_is_503_and_names_the_cache_while_redis_is_down(client, dead_cache):
    client.post(reverse("public:report"), valid_post())  # one limit skipped
    response = client.get("/healthz")
    assert response.status_code == 503
    data = response.json()
    assert data["status"] == "down"
    assert data["database"] == "ok"
    assert data["cache"] == "error: ConnectionError"
    assert data["down"] == ["cache"]
    assert "not applied" in data["effects"]["cache"]
    assert "access-code limits count in the database" in data["effects"]["cache"]
    assert data["limits_skipped"]["count"] == 1
    assert data["limits_skipped"]["last_limit"] == "report"
    assert response["Cache-Control"].count("no-cache")  # never cached itself


def test_any_cache_backend_error_fails_open(client, monkeypatch):
    """Not only redis's errors: whatever the backend raises."""

    def broken(*args, **kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr(cache, "add", broken)
    response = client.post(reverse("public:report"), valid_post())
    assert response.status_code == 302
    assert failsafe.cache_failures()["count"] == 1


# --- healthy ---------------------------------------------------------------------
def test_healthz_is_200_ok_with_the_real_cache(client):
    response = client.get("/healthz")
    data = response.json()
    assert response.status_code == 200
    assert data["cache"] == "ok" and data["database"] == "ok"
    assert data["required"] == ["database", "cache"]
    assert data["limits_skipped"]["count"] == 0


def test_broker_down_is_degraded_but_200(client, monkeypatch):
    from operations import health

    def broker_down():
        raise ConnectionRefusedError("broker down")

    monkeypatch.setattr(health, "_check_broker", broker_down)
    response = client.get("/healthz")
    data = response.json()
    assert response.status_code == 200
    assert data["status"] == "degraded"
    assert data["broker"] == "error: ConnectionRefusedError"
    assert data["degraded"] == ["broker"] and data["down"] == []
    assert "still saved" in data["effects"]["broker"]
