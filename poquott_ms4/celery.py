"""The Celery app. Tasks live in each app's tasks.py; the beat schedule is static."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "poquott_ms4.settings.local")

app = Celery("poquott_ms4")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
# Task modules inside app sub-packages.
app.autodiscover_tasks(["documents"])


@app.task(name="poquott_ms4.heartbeat", acks_late=True)
def heartbeat(token: str) -> None:
    """Proves a worker is consuming: leaves `token` in the shared cache."""
    from django.core.cache import cache

    cache.set(f"heartbeat:{token}", "ok", 300)
