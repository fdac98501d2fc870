"""The documents' pages: who may see them, and that the stored bytes are served."""

import hashlib

import pytest
from django.contrib.contenttypes.models import ContentType
from django.template import Context, Template
from django.test import RequestFactory
from django.urls import reverse

from documents import registry, services
from documents.contracts import document_kind_values
from documents.tasks import render_document
from enforcement.document_kinds import EnforcementDocument
from enforcement.documents.notice import sample_notice_of_violation

from .conftest import pdf_text

pytestmark = pytest.mark.django_db

NOV = EnforcementDocument.NOTICE_OF_VIOLATION


@pytest.fixture
def document(case, smo_user):
    from django.db import transaction

    with transaction.atomic():
        document = services.document_issue(
            kind=NOV,
            facts=sample_notice_of_violation(case_number=case.number),
            case=case,
            source=case,
            actor=smo_user,
        )
    render_document(document.pk)
    document.refresh_from_db()
    return document


READERS = {"smo": 200, "clerk": 200, "superuser": 200}
OTHERS = {"anonymous": 302, "no_role": 403, "attorney": 403, "inspector": 403}
TABLE = [(role, code) for role, code in {**READERS, **OTHERS}.items()]


@pytest.mark.parametrize("page", ["detail", "html", "download", "verify"])
@pytest.mark.parametrize(("role", "expected"), TABLE)
def test_document_pages_by_role(client_as, document, page, role, expected):
    response = client_as(role).get(reverse(f"documents:{page}", args=[document.pk]))
    assert response.status_code == expected
    if expected == 302:
        assert reverse("login") in response["Location"]


@pytest.mark.parametrize("kind", document_kind_values())
@pytest.mark.parametrize(("role", "expected"), TABLE)
def test_sample_preview_by_role(client_as, kind, role, expected):
    response = client_as(role).get(reverse("documents:sample_preview", args=[kind]))
    assert response.status_code == expected


def test_sample_preview_of_an_unknown_kind_is_404(client_as):
    response = client_as("smo").get(
        reverse("documents:sample_preview", args=["love_letter"])
    )
    assert response.status_code == 404


def test_download_serves_the_stored_bytes_every_time(client_as, document):
    client = client_as("clerk")
    stored = document.pdf.read()
    first = client.get(reverse("documents:download", args=[document.pk]))
    second = client.get(reverse("documents:download", args=[document.pk]))
    body1, body2 = b"".join(first.streaming_content), b"".join(second.streaming_content)
    assert body1 == body2 == stored
    assert hashlib.sha256(body1).hexdigest() == document.sha256
    assert first["Content-Type"] == "application/pdf"
    assert first["Content-Disposition"] == (
        f'attachment; filename="{document.case.number}-notice-of-violation-v1.pdf"'
    )


