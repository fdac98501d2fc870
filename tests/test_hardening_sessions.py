"""Sign-in and sessions (issue 15, hardening): /admin/login/ takes the staff
sign-in's cool-off, staff sessions last a working day, staff pages are sent
`Cache-Control: private, no-store`, and the password-reset form is limited."""

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.core import mail
from django.core.cache import cache
from django.test import override_settings
from django.urls import reverse

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parent.parent
ADMIN_LOGIN = "/admin/login/?next=/admin/"


@pytest.fixture(autouse=True)
def _fresh_limits():
    cache.clear()
    yield
    cache.clear()


def admin_sign_in(client, password, username="admin"):
    return client.post(
        ADMIN_LOGIN, {"username": username, "password": password, "next": "/admin/"}
    )


# --- /admin/login/ ----------------------------------------------------------------
def test_twelve_wrong_admin_passwords_then_the_right_one_is_refused(client, superuser):
    for attempt in range(12):
        response = admin_sign_in(client, f"guess-{attempt}")
        assert response.status_code == 200
    response = admin_sign_in(client, "demo-password")
    assert response.status_code == 200
    html = response.content.decode()
    assert "Too many failed sign-ins" in html
    assert "15 minutes" in html  # LOGIN_THROTTLE_COOLOFF_SECONDS = 900
    assert "_auth_user_id" not in client.session
    assert client.get("/admin/").status_code == 302  # still signed out


@override_settings(LOGIN_THROTTLE_COOLOFF_SECONDS=1)
def test_the_admin_cool_off_ends(client, superuser):
    for _ in range(5):  # LOGIN_THROTTLE_PER_USER
        admin_sign_in(client, "wrong")
    assert (
        "Too many failed sign-ins"
        in admin_sign_in(client, "demo-password").content.decode()
    )
    time.sleep(1.2)
    response = admin_sign_in(client, "demo-password")
    assert response.status_code == 302 and response.url == "/admin/"


def test_staff_and_admin_sign_in_share_one_cool_off(client, superuser):
    for _ in range(5):
        client.post(reverse("login"), {"username": "admin", "password": "wrong"})
    response = admin_sign_in(client, "demo-password")
    assert "Too many failed sign-ins" in response.content.decode()


def test_admin_sign_in_with_the_right_password_works(client, superuser):
    response = admin_sign_in(client, "demo-password")
    assert response.status_code == 302 and response.url == "/admin/"
    assert client.get("/admin/").status_code == 200


def test_admin_still_refuses_staff_without_admin_access(client, smo_user):
    response = admin_sign_in(client, "demo-password", username="smo")
    assert response.status_code == 200
    assert "_auth_user_id" not in client.session


# --- sessions -----------------------------------------------------------------------
def production_settings(*names) -> dict:
    code = (
        "import json, django; from django.conf import settings; django.setup(); "
        f"print(json.dumps({{n: getattr(settings, n) for n in {list(names)!r}}}))"
    )
    env = {
        "PATH": "/usr/bin:/bin",
        "PYTHONPATH": str(ROOT),
        "DJANGO_SETTINGS_MODULE": "poquott_ms4.settings.production",
        "SECRET_KEY": "a-long-random-production-secret-for-this-test-only-0123456789",
        "ALLOWED_HOSTS": "stormwater.poquott.example",
        "DATABASE_URL": "postgres://ms4:ms4@db:5432/ms4",
        "REDIS_URL": "redis://redis:6379/0",
    }
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_production_staff_sessions_last_a_working_day_not_two_weeks():
    loaded = production_settings(
        "SESSION_COOKIE_AGE",
        "SESSION_EXPIRE_AT_BROWSER_CLOSE",
        "SESSION_SAVE_EVERY_REQUEST",
        "SESSION_ENGINE",
        "SESSION_COOKIE_SECURE",
    )
    assert loaded["SESSION_COOKIE_AGE"] == 12 * 60 * 60
    assert loaded["SESSION_EXPIRE_AT_BROWSER_CLOSE"] is True
    assert loaded["SESSION_SAVE_EVERY_REQUEST"] is False  # not stretched by activity
    # In the database, not the cache: a Redis outage signs nobody out.
    assert loaded["SESSION_ENGINE"] == "django.contrib.sessions.backends.db"
    assert loaded["SESSION_COOKIE_SECURE"] is True


