"""Behind a reverse proxy (issue 15, hardening): the visitor's address comes from
X-Forwarded-For only through TRUSTED_PROXY_COUNT trusted proxies, and forwarded
headers are believed only from TRUSTED_PROXIES, by Django and by gunicorn."""

import json
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from django.core.cache import cache
from django.test import RequestFactory
from django.urls import reverse

from limits import ratelimit
from limits.throttle import client_ip

from .reports.helpers import valid_post

ROOT = Path(__file__).resolve().parent.parent
PROXY = "10.0.0.1"
STRANGER = "203.0.113.9"


@pytest.fixture
def behind_one_proxy(settings):
    settings.TRUSTED_PROXIES = [PROXY]
    settings.TRUSTED_PROXY_COUNT = 1
    return settings


@pytest.fixture
def fresh_cache(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    cache.clear()
    yield
    cache.clear()


def request_from(remote, forwarded=None):
    extra = {"REMOTE_ADDR": remote}
    if forwarded is not None:
        extra["HTTP_X_FORWARDED_FOR"] = forwarded
    return RequestFactory().get("/", **extra)


# --- which address the limits key on ------------------------------------------------
def test_without_trusted_proxies_x_forwarded_for_is_ignored():
    assert client_ip(request_from(STRANGER, "198.51.100.7")) == STRANGER


def test_spoofed_x_forwarded_for_from_an_untrusted_address_is_ignored(
    behind_one_proxy,
):
    assert client_ip(request_from(STRANGER, "198.51.100.7")) == STRANGER
    assert client_ip(request_from(STRANGER, "1.1.1.1, 198.51.100.7")) == STRANGER


def test_from_a_trusted_proxy_the_entry_it_wrote_is_used(behind_one_proxy):
    # The visitor sent "6.6.6.6" itself; the proxy appended what it saw.
    assert client_ip(request_from(PROXY, "198.51.100.7")) == "198.51.100.7"
    assert client_ip(request_from(PROXY, "6.6.6.6, 198.51.100.7")) == "198.51.100.7"


def test_two_proxies_take_the_second_entry_from_the_right(settings):
    settings.TRUSTED_PROXIES = ["10.0.0.0/8"]
    settings.TRUSTED_PROXY_COUNT = 2
    forwarded = "6.6.6.6, 198.51.100.7, 10.1.2.3"
    assert client_ip(request_from("10.9.9.9", forwarded)) == "198.51.100.7"


@pytest.mark.parametrize("forwarded", [None, "", "not-an-address", " , "])
def test_a_missing_or_broken_header_falls_back_to_the_proxy_address(
    behind_one_proxy, forwarded
):
    assert client_ip(request_from(PROXY, forwarded)) == PROXY


def test_ipv6_visitors_and_proxies(settings):
    settings.TRUSTED_PROXIES = ["fd00::/8"]
    settings.TRUSTED_PROXY_COUNT = 1
    assert client_ip(request_from("fd00::1", "2001:db8::7")) == "2001:db8::7"


# --- end to end: separate buckets -------------------------------------------------
@pytest.mark.django_db
def test_two_clients_behind_the_proxy_get_separate_report_limits(
    client, behind_one_proxy, fresh_cache, monkeypatch
):
    monkeypatch.setattr(ratelimit, "REPORT_SUBMIT", ratelimit.Limit("report", 2, 3600))
    url = reverse("public:report")

    def post(visitor):
        return client.post(
            url, valid_post(), REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=visitor
        )

    assert [post("198.51.100.7").status_code for _ in range(3)] == [302, 302, 429]
    assert post("198.51.100.8").status_code == 302


@pytest.mark.django_db
def test_a_spoofer_not_behind_the_proxy_cannot_pick_new_buckets(
    client, behind_one_proxy, fresh_cache, monkeypatch
):
    monkeypatch.setattr(ratelimit, "REPORT_SUBMIT", ratelimit.Limit("report", 2, 3600))
    codes = [
        client.post(
            reverse("public:report"),
            valid_post(),
            REMOTE_ADDR=STRANGER,
            HTTP_X_FORWARDED_FOR=f"198.51.100.{n}",
        ).status_code
        for n in range(3)
    ]
    assert codes == [302, 302, 429]


@pytest.mark.django_db
def test_one_abuser_behind_the_proxy_does_not_lock_out_staff(
    client, behind_one_proxy, fresh_cache, smo_user
):
    behind_one_proxy.LOGIN_THROTTLE_PER_IP = 3
    for name in ("smo", "clerk", "attorney"):
        client.post(
            reverse("login"),
            {"username": name, "password": "guess"},
            REMOTE_ADDR=PROXY,
            HTTP_X_FORWARDED_FOR="198.51.100.66",
        )
    abuser = client.post(
        reverse("login"),
        {"username": "smo", "password": "demo-password"},
        REMOTE_ADDR=PROXY,
        HTTP_X_FORWARDED_FOR="198.51.100.66",
    )
    assert "Too many failed sign-ins" in abuser.content.decode()
    staff = client.post(
        reverse("login"),
        {"username": "smo", "password": "demo-password"},
        REMOTE_ADDR=PROXY,
        HTTP_X_FORWARDED_FOR="198.51.100.10",
    )
    assert staff.status_code == 302


# --- X-Forwarded-Proto, as SECURE_PROXY_SSL_HEADER reads it --------------------------
@pytest.fixture
def https_only(settings):
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    settings.SECURE_SSL_REDIRECT = True
    settings.TRUSTED_PROXIES = [PROXY]
    return settings


@pytest.mark.django_db
def test_x_forwarded_proto_from_a_stranger_does_not_make_http_secure(
    client, https_only
):
    response = client.get(
        reverse("public:home"), REMOTE_ADDR=STRANGER, HTTP_X_FORWARDED_PROTO="https"
    )
    assert response.status_code == 301
    assert response.url.startswith("https://")


@pytest.mark.django_db
def test_x_forwarded_proto_from_the_trusted_proxy_is_believed(client, https_only):
    response = client.get(
        reverse("public:home"), REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_PROTO="https"
    )
    assert response.status_code == 200


@pytest.mark.django_db
def test_forwarded_headers_from_a_stranger_never_reach_a_view(client, settings):
    from django.http import JsonResponse
    from django.test import override_settings
    from django.urls import path

    def echo(request):
        return JsonResponse(
            {k: v for k, v in request.META.items() if "FORWARDED" in k}, safe=False
        )

    urlconf = type("urls", (), {"urlpatterns": [path("echo/", echo)]})
    with override_settings(ROOT_URLCONF=urlconf, TRUSTED_PROXIES=[PROXY]):
        headers = {
            "HTTP_X_FORWARDED_FOR": "1.2.3.4",
            "HTTP_X_FORWARDED_PROTO": "https",
            "HTTP_X_FORWARDED_HOST": "evil.example",
            "HTTP_FORWARDED": "for=1.2.3.4;proto=https",
        }
        assert client.get("/echo/", REMOTE_ADDR=STRANGER, **headers).json() == {}
        assert client.get("/echo/", REMOTE_ADDR=PROXY, **headers).json() == headers


# --- settings -----------------------------------------------------------------------
def load_settings(**env) -> subprocess.CompletedProcess:
    code = (
        "import json, django; from django.conf import settings; django.setup(); "
        "print(json.dumps([settings.TRUSTED_PROXIES, settings.TRUSTED_PROXY_COUNT]))"
    )
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={
            "PATH": "/usr/bin:/bin",
            "PYTHONPATH": str(ROOT),
            "DJANGO_SETTINGS_MODULE": "poquott_ms4.settings.production",
            "SECRET_KEY": "a-long-random-production-secret-for-this-test-only-0123456789",
            "ALLOWED_HOSTS": "stormwater.poquott.example",
            "DATABASE_URL": "postgres://ms4:ms4@db:5432/ms4",
            **env,
        },
        capture_output=True,
        text=True,
    )


