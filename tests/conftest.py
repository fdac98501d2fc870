"""Shared fixtures: users per role, signed-in clients, a real Celery worker, and
headless Chromium against a live server.

With CI=true a missing PostgreSQL, Redis or Chromium fails the run; elsewhere the
tests that need them are skipped with the reason."""

import os
import shutil
import socket
import time

import pytest
from django.contrib.auth.models import Group

from kernel.roles import Role

CI = os.environ.get("CI", "").lower() == "true"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def pytest_configure(config):
    if CI:
        problems = []
        if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
            problems.append("DATABASE_URL must name PostgreSQL in CI")
        if not os.environ.get("REDIS_URL"):
            problems.append("REDIS_URL must be set in CI")
        if not CHROMIUM:
            problems.append("chromium must be installed in CI")
        if problems:
            raise pytest.UsageError("; ".join(problems))


def pytest_collection_modifyitems(config, items):
    for item in items:
        if "browser" in item.keywords and not CHROMIUM:
            item.add_marker(pytest.mark.skip(reason="no Chromium installed"))
        if "worker" in item.keywords and not os.environ.get("REDIS_URL"):
            item.add_marker(pytest.mark.skip(reason="REDIS_URL not set"))


def make_user(username, role=None, **extra):
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.create_user(
        username=username,
        password="demo-password",
        email=f"{username}@poquott.example",
        first_name=username.title(),
        **extra,
    )
    if role is not None:
        user.groups.add(Group.objects.get(name=role.value))
    return user


@pytest.fixture
def smo_user(db):
    return make_user("smo", Role.SMO, last_name="Officer")


@pytest.fixture
def clerk_user(db):
    return make_user("clerk", Role.CLERK)


@pytest.fixture
def attorney_user(db):
    return make_user("attorney", Role.ATTORNEY)


@pytest.fixture
def inspector_user(db):
    return make_user("inspector", Role.BUILDING_INSPECTOR)


@pytest.fixture
def superuser(db):
    return make_user("admin", is_superuser=True, is_staff=True)


@pytest.fixture
def no_role_user(db):
    return make_user("visitor")


@pytest.fixture
def smo_client(client, smo_user):
    client.force_login(smo_user)
    return client


@pytest.fixture
def clerk_client(client, clerk_user):
    client.force_login(clerk_user)
    return client


ROLE_FIXTURES = {
    "anonymous": None,
    "no_role": "no_role_user",
    "smo": "smo_user",
    "clerk": "clerk_user",
    "attorney": "attorney_user",
    "inspector": "inspector_user",
    "superuser": "superuser",
}


@pytest.fixture
def client_as(client, request):
    """client_as("smo") → a test client signed in with that role."""

    def sign_in(role):
        fixture = ROLE_FIXTURES[role]
        client.logout()
        if fixture is not None:
            client.force_login(request.getfixturevalue(fixture))
        return client

    return sign_in


@pytest.fixture
def celery_worker_on_redis(transactional_db):
    """A real Celery worker thread consuming from the Redis broker of REDIS_URL."""
    from celery.contrib.testing.worker import start_worker

    from poquott_ms4.celery import app

    app.conf.broker_url = os.environ["REDIS_URL"]
    app.conf.task_always_eager = False
    with start_worker(app, pool="solo", perform_ping_check=False, loglevel="WARNING"):
        yield app


DEAD_REDIS_PORT = 6390


@pytest.fixture
def dead_cache(settings):
    """The cache pointed at a Redis port nothing listens on: a real Redis client
    whose every call raises ConnectionError, as when Redis is down."""
    import redis
    from django.core.cache import cache

    from limits import failsafe

    with socket.socket() as probe:
        free = probe.connect_ex(("127.0.0.1", DEAD_REDIS_PORT)) != 0
    assert free, f"something listens on {DEAD_REDIS_PORT}; pick another port"
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": f"redis://127.0.0.1:{DEAD_REDIS_PORT}/0",
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }
    with pytest.raises(redis.exceptions.ConnectionError):  # really down
        cache.get("anything")
    failsafe.reset_cache_failures()
    yield
    failsafe.reset_cache_failures()


@pytest.fixture(scope="session", autouse=True)
def _end_stray_database_sessions(django_db_setup, django_db_blocker):
    """Worker and live-server threads leave database connections behind; end them
    at the close of the run so the test database can be dropped cleanly."""
    yield
    from django.db import connection

    with django_db_blocker.unblock():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )


@pytest.fixture
def browser_page(live_server):
    """A Playwright page in Debian's headless Chromium (never a downloaded one)."""
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"  # Playwright's loop + live_server
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        context = browser.new_context(base_url=live_server.url)
        page = context.new_page()
        page.set_default_timeout(15000)
        yield page
        context.close()
        browser.close()


def background_sync(context, scope_path: str, tag: str) -> None:
    """What the browser does when the signal returns to a phone whose page is
    closed: a background sync of the service worker of `scope_path` that asked
    for one (fired here through the DevTools protocol: the browser's own timing
    is its own)."""
    blank = context.new_page()
    cdp = context.new_cdp_session(blank)
    registrations = []
    cdp.on(
        "ServiceWorker.workerRegistrationUpdated",
        lambda event: registrations.extend(event["registrations"]),
    )
    cdp.send("ServiceWorker.enable")
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        found = [
            r
            for r in registrations
            if not r.get("isDeleted") and r["scopeURL"].endswith(scope_path)
        ]
        if found:
            break
        blank.wait_for_timeout(100)
    (registration,) = found
    cdp.send(
        "ServiceWorker.dispatchSyncEvent",
        {
            "origin": registration["scopeURL"][: -len(scope_path)],
            "registrationId": registration["registrationId"],
            "tag": tag,
            "lastChance": False,
        },
    )
    blank.close()


def eventually(check, seconds=15) -> None:
    """Wait until `check()` is true (what a browser did in the background)."""
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "not done in time"
        time.sleep(0.2)


def browser_sign_in(page, username, password="demo-password"):
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Sign in").click()
