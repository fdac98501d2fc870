"""The outbox on the real database, without a worker: a row written with its
cause, never a send in the request, delivered once, retried with backoff, then
failed; the sweep re-queues what is stuck; reminders, digests and documents go
the same way."""

import datetime as dt
import threading

import pytest
from django.core import mail
from django.db import connection, transaction
from django.urls import reverse
from django.utils import timezone

from cases.services import case_open
from deadlines import reminders
from deadlines.models import Reminder
from intake.models import Report
from intake.services import report_submit
from kernel.models import CaseEvent
from kernel.workflow import Refused
from outbox import services as outbox
from outbox import tasks
from outbox.models import OutgoingMessage
from tests.deadlines.conftest import deadline_on
from tests.reports.helpers import valid_post

from .factories import OutgoingMessageFactory
from .helpers import deliver_queued, issued_document

pytestmark = pytest.mark.django_db

REFUSING = "tests.outbox.helpers.RefusingBackend"
Status = OutgoingMessage.Status


def _post_report(client, **fields):
    return client.post(
        reverse("public:report"),
        valid_post(reporter_email="ann@example.org", reporter_name="Ann", **fields),
    )


def _receipt(email="ann@example.org") -> OutgoingMessage:
    with transaction.atomic():
        report = report_submit(
            channel=Report.Channel.WEB,
            fields={"description": "Oil in the drain", "reporter_email": email},
        )
    return OutgoingMessage.objects.get(kind="receipt", object_id=report.pk)


