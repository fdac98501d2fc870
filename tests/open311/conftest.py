import pytest
from django.core.cache import cache


@pytest.fixture(autouse=True)
def _fresh_rate_limits(settings, tmp_path):
    """Rate-limit counters live in the shared cache; start every test clean, and
    keep uploaded files in a temporary media folder."""
    settings.MEDIA_ROOT = tmp_path / "media"
    cache.clear()
    yield
    cache.clear()
