"""Benchmarks (bench/run.py): production-like (DEBUG off, PostgreSQL, templates
cached), with the report and Open311 rate limits lifted so a load test measures
throughput rather than the limiter. Never for a real site."""

from django.core.exceptions import ImproperlyConfigured

from .base import *  # noqa: F403
from .base import DATABASES, env

DEBUG = False
if DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
    raise ImproperlyConfigured(
        "The benchmarks need PostgreSQL: set DATABASE_URL=postgres://... "
        "(SQLite numbers say nothing about the village's server)."
    )
DATABASES["default"]["CONN_MAX_AGE"] = 60
ALLOWED_HOSTS = ["127.0.0.1", "localhost", "testserver"]

# Lifted: (count, seconds) far above anything a 10-second load test sends.
REPORT_RATE_LIMIT = (10**9, 3600)
STATUS_LOOKUP_RATE_LIMIT = (10**9, 600)
# The Open311 POST is limited per key: the bench key has 10**9 an hour (bench/seed.py).

# Tasks handed over on commit go nowhere (no worker runs during a benchmark).
CELERY_BROKER_URL = env.str("BENCH_CELERY_BROKER_URL", default="memory://")
CELERY_TASK_ALWAYS_EAGER = False

# The bare view of the framework's floor lives in a bench-only urlconf.
ROOT_URLCONF = "bench.urls"

LOGGING = {"version": 1, "disable_existing_loggers": False}