def test_trusted_proxies_default_to_none_and_come_from_the_environment():
    default = load_settings()
    assert json.loads(default.stdout.splitlines()[-1]) == [[], 0]
    given = load_settings(
        TRUSTED_PROXIES="10.0.0.1,172.18.0.0/16", TRUSTED_PROXY_COUNT="1"
    )
    assert json.loads(given.stdout.splitlines()[-1]) == [
        ["10.0.0.1", "172.18.0.0/16"],
        1,
    ]


@pytest.mark.parametrize("value", ["*", "10.0.0.1/8", "proxy.example"])
def test_a_trusted_proxy_that_is_not_an_address_is_refused(value):
    loaded = load_settings(TRUSTED_PROXIES=value)
    assert loaded.returncode != 0
    assert (
        "TRUSTED_PROXIES" in loaded.stderr and "ImproperlyConfigured" in loaded.stderr
    )


# --- gunicorn, as poquott_ms4.processes (Dockerfile, compose, prod-check) runs it --
def test_gunicorn_trusts_forwarded_headers_only_from_trusted_proxies():
    from poquott_ms4.processes import command

    for given, trusted in (({}, ""), ({"TRUSTED_PROXIES": "10.0.0.1"}, "10.0.0.1")):
        argv = command("web", given)
        assert argv[argv.index("--forwarded-allow-ips") + 1] == trusted
        assert "*" not in argv


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


ECHO_APP = """
def app(environ, start_response):
    start_response("200 OK", [("Content-Type", "text/plain")])
    return [environ["wsgi.url_scheme"].encode()]
"""


@pytest.mark.parametrize(("trusted", "scheme"), [("", "http"), ("127.0.0.1", "https")])
def test_the_sites_gunicorn_believes_x_forwarded_proto_only_from_a_trusted_proxy(
    tmp_path, trusted, scheme
):
    """The site's own gunicorn command line, with a tiny app in place of the site."""
    from poquott_ms4.processes import command

    (tmp_path / "echo_app.py").write_text(ECHO_APP)
    port = _free_port()
    argv = command(
        "web",
        {
            "HOST": "127.0.0.1",
            "PORT": str(port),
            "WEB_CONCURRENCY": "1",
            "TRUSTED_PROXIES": trusted,
        },
    )
    argv[argv.index("poquott_ms4.wsgi")] = "echo_app:app"
    env = {"PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin"}
    server = subprocess.Popen(argv, cwd=tmp_path, env=env, stderr=subprocess.PIPE)
    try:
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/", headers={"X-Forwarded-Proto": "https"}
        )
        deadline = time.monotonic() + 15
        while True:
            try:
                with urllib.request.urlopen(request, timeout=2) as response:
                    assert response.read().decode() == scheme
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise
                time.sleep(0.2)
    finally:
        server.terminate()
        server.wait(timeout=10)
