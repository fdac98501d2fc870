"""The outbox through a REAL Celery worker on Redis: a report's receipt is
delivered once, duplicate tasks send one e-mail, a mail server that refuses twice
is retried until it takes the message. The worker thread shares the process, so
Django's locmem mail.outbox sees what it sends."""

import time

import pytest
from django.core import mail
from django.urls import reverse

from intake.models import Report
from outbox import tasks
from outbox.models import OutgoingMessage
from tests.reports.helpers import valid_post

from .helpers import FlakyBackend

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def wait_for(predicate, what, timeout=30.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


@pytest.fixture
def worker(celery_worker_on_redis):
    celery_worker_on_redis.control.purge()
    yield celery_worker_on_redis
    celery_worker_on_redis.control.purge()


def _sent(message_id):
    return OutgoingMessage.objects.get(pk=message_id).is_sent


def test_a_reports_receipt_is_delivered_once_by_the_worker(worker, client):
    response = client.post(
        reverse("public:report"), valid_post(reporter_email="ann@example.org")
    )
    assert response.status_code == 302
    message = OutgoingMessage.objects.get(kind="receipt")
    wait_for(lambda: _sent(message.pk), "the receipt")
    tasks.deliver_message.delay(message.pk)  # a duplicate
    tasks.deliver_message.delay(message.pk)
    # One solo worker reads the queue in order: once a receipt queued after the
    # duplicates is out, they have run.
    client.post(reverse("public:report"), valid_post(reporter_email="s@example.org"))
    sentinel = OutgoingMessage.objects.get(recipient="s@example.org")
    wait_for(lambda: _sent(sentinel.pk), "the sentinel receipt")
    assert [m.to for m in mail.outbox] == [["ann@example.org"], ["s@example.org"]]
    first = Report.objects.get(reporter_email="ann@example.org")
    assert first.tracking_code in mail.outbox[0].subject


def test_a_refusing_mail_server_is_retried_until_it_takes_the_message(
    worker, client, settings
):
    settings.EMAIL_BACKEND = "tests.outbox.helpers.FlakyBackend"
    settings.OUTBOX_RETRY_BACKOFF_SECONDS = 0  # retry at once
    FlakyBackend.failures = 2
    client.post(reverse("public:report"), valid_post(reporter_email="bo@example.org"))
    message = OutgoingMessage.objects.get(kind="receipt")
    wait_for(lambda: _sent(message.pk), "the receipt after two refusals")
    message.refresh_from_db()
    assert message.attempts == 3
    assert "Connection refused" in message.last_error
    assert [m.to for m in mail.outbox] == [["bo@example.org"]]
