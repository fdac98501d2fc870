"""The respondent's page (issue 18): a case with an owner (the notice's
recipient) and an agent, the notice issued (its document prints the owner's
code), built through the services."""

import pytest

from documents.selectors import latest_document
from documents.services import document_render
from enforcement.document_kinds import EnforcementDocument
from portal.services import live_access
from tests.enforcement.conftest import (  # noqa: F401 (fixtures)
    agent,
    appeal,
    confirmed_case,
    draft_notice,
    issued_notice,
    owner,
)


@pytest.fixture
def notice_document(issued_notice):  # noqa: F811
    document = latest_document(issued_notice, EnforcementDocument.NOTICE_OF_VIOLATION)
    document_render(document_id=document.pk)
    document.refresh_from_db()
    return document


@pytest.fixture
def owner_code(notice_document, confirmed_case, owner):  # noqa: F811
    """The code the owner's notice printed, grouped as printed."""
    return live_access(confirmed_case, owner).printed


def enter(client, code, **extra):
    return client.post("/respond/", {"code": code}, **extra)