def test_a_staff_session_expires_after_the_working_day(client, smo_user):
    client.post(reverse("login"), {"username": "smo", "password": "demo-password"})
    assert client.session.get_expiry_age() == 12 * 60 * 60
    assert client.session.get_expire_at_browser_close()
    cookie = client.cookies["sessionid"]
    assert (
        cookie["expires"] == "" and cookie["max-age"] == ""
    )  # a browser-session cookie


# --- Cache-Control ------------------------------------------------------------------
def directives(response) -> set[str]:
    value = response.get("Cache-Control", "")
    return {part.strip() for part in value.split(",") if part.strip()}


@pytest.mark.parametrize(
    "url",
    [
        "/staff/",
        "/staff/reports/",
        "/staff/deadlines/",
        "/enforcement/notices/",
        "/inspections/",
        "/admin/",
    ],
)
def test_staff_pages_are_private_and_not_stored(client, superuser, url):
    client.force_login(superuser)
    response = client.get(url)
    assert response.status_code in (200, 302)
    assert {"private", "no-store"} <= directives(response)
    assert "public" not in directives(response)


def test_staff_urls_are_private_even_signed_out(client):
    for url in ("/staff/", "/admin/", "/enforcement/notices/", "/inspections/"):
        response = client.get(url)
        assert response.status_code == 302  # to the sign-in page
        assert {"private", "no-store"} <= directives(response), url
    assert {"private", "no-store"} <= directives(client.get(reverse("login")))


def test_public_home_page_keeps_its_caching(client):
    response = client.get(reverse("public:home"))
    assert response.status_code == 200
    assert "no-store" not in directives(response)
    assert "private" not in directives(response)


def test_public_page_seen_by_signed_in_staff_is_private(client, smo_user):
    client.force_login(smo_user)
    response = client.get(reverse("public:home"))
    assert {"private", "no-store"} <= directives(response)


# --- password reset -----------------------------------------------------------------
RESET = reverse("password_reset")


def test_password_reset_sends_the_e_mail(client, smo_user):
    response = client.post(RESET, {"email": "smo@poquott.example"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["smo@poquott.example"]


def test_password_reset_is_limited_per_address(client, smo_user, clerk_user):
    for n in range(5):  # PASSWORD_RESET: 5 an hour
        email = "smo@poquott.example" if n % 2 else "clerk@poquott.example"
        client.post(RESET, {"email": email}, REMOTE_ADDR="10.0.0.5")
    sent = len(mail.outbox)
    response = client.post(
        RESET, {"email": "nobody@example.org"}, REMOTE_ADDR="10.0.0.5"
    )
    assert response.status_code == 429
    assert "Too many password-reset requests" in response.content.decode()
    assert len(mail.outbox) == sent
    # Another address is not held back.
    other = client.post(
        RESET, {"email": "clerk@poquott.example"}, REMOTE_ADDR="10.0.0.6"
    )
    assert other.status_code == 302


def test_password_reset_is_limited_per_e_mail_address(client, smo_user):
    for n in range(5):
        client.post(RESET, {"email": "SMO@poquott.example"}, REMOTE_ADDR=f"10.1.0.{n}")
    assert len(mail.outbox) == 5
    response = client.post(
        RESET, {"email": "smo@poquott.example"}, REMOTE_ADDR="10.1.0.99"
    )
    assert response.status_code == 429
    assert len(mail.outbox) == 5


def test_password_reset_link_is_site_url_whatever_the_host_asked(client, smo_user):
    with override_settings(
        SITE_URL="https://stormwater.poquott.example", SITE_URL_SET=True
    ):
        response = client.post(
            RESET, {"email": "smo@poquott.example"}, HTTP_HOST="127.0.0.1"
        )
    assert response.status_code == 302
    body = mail.outbox[0].body
    assert "https://stormwater.poquott.example/accounts/reset/" in body
    assert "127.0.0.1" not in body and "http://" not in body
    assert "127.0.0.1" not in mail.outbox[0].subject
