"""The database-backed attempt counters (`limits`, issue 28) and the rule that
an IPv6 /64 counts as one address for every limit."""

import os
import subprocess
import sys
import threading
from datetime import timedelta
from pathlib import Path

import pytest
from django.core.cache import cache
from django.db import connection
from django.urls import reverse
from django.utils import timezone

from limits import ratelimit
from limits.addresses import limit_source
from limits.models import Counter
from limits.selectors import counter_value
from limits.services import counter_clear, counter_increment, counters_purge

from .reports.helpers import valid_post

BASE_DIR = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def _fresh_cache():
    cache.clear()
    yield
    cache.clear()


# --- whose attempts count together ------------------------------------------------
@pytest.mark.parametrize(
    ("address", "source"),
    [
        ("203.0.113.9", "203.0.113.9"),
        ("2001:db8:1:2::1", "2001:db8:1:2::/64"),
        ("2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:db8:1:2::/64"),
        ("2001:DB8:1:3::1", "2001:db8:1:3::/64"),
        ("::ffff:203.0.113.9", "203.0.113.9"),
        ("fe80::1%eth0", "fe80::/64"),
        ("unknown", "unknown"),
    ],
)
def test_an_ipv6_address_counts_by_its_64(address, source):
    assert limit_source(address) == source


# --- the counter ------------------------------------------------------------------
@pytest.mark.django_db
def test_the_counter_counts_within_its_window_and_starts_again_after_it():
    assert counter_value(key="k") == 0
    assert [counter_increment(key="k", seconds=600) for _ in range(3)] == [1, 2, 3]
    assert counter_value(key="k") == 3
    assert counter_value(key="other") == 0
    # The window ends (its end moved into the past, as time would).
    Counter.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    assert counter_value(key="k") == 0
    assert counter_increment(key="k", seconds=600) == 1
    assert Counter.objects.get().expires_at > timezone.now()


@pytest.mark.django_db
def test_the_counter_keeps_no_key_in_clear():
    counter_increment(key="throttle|ip|203.0.113.9", seconds=60)
    stored = Counter.objects.get().key
    assert "203.0.113.9" not in stored and len(stored) == 64


@pytest.mark.django_db
def test_clear_forgets_one_key_and_purge_only_ended_windows():
    counter_increment(key="a", seconds=600)
    counter_increment(key="b", seconds=600)
    counter_increment(key="c", seconds=600)
    counter_clear(key="a")
    assert counter_value(key="a") == 0 and counter_value(key="b") == 1
    Counter.objects.filter(key=Counter.key_for("b")).update(
        expires_at=timezone.now() - timedelta(seconds=1)
    )
    assert counters_purge() == 1
    assert Counter.objects.count() == 1 and counter_value(key="c") == 1


@pytest.mark.django_db(transaction=True)
def test_attempts_counted_at_once_by_many_processes_are_all_counted():
    errors = []

    def count_ten():
        try:
            for _ in range(10):
                counter_increment(key="together", seconds=600)
        except Exception as exc:  # reported below, not lost in a thread
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=count_ten) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert counter_value(key="together") == 60


def test_the_counter_works_on_sqlite_as_make_run_uses_it(tmp_path):
    """The embedded default runs on SQLite: the same statement must work there."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL", "VAR_DIR")
    }
    env.update(
        DATABASE_URL=f"sqlite:///{tmp_path / 'site.sqlite3'}",
        VAR_DIR=str(tmp_path),
        DJANGO_SETTINGS_MODULE="poquott_ms4.settings.local",
    )
    script = (
        "import django\n"
        "django.setup()\n"
        "from datetime import timedelta\n"
        "from django.db import connection\n"
        "from django.utils import timezone\n"
        "from limits.models import Counter\n"
        "from limits.selectors import counter_value\n"
        "from limits.services import counter_increment, counters_purge\n"
        "assert connection.vendor == 'sqlite'\n"
        "with connection.schema_editor() as editor:\n"
        "    editor.create_model(Counter)\n"
        "counts = [counter_increment(key='k', seconds=600) for _ in range(3)]\n"
        "value = counter_value(key='k')\n"
        "Counter.objects.update(expires_at=timezone.now() - timedelta(seconds=1))\n"
        "after = (counter_value(key='k'), counter_increment(key='k', seconds=600))\n"
        "Counter.objects.update(expires_at=timezone.now() - timedelta(seconds=1))\n"
        "print(counts, value, after, counters_purge())\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        env=env,
        cwd=BASE_DIR,
        check=True,
        capture_output=True,
        text=True,
    )
    assert done.stdout.strip() == "[1, 2, 3] 3 (0, 1) 1"


# --- every limit keys an IPv6 address on its /64 --------------------------------
@pytest.mark.django_db
def test_report_limit_counts_one_ipv6_64_as_one_address(
    client, monkeypatch, settings, tmp_path
):
    settings.MEDIA_ROOT = tmp_path / "media"
    monkeypatch.setattr(ratelimit, "REPORT_SUBMIT", ratelimit.Limit("report", 2, 3600))
    url = reverse("public:report")
    answers = [
        client.post(url, valid_post(), REMOTE_ADDR=address).status_code
        for address in ("2001:db8:5:1::1", "2001:db8:5:1::2", "2001:db8:5:1:9::9")
    ]
    assert answers == [302, 302, 429]
    assert (
        client.post(url, valid_post(), REMOTE_ADDR="2001:db8:5:2::1").status_code == 302
    )


@pytest.mark.django_db
def test_sign_in_cool_off_counts_one_ipv6_64_as_one_address(client, smo_user, settings):
    settings.LOGIN_THROTTLE_PER_USER = 3

    def sign_in(password, address):
        return client.post(
            reverse("login"),
            {"username": "smo", "password": password},
            REMOTE_ADDR=address,
        )

    for host in ("1", "2", "3"):
        sign_in("guess", f"2001:db8:9:1::{host}")
    refused = sign_in("demo-password", "2001:db8:9:1::4")
    assert "Too many failed sign-ins" in refused.content.decode()
    assert sign_in("demo-password", "2001:db8:9:2::1").status_code == 302


def test_ended_windows_are_purged_by_a_task_on_the_static_beat_schedule(settings):
    from poquott_ms4.celery import app

    entry = settings.CELERY_BEAT_SCHEDULE["limits-purge"]
    app.loader.import_default_modules()
    assert entry["task"] in app.tasks


def test_limits_is_a_lower_layer_that_imports_no_feature_app():
    upper = ("cases", "inspections", "enforcement", "ledger", "poquott_ms4")
    offending = [
        f"{path.name}: {line.strip()}"
        for path in (BASE_DIR / "limits").rglob("*.py")
        for line in path.read_text().splitlines()
        if line.strip().startswith(("import ", "from "))
        and line.split()[1].split(".")[0] in upper
    ]
    assert offending == []
