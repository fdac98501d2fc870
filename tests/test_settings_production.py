"""The production settings' knobs that `make prod-check` relies on, read in a
fresh process from the environment (as gunicorn and Celery read them)."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

LOAD = """
import json, django
from django.conf import settings
django.setup()
from limits import ratelimit
from intake.open311 import keys
print(json.dumps({
    "health_checks": settings.DATABASES["default"]["CONN_HEALTH_CHECKS"],
    "email_timeout": getattr(settings, "EMAIL_TIMEOUT", None),
    "report_limit": [ratelimit.REPORT_SUBMIT.count, ratelimit.REPORT_SUBMIT.seconds],
    "wrong_key_limit": [
        ratelimit.OPEN311_WRONG_KEY.count, ratelimit.OPEN311_WRONG_KEY.seconds
    ],
    "demo_key_allowed": keys.demo_key_allowed(),
}))
"""


def load(tmp_path, **extra) -> dict:
    env = {
        "PATH": "/usr/bin:/bin",
        "PYTHONPATH": str(ROOT),
        "DJANGO_SETTINGS_MODULE": "poquott_ms4.settings.production",
        "SECRET_KEY": "a-long-random-production-test-key",
        "ALLOWED_HOSTS": "stormwater.example",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "VAR_DIR": str(tmp_path / "var"),
        "EMAIL_URL": "smtp://127.0.0.1:2525",
        **extra,
    }
    out = subprocess.run(
        [sys.executable, "-c", LOAD],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_production_checks_a_persistent_connection_and_bounds_an_smtp_conversation(
    tmp_path,
):
    loaded = load(tmp_path)
    assert loaded["health_checks"] is True
    assert loaded["email_timeout"] == 30
    assert loaded["report_limit"] == [10, 3600]
    assert loaded["wrong_key_limit"] == [20, 3600]


def test_production_refuses_the_demo_open311_key(tmp_path):
    assert load(tmp_path)["demo_key_allowed"] is False


def test_the_report_limit_and_the_knobs_come_from_the_environment(tmp_path):
    loaded = load(
        tmp_path,
        CONN_HEALTH_CHECKS="false",
        EMAIL_TIMEOUT="5",
        REPORT_RATE_LIMIT_COUNT="500",
        REPORT_RATE_LIMIT_SECONDS="60",
        OPEN311_WRONG_KEY_LIMIT_COUNT="5",
        OPEN311_WRONG_KEY_LIMIT_SECONDS="600",
    )
    assert loaded == {
        "health_checks": False,
        "email_timeout": 5,
        "report_limit": [500, 60],
        "wrong_key_limit": [5, 600],
        "demo_key_allowed": False,
    }
