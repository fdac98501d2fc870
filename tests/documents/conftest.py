import io
import re

import pytest
from pypdf import PdfReader

from cases.services import case_open


@pytest.fixture(autouse=True)
def private_media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


@pytest.fixture
def case(smo_user):
    from django.db import transaction

    with transaction.atomic():
        return case_open(actor=smo_user, source="phone", summary="Wash water")


def pdf_text(data: bytes) -> str:
    """The text of a PDF, whitespace collapsed (line breaks are layout)."""
    reader = PdfReader(io.BytesIO(data))
    return squash(" ".join(page.extract_text() for page in reader.pages))


def squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()