def test_download_never_re_renders(client_as, document, monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("re-rendered")

    monkeypatch.setattr(services, "render_pdf", refuse)
    monkeypatch.setattr(services, "render_html", refuse)
    response = client_as("smo").get(reverse("documents:download", args=[document.pk]))
    assert b"".join(response.streaming_content) == document.pdf.read()


def test_verify_says_the_stored_file_matches(client_as, document):
    response = client_as("smo").get(reverse("documents:verify", args=[document.pk]))
    assert "matches its SHA-256" in response.content.decode()
    assert document.sha256 in response.content.decode()


def test_a_tampered_file_fails_verification_and_is_not_served(client_as, document):
    with open(document.pdf.path, "r+b") as handle:
        handle.seek(100)
        handle.write(b"X")
    client = client_as("smo")
    page = client.get(reverse("documents:verify", args=[document.pk]))
    assert "does NOT match" in page.content.decode()
    download = client.get(reverse("documents:download", args=[document.pk]))
    assert download.status_code == 409


def test_a_document_still_rendering_has_no_download_yet(client_as, case, smo_user):
    from django.db import transaction

    with transaction.atomic():
        pending = services.document_issue(
            kind=NOV,
            facts=sample_notice_of_violation(case_number=case.number),
            case=case,
            source=case,
            actor=smo_user,
        )
    client = client_as("smo")
    assert (
        client.get(reverse("documents:download", args=[pending.pk])).status_code == 404
    )
    detail = client.get(reverse("documents:detail", args=[pending.pk]))
    assert "Rendering…" in detail.content.decode()
    html = detail.content.decode()
    # asked again quietly by static/js/rendering.js, or by the link without
    # JavaScript; never a timed page refresh (WCAG 2.2.1)
    assert "data-rendering=" in html and "/static/js/rendering.js" in html
    assert "Check again" in html
    assert 'http-equiv="refresh"' not in html


def test_stored_html_is_the_frozen_html(client_as, document):
    response = client_as("smo").get(reverse("documents:html", args=[document.pk]))
    assert response.content.decode() == document.html


def test_draft_preview_uses_the_registered_builder(client_as, case):
    registry.document_type(NOV).builders["cases.case"] = lambda c: (
        sample_notice_of_violation(case_number=c.number)
    )
    try:
        ct = ContentType.objects.get_for_model(case)
        url = reverse("documents:draft_preview", args=[NOV, ct.pk, case.pk])
        response = client_as("smo").get(url)
        assert response.status_code == 200
        assert "Tuesday, March 17, 2026" in response.content.decode()
        assert client_as("attorney").get(url).status_code == 403
    finally:
        registry.document_type(NOV).builders.pop("cases.case")


def test_draft_preview_explains_why_a_draft_cannot_be_rendered(client_as, case):
    registry.document_type(NOV).builders["cases.case"] = lambda c: (
        sample_notice_of_violation(case_number=c.number, last_day_to_appeal=None)
    )
    try:
        ct = ContentType.objects.get_for_model(case)
        url = reverse("documents:draft_preview", args=[NOV, ct.pk, case.pk])
        response = client_as("smo").get(url)
        assert response.status_code == 200
        assert (
            "the last day to appeal (R-APL-1) is missing" in response.content.decode()
        )
    finally:
        registry.document_type(NOV).builders.pop("cases.case")


def test_draft_preview_without_a_builder_is_404(client_as, case):
    ct = ContentType.objects.get_for_model(case)
    url = reverse("documents:draft_preview", args=[NOV, ct.pk, case.pk])
    assert client_as("smo").get(url).status_code == 404


def test_retry_of_an_issued_document_says_why_not(client_as, document):
    client = client_as("smo")
    response = client.post(reverse("documents:retry", args=[document.pk]), follow=True)
    assert "Only a document whose rendering failed" in response.content.decode()


def test_retry_by_the_clerk_of_a_notice_is_403(client_as, document):
    response = client_as("clerk").post(reverse("documents:retry", args=[document.pk]))
    assert response.status_code == 403


# --- the case page's panel -------------------------------------------------------


def render_panel(case, user):
    request = RequestFactory().get("/")
    request.user = user
    return Template("{% load document_tags %}{% case_documents_panel case %}").render(
        Context({"case": case, "request": request})
    )


def test_case_panel_lists_versions_with_status_issuer_and_download(
    document, case, smo_user
):
    html = render_panel(case, smo_user)
    assert "Notice of violation NOV-2026-0001" in html
    assert reverse("documents:download", args=[document.pk]) in html
    assert "Issued" in html and "Smo Officer" in html


def test_case_panel_is_empty_for_a_role_that_cannot_read_the_case(
    document, case, attorney_user
):
    assert render_panel(case, attorney_user) == ""


def test_case_panel_query_count_does_not_grow_with_documents(
    document, case, smo_user, django_assert_max_num_queries
):
    with django_assert_max_num_queries(3):
        render_panel(case, smo_user)


def test_the_pdf_downloaded_is_the_law_abiding_notice(client_as, document):
    response = client_as("smo").get(reverse("documents:download", args=[document.pk]))
    text = pdf_text(b"".join(response.streaming_content))
    assert (
        "The last day to file an appeal of this notice is Tuesday, March 17, 2026"
        in text
    )


def test_a_failed_render_says_why_and_offers_render_again_without_refreshing(
    client_as, case, smo_user, monkeypatch
):
    from django.db import transaction

    with transaction.atomic():
        failed = services.document_issue(
            kind=NOV,
            facts=sample_notice_of_violation(case_number=case.number),
            case=case,
            source=case,
            actor=smo_user,
        )

    def broken(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(services, "render_pdf", broken)
    render_document(failed.pk)
    failed.refresh_from_db()
    assert failed.has_failed and not failed.is_rendering
    html = client_as("smo").get(reverse("documents:detail", args=[failed.pk]))
    html = html.content.decode()
    assert "Rendering failed: OSError: disk full" in html
    assert "Render again" in html
    assert 'http-equiv="refresh"' not in html
    panel = client_as("smo").get(reverse("cases:detail", args=[case.number]))
    assert "Rendering…" not in panel.content.decode()


def test_the_case_panel_says_rendering_while_the_pdf_is_made(client_as, case, smo_user):
    from django.db import transaction

    with transaction.atomic():
        pending = services.document_issue(
            kind=NOV,
            facts=sample_notice_of_violation(case_number=case.number),
            case=case,
            source=case,
            actor=smo_user,
        )
    assert pending.is_rendering and not pending.has_failed
    panel = client_as("smo").get(reverse("cases:detail", args=[case.number]))
    assert '<span role="status">Rendering…</span>' in panel.content.decode()


def test_the_document_page_links_back_to_its_case(client_as, document, case):
    html = client_as("smo").get(reverse("documents:detail", args=[document.pk]))
    body = html.content.decode()
    assert f'<a href="{case.get_absolute_url()}">Case {case.number}</a>' in body
