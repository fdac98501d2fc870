"""A report sent twice is stored once (issue 31): the form carries a key made on
the phone (static/js/report-form.js), and a resend with that key — the signal
dropped, or the site answered 503 while its database restarted — gets the first
report back. The same key with other contents is refused, nothing else lost."""

import threading
import uuid

import pytest
from django.core import mail
from django.db import close_old_connections
from django.urls import reverse

from intake.models import Report
from intake.services import report_submit
from kernel.idempotency import KeyReused
from tests.outbox.helpers import deliver_queued

from .helpers import upload, valid_post

URL = reverse("public:report")


def _key() -> str:
    return str(uuid.uuid4())


@pytest.mark.django_db
def test_the_same_report_sent_twice_is_stored_once_with_one_receipt(client):
    key = _key()
    data = valid_post(client_key=key, reporter_email="pat@example.org")
    first = client.post(URL, {**data, "photos": [upload()]})
    again = client.post(URL, {**data, "photos": [upload()]})

    assert first.status_code == again.status_code == 302
    report = Report.objects.get()
    assert report.photos.count() == 1
    done = client.get(again["Location"]).content.decode()
    assert report.tracking_code in done  # the resend shows the stored report's code
    deliver_queued()
    assert len(mail.outbox) == 1  # one receipt


@pytest.mark.django_db
def test_a_key_sent_again_with_other_words_is_refused_and_the_words_kept(client):
    key = _key()
    client.post(URL, valid_post(client_key=key, description="Suds in the drain"))
    response = client.post(
        URL, valid_post(client_key=key, description="Oil at the beach stairs")
    )

    assert response.status_code == 400
    page = response.content.decode()
    assert "already sent with other contents" in page
    assert "Oil at the beach stairs" in page  # the input is kept
    assert [r.description for r in Report.objects.all()] == ["Suds in the drain"]


@pytest.mark.django_db
def test_without_a_key_two_sendings_are_two_reports(client):
    client.post(URL, valid_post())
    client.post(URL, valid_post())
    assert Report.objects.count() == 2


@pytest.mark.django_db
def test_a_malformed_key_is_ignored_and_the_report_stored(client):
    response = client.post(URL, valid_post(client_key="<script>"))
    assert response.status_code == 302
    assert Report.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_sendings_at_the_same_moment_store_one_report():
    """The key's unique row makes the second sending wait for the first."""
    key = _key()
    results, errors = [], []
    start = threading.Barrier(2)

    def send():
        try:
            start.wait()
            results.append(
                report_submit(
                    channel=Report.Channel.WEB,
                    fields={"description": "Grey water", "address": "Sound Road"},
                    client_key=key,
                ).pk
            )
        except Exception as exc:  # reported below
            errors.append(exc)
        finally:
            close_old_connections()

    threads = [threading.Thread(target=send) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert errors == []
    assert Report.objects.count() == 1
    assert results == [Report.objects.get().pk] * 2


@pytest.mark.django_db
def test_the_service_refuses_a_reused_key_with_other_contents():
    key = _key()
    fields = {"description": "Grey water", "address": "Sound Road"}
    report_submit(channel=Report.Channel.WEB, fields=fields, client_key=key)
    with pytest.raises(KeyReused):
        report_submit(
            channel=Report.Channel.WEB,
            fields={**fields, "address": "Washington Street"},
            client_key=key,
        )
    assert Report.objects.count() == 1
