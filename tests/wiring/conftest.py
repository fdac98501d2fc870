"""Fixtures of the wiring tests: the enforcement fixtures (records built through
the services) and private media in a temporary folder."""

import pytest

from tests.documents.conftest import pdf_text  # noqa: F401
from tests.enforcement.conftest import (  # noqa: F401
    agent,
    appeal,
    confirmed_case,
    draft_notice,
    issued_notice,
    owner,
    scheduled_appeal,
)


@pytest.fixture(autouse=True)
def private_media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT
