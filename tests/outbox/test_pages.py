"""The SMO's outbox page, its Retry button and the dashboard's count; who may
see them."""

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from cases.services import case_open
from outbox.models import OutgoingMessage

from .factories import OutgoingMessageFactory

pytestmark = pytest.mark.django_db

LIST = reverse("outbox:list")
ROLES = ["anonymous", "no_role", "smo", "clerk", "attorney", "inspector", "superuser"]
ALLOWED = {"smo", "superuser"}


def _retry_url(message):
    return reverse("outbox:retry", args=[message.pk])


@pytest.mark.parametrize("role", ROLES)
def test_url_role_table(client_as, role):
    failed = OutgoingMessageFactory(failed=True)
    client = client_as(role)
    page = client.get(LIST)
    retry = client.post(_retry_url(failed))
    if role in ALLOWED:
        assert page.status_code == 200
        assert retry.status_code == 302
    elif role == "anonymous":
        for response in (page, retry):
            assert response.status_code == 302
            assert response.url.startswith(reverse("login"))
    else:
        assert page.status_code == 403 and retry.status_code == 403
        failed.refresh_from_db()
        assert failed.is_failed  # nothing changed


def test_the_page_lists_failed_and_pending_deliveries_with_their_cause(smo_client):
    case = case_open(actor=None, source="web", summary="Oil at the outfall")
    failed = OutgoingMessageFactory(failed=True, case=case, recipient="f@example.org")
    pending = OutgoingMessageFactory(recipient="p@example.org", attempts=2)
    OutgoingMessageFactory(sent=True, recipient="gone@example.org")
    response = smo_client.get(LIST)
    html = response.content.decode()
    assert response.context["counts"] == {"failed": 1, "pending": 1}
    assert [m.pk for m in response.context["failed"]] == [failed.pk]
    assert [m.pk for m in response.context["pending"]] == [pending.pk]
    assert "f@example.org" in html and "p@example.org" in html
    assert "gone@example.org" not in html
    assert failed.subject in html and failed.cause in html
    assert "Connection refused" in html
    assert f'href="{case.get_absolute_url()}"' in html
    # A receipt of a report not yet on a case links to the report.
    report_url = reverse("reports:detail", args=[pending.object_id])
    assert f'href="{report_url}">the report</a>' in html
    # Retry is offered on the failed row only.
    assert f'action="{_retry_url(failed)}"' in html
    assert f'action="{_retry_url(pending)}"' not in html
    assert 'name="csrfmiddlewaretoken"' in html


def test_retry_redelivers_a_failed_message_and_says_so(
    smo_client, eager_celery, django_capture_on_commit_callbacks
):
    failed = OutgoingMessageFactory(failed=True, recipient="ann@example.org")
    with django_capture_on_commit_callbacks(execute=True):
        response = smo_client.post(_retry_url(failed))
    assert response.status_code == 302 and response.url == LIST
    failed.refresh_from_db()
    assert failed.is_sent and failed.attempts == 1
    assert [m.to for m in mail.outbox] == [["ann@example.org"]]
    page = smo_client.get(LIST).content.decode()
    assert "Queued again" in page and "ann@example.org" in page


def test_retry_of_a_row_no_longer_failed_is_a_warning(smo_client):
    sent = OutgoingMessageFactory(sent=True)
    response = smo_client.post(_retry_url(sent), follow=True)
    assert "Only a failed delivery can be retried" in response.content.decode()
    sent.refresh_from_db()
    assert sent.is_sent and mail.outbox == []


def test_retry_is_post_only_and_needs_the_csrf_token(smo_user, smo_client):
    failed = OutgoingMessageFactory(failed=True)
    assert smo_client.get(_retry_url(failed)).status_code == 405
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(smo_user)
    assert strict.post(_retry_url(failed)).status_code == 403
    failed.refresh_from_db()
    assert failed.is_failed


def test_the_dashboard_shows_the_counts_to_the_smo_with_a_link(smo_client):
    OutgoingMessageFactory.create_batch(2, failed=True)
    OutgoingMessageFactory()
    html = smo_client.get(reverse("cases:dashboard")).content.decode()
    assert f'href="{LIST}"' in html
    assert 'data-testid="outbox-dashboard-failed">2 failed' in html
    assert 'data-testid="outbox-dashboard-pending">1 waiting' in html


def test_the_dashboard_of_the_clerk_has_no_outbox_count(clerk_client):
    OutgoingMessageFactory(failed=True)
    html = clerk_client.get(reverse("cases:dashboard")).content.decode()
    assert "outbox-dashboard" not in html


def test_the_page_costs_the_same_for_3_and_30_rows(
    smo_client, django_assert_max_num_queries
):
    case = case_open(actor=None, source="web", summary="x")
    OutgoingMessageFactory.create_batch(3, failed=True, case=case)
    with django_assert_max_num_queries(8) as small:
        smo_client.get(LIST)
    OutgoingMessageFactory.create_batch(27, failed=True, case=case)
    with django_assert_max_num_queries(8) as large:
        smo_client.get(LIST)
    assert len(small.captured_queries) == len(large.captured_queries)
    assert OutgoingMessage.objects.count() == 30


def test_the_admin_lists_the_outbox_read_only(client, superuser):
    OutgoingMessageFactory(failed=True)
    client.force_login(superuser)
    assert client.get("/admin/outbox/outgoingmessage/").status_code == 200
    assert client.get("/admin/outbox/outgoingmessage/add/").status_code == 403
