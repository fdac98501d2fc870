import pytest


@pytest.fixture(autouse=True)
def _media_and_threshold(settings, tmp_path):
    """Job files go to a temporary media folder; an export of more than two rows
    is a background job."""
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.EXPORT_BACKGROUND_ROWS = 2
    settings.JOB_REQUEUE_AFTER_SECONDS = 300


@pytest.fixture
def handed(monkeypatch):
    """Records the jobs handed to the broker instead of queueing them."""
    from jobs import tasks

    calls = []
    monkeypatch.setattr(
        tasks.run_job, "apply_async", lambda args, **kw: calls.append(args[0])
    )
    return calls


@pytest.fixture
def broker_down(monkeypatch):
    from kombu.exceptions import OperationalError

    from jobs import tasks

    def refuse(*args, **kwargs):
        raise OperationalError("Error 111 connecting to broker: Connection refused")

    monkeypatch.setattr(tasks.run_job, "apply_async", refuse)