# --- in the request: queued, never sent ----------------------------------------------
def test_the_receipt_is_queued_in_the_request_and_handed_over_on_commit(
    client, handed, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = _post_report(client)
    assert response.status_code == 302
    assert mail.outbox == []  # nothing sent inside the request
    report = Report.objects.get()
    message = OutgoingMessage.objects.get()
    assert message.is_pending and message.kind == OutgoingMessage.Kind.RECEIPT
    assert message.source == report and message.recipient == "ann@example.org"
    assert report.tracking_code in message.subject
    assert f"?code={report.tracking_code}" in message.body
    assert message.attempts == 0 and message.sent_at is None
    assert handed == [(message.pk,)]


def test_with_the_mail_server_and_the_broker_down_the_resident_still_gets_the_confirmation(
    client, settings, broker_down, django_capture_on_commit_callbacks
):
    settings.EMAIL_BACKEND = REFUSING
    with django_capture_on_commit_callbacks(execute=True):
        response = _post_report(client)
    assert response.status_code == 302
    assert response.url == reverse("public:report_done")
    report = Report.objects.get()
    done = client.get(response.url)
    assert done.status_code == 200
    assert report.tracking_code in done.content.decode()
    message = OutgoingMessage.objects.get()
    assert message.is_pending and message.enqueued_at is None

    # The worker, later: the mail server refuses; the attempt is counted.
    tasks.deliver_message.apply(args=[message.pk])
    message.refresh_from_db()
    assert message.attempts >= 1
    assert "ConnectionRefusedError" in message.last_error
    assert Report.objects.filter(pk=report.pk).exists()


def test_a_rolled_back_report_leaves_no_message(django_capture_on_commit_callbacks):
    with (
        django_capture_on_commit_callbacks(execute=True) as callbacks,
        pytest.raises(RuntimeError),
        transaction.atomic(),
    ):
        report_submit(
            channel=Report.Channel.WEB,
            fields={"description": "x", "reporter_email": "ann@example.org"},
        )
        raise RuntimeError("boom")
    assert callbacks == [] and not OutgoingMessage.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_queueing_outside_a_transaction_is_refused():
    report = Report.objects.create(channel="web", description="x")
    with pytest.raises(RuntimeError):
        outbox.message_queue(
            kind="receipt", source=report, recipient="a@b.org", cause="x", subject="x"
        )


def test_queueing_the_same_message_twice_gives_one_row():
    message = _receipt()
    with transaction.atomic():
        again = outbox.message_queue(
            kind="receipt",
            source=message.source,
            recipient=message.recipient,
            cause="again",
            subject="again",
        )
    assert again.pk == message.pk and OutgoingMessage.objects.count() == 1


# --- delivery: once -------------------------------------------------------------------
def test_delivery_marks_the_row_sent_once_and_a_second_run_sends_nothing():
    message = _receipt()
    assert outbox.message_deliver(message_id=message.pk) is True
    assert outbox.message_deliver(message_id=message.pk) is False
    tasks.deliver_message.apply(args=[message.pk])  # a redelivered task
    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == ["ann@example.org"]
    message.refresh_from_db()
    assert message.is_sent and message.sent_at is not None
    assert message.attempts == 1


@pytest.mark.django_db(transaction=True)
def test_a_row_being_sent_by_another_worker_is_passed_over():
    if not connection.features.has_select_for_update_skip_locked:
        pytest.skip("row locks are PostgreSQL's (SQLite serialises on its write lock)")
    message = _receipt()
    locked, release = threading.Event(), threading.Event()

    def other_worker():
        from django.db import connections

        try:
            with transaction.atomic():
                OutgoingMessage.objects.select_for_update().get(pk=message.pk)
                locked.set()
                release.wait(10)
        finally:
            connections.close_all()

    thread = threading.Thread(target=other_worker)
    thread.start()
    try:
        assert locked.wait(10)
        assert outbox.message_deliver(message_id=message.pk) is False
        assert mail.outbox == []
    finally:
        release.set()
        thread.join()
    assert outbox.message_deliver(message_id=message.pk) is True
    assert len(mail.outbox) == 1


def test_a_missing_row_is_ignored():
    assert outbox.message_deliver(message_id=987654321) is False


# --- retries, backoff, failed -----------------------------------------------------------
def test_the_backoff_doubles_up_to_the_cap(settings):
    settings.OUTBOX_RETRY_BACKOFF_MAX_SECONDS = 200
    assert [outbox.backoff_seconds(n) for n in (1, 2, 3, 4, 5)] == [
        30,
        60,
        120,
        200,
        200,
    ]


def test_failed_attempts_are_retried_with_backoff_then_the_row_is_failed(settings):
    settings.OUTBOX_MAX_ATTEMPTS = 3
    message = _receipt()
    error = ConnectionRefusedError(111, "Connection refused")
    before = timezone.now()
    assert outbox.message_record_failure(message_id=message.pk, error=error) == 30
    message.refresh_from_db()
    assert message.is_pending and message.attempts == 1
    # The sweep leaves it alone while it waits for its retry.
    assert message.enqueued_at >= before + dt.timedelta(seconds=30)
    assert outbox.message_record_failure(message_id=message.pk, error=error) == 60
    assert outbox.message_record_failure(message_id=message.pk, error=error) is None
    message.refresh_from_db()
    assert message.is_failed and message.attempts == 3
    assert (
        message.last_error == "ConnectionRefusedError: [Errno 111] Connection refused"
    )


def test_the_task_retries_until_the_last_attempt_and_leaves_the_row_failed(settings):
    settings.EMAIL_BACKEND = REFUSING
    settings.OUTBOX_MAX_ATTEMPTS = 4
    message = _receipt()
    tasks.deliver_message.apply(args=[message.pk])  # eager: retries run at once
    message.refresh_from_db()
    assert message.is_failed and message.attempts == 4
    assert "Connection refused" in message.last_error
    assert mail.outbox == []
    # Failed is final until the SMO retries: a stray task sends nothing.
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    tasks.deliver_message.apply(args=[message.pk])
    assert mail.outbox == []


def test_a_kind_no_app_composes_fails_with_words_not_silently(monkeypatch):
    """A kind whose app registered no composer (outbox.services.register_composer)
    is not sent and not retried for ever: the SMO reads why on the outbox page."""
    message = _receipt()
    monkeypatch.delitem(outbox.COMPOSERS, message.kind)
    tasks.deliver_message.apply(args=[message.pk])
    message.refresh_from_db()
    assert message.is_failed and message.attempts == 1
    assert "No composer registered for 'receipt'" in message.last_error
    assert mail.outbox == []


def test_the_reminders_and_digests_are_composed_by_the_deadlines():
    """deadlines registers them in its ready(): the outbox names no upper module."""
    from deadlines import reminders

    assert outbox.COMPOSERS[OutgoingMessage.Kind.REMINDER] is reminders.compose_reminder
    assert outbox.COMPOSERS[OutgoingMessage.Kind.DIGEST] is reminders.compose_digest


def test_an_error_retrying_cannot_mend_fails_at_once(settings, monkeypatch):
    message = _receipt()

    def broken(*args, **kwargs):
        raise ValueError("template variable missing")

    monkeypatch.setitem(outbox.COMPOSERS, message.kind, broken)
    tasks.deliver_message.apply(args=[message.pk])
    message.refresh_from_db()
    assert message.is_failed and message.attempts == 1
    assert message.last_error == "ValueError: template variable missing"


# --- the sweep -------------------------------------------------------------------------
def test_the_sweep_requeues_only_rows_stuck_longer_than_the_threshold(handed):
    now = timezone.now()
    old = now - dt.timedelta(minutes=10)
    never_handed = OutgoingMessageFactory(created_at=old)
    killed_mid_send = OutgoingMessageFactory(
        created_at=old, enqueued_at=old, last_attempt_at=old
    )
    OutgoingMessageFactory(created_at=now - dt.timedelta(minutes=1))  # just queued
    OutgoingMessageFactory(  # waiting for its retry
        created_at=old, enqueued_at=now + dt.timedelta(minutes=2), attempts=2
    )
    OutgoingMessageFactory(created_at=old, sent=True)
    OutgoingMessageFactory(created_at=old, failed=True)
    OutgoingMessageFactory(created_at=old, skipped=True)

    assert tasks.sweep_outbox.apply().get() == 2
    assert sorted(handed) == sorted([(never_handed.pk,), (killed_mid_send.pk,)])
    never_handed.refresh_from_db()
    assert never_handed.enqueued_at is not None
    handed.clear()
    assert outbox.message_requeue_stale() == 0  # just handed: not again yet
    assert handed == []


def test_the_sweep_stops_at_the_first_broker_error(broker_down):
    old = timezone.now() - dt.timedelta(minutes=10)
    OutgoingMessageFactory.create_batch(3, created_at=old)
    assert outbox.message_requeue_stale() == 0


def test_a_requeued_row_of_a_killed_worker_is_sent_once():
    message = _receipt()
    OutgoingMessage.objects.filter(pk=message.pk).update(
        created_at=timezone.now() - dt.timedelta(minutes=10)
    )
    assert deliver_queued() == 1
    assert deliver_queued() == 0
    assert len(mail.outbox) == 1


def test_the_outbox_sweep_is_on_the_static_beat_schedule(settings):
    entry = settings.CELERY_BEAT_SCHEDULE["outbox-sweep"]
    assert entry["task"] == "outbox.tasks.sweep_outbox"
    assert entry["schedule"] < settings.OUTBOX_REQUEUE_AFTER_SECONDS


# --- the staff's retry -----------------------------------------------------------------
def test_retry_puts_a_failed_row_back_with_fresh_attempts(
    smo_user, handed, django_capture_on_commit_callbacks
):
    message = OutgoingMessageFactory(failed=True)
    with django_capture_on_commit_callbacks(execute=True):
        outbox.message_retry(message=message, actor=smo_user)
    message.refresh_from_db()
    assert message.is_pending and message.attempts == 0
    assert message.last_error  # kept until a delivery succeeds
    assert handed == [(message.pk,)]
    assert outbox.message_deliver(message_id=message.pk) is True
    assert len(mail.outbox) == 1


def test_retry_is_refused_for_a_row_not_failed_and_for_other_roles(
    smo_user, clerk_user
):
    with pytest.raises(Refused):
        outbox.message_retry(message=OutgoingMessageFactory(sent=True), actor=smo_user)
    with pytest.raises(Refused):
        outbox.message_retry(
            message=OutgoingMessageFactory(failed=True), actor=clerk_user
        )


# --- every kind goes through it -----------------------------------------------------------
def test_a_status_change_is_queued_with_a_link_to_its_case(smo_user):
    from cases.services import case_attach_reports, case_run_transition
    from intake.services import notify_reporters_of_status_change

    report = Report.objects.create(
        channel="web",
        description="x",
        reporter_email="ann@example.org",
        wants_updates=True,
    )
    case = case_open(actor=smo_user, source="web", summary="Oil")
    case_attach_reports(case=case, reports=[report], actor=smo_user)
    case_run_transition(case=case, transition="start_investigation", actor=smo_user)
    assert notify_reporters_of_status_change(case) == 0  # already queued
    message = OutgoingMessage.objects.get(kind="status_change")
    assert message.case == case and "Being investigated" in message.subject
    assert deliver_queued("status_change") == 1
    assert mail.outbox[0].to == ["ann@example.org"]


def test_a_reminder_is_an_outbox_row_and_one_of_a_closed_deadline_is_skipped(
    smo_user, settings
):
    settings.STAFF_DIGEST_HOUR = 24
    case = case_open(actor=None, source="web", summary="x", assigned_officer=smo_user)
    today = timezone.localdate()
    open_one = deadline_on(today, case=case, purpose="a")
    closed = deadline_on(today, case=case, purpose="b")
    reminders.sweep_reminders(today=today)
    rows = OutgoingMessage.objects.filter(kind="reminder")
    assert rows.count() == 2 and all(m.case == case for m in rows)
    type(closed).objects.filter(pk=closed.pk).update(status="waived")

    assert deliver_queued(today=today) == 1
    sent = Reminder.objects.get(deadline=open_one)
    skipped = OutgoingMessage.objects.get(
        kind="reminder", object_id=Reminder.objects.get(deadline=closed).pk
    )
    assert sent.sent_at is not None
    assert skipped.status == Status.SKIPPED
    assert "closed" in skipped.closed_reason
    assert len(mail.outbox) == 1
    assert CaseEvent.objects.filter(case=case, kind="reminder").count() == 1
    sent_row = OutgoingMessage.objects.get(kind="reminder", object_id=sent.pk)
    assert sent_row.subject == mail.outbox[0].subject  # what was really sent
    # The skip is a step of the message's machine, with its event (issue 30).
    step = CaseEvent.objects.get(case=case, to_status=Status.SKIPPED)
    assert step.summary == f"Not sent, no longer needed: {skipped.subject}"
    assert step.from_status == Status.PENDING and "closed" in step.detail


def test_a_digest_is_an_outbox_row(smo_user):
    today = timezone.localdate()
    case = case_open(actor=None, source="web", summary="x", assigned_officer=smo_user)
    deadline_on(today + dt.timedelta(days=1), case=case)
    [digest_id] = reminders.create_staff_digests(day=today)
    message = OutgoingMessage.objects.get(kind="digest")
    assert message.object_id == digest_id and message.recipient == smo_user.email
    assert deliver_queued() == 1
    assert "due this week" in mail.outbox[0].subject


def test_a_document_emailed_to_a_party_goes_out_with_its_pdf(smo_user):
    case = case_open(actor=smo_user, source="phone", summary="Oil")
    document = issued_document(case, smo_user)
    message = outbox.document_email(
        document=document, recipient="owner@example.org", actor=smo_user
    )
    assert message.is_pending and message.case == case
    assert message.created_by == smo_user
    assert deliver_queued() == 1
    [email] = mail.outbox
    assert email.to == ["owner@example.org"]
    [(name, content, mimetype)] = email.attachments
    assert name == document.download_name and mimetype == "application/pdf"
    assert content.startswith(b"%PDF")
    assert CaseEvent.objects.filter(
        case=case, kind="document", summary__startswith="E-mailed to owner@"
    ).exists()


def test_a_document_still_rendering_waits_and_other_roles_may_not_send_it(
    smo_user, attorney_user
):
    case = case_open(actor=smo_user, source="phone", summary="Oil")
    document = issued_document(case, smo_user, issued=False)
    with pytest.raises(Refused):
        outbox.document_email(
            document=document, recipient="owner@example.org", actor=attorney_user
        )
    message = outbox.document_email(
        document=document, recipient="owner@example.org", actor=smo_user
    )
    with pytest.raises(outbox.MessageNotReady):
        outbox.message_deliver(message_id=message.pk)
    assert outbox.message_record_failure(
        message_id=message.pk, error=outbox.MessageNotReady("rendering")
    )  # retried later, not failed
    message.refresh_from_db()
    assert message.is_pending and mail.outbox == []
