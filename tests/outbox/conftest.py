import pytest
from django.core.cache import cache


@pytest.fixture(autouse=True)
def _fresh_limits_and_media(settings, tmp_path):
    """The report form's rate limit lives in the cache: start clean; uploads and
    documents go to a temporary media folder."""
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.OUTBOX_MAX_ATTEMPTS = 6
    settings.OUTBOX_RETRY_BACKOFF_SECONDS = 30
    settings.OUTBOX_RETRY_BACKOFF_MAX_SECONDS = 1800
    settings.OUTBOX_REQUEUE_AFTER_SECONDS = 300
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def eager_celery():
    """Tasks handed to the broker run at once, in the test's thread."""
    from poquott_ms4.celery import app

    app.conf.task_always_eager = True
    yield app
    app.conf.task_always_eager = False


@pytest.fixture
def handed(monkeypatch):
    """Records the delivery tasks handed to the broker instead of queueing them."""
    from outbox import tasks

    calls = []
    monkeypatch.setattr(
        tasks.deliver_message, "apply_async", lambda args, **kw: calls.append(args)
    )
    return calls


@pytest.fixture
def broker_down(monkeypatch):
    from kombu.exceptions import OperationalError

    from outbox import tasks

    def refuse(*args, **kwargs):
        raise OperationalError("Error 111 connecting to broker: Connection refused")

    monkeypatch.setattr(tasks.deliver_message, "apply_async", refuse)
