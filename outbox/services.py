"""Every outgoing e-mail goes through one outbox (issue 15).

How it works:
- A service that causes a message calls `message_queue(...)` inside its own
  transaction: the `OutgoingMessage` row lands with the change, or not at all.
  A row is unique per (kind, source, recipient): queueing twice returns the first.
- On commit, `message_enqueue` hands `outbox.tasks.deliver_message(id)` to the
  broker. If the broker is down the error is logged and swallowed (the web
  request still succeeds) and the sweep hands the row over later. Nothing in a
  web request talks to the mail server or writes after its commit.
- `message_deliver` locks the row (PostgreSQL: SELECT … FOR UPDATE SKIP LOCKED,
  so a second worker passes over a row being sent; SQLite has no row locks: a
  first UPDATE takes the database's write lock, which serialises deliveries until
  commit), sends only a pending row, marks it sent and runs its kind's after-sent
  step (a reminder's timeline event) in the same transaction. A sent row is never
  sent again. (If the mail server accepts a message and the commit then fails,
  that one message goes again: at-least-once is the safe side.)
- A failed attempt is counted in a transaction of its own
  (`message_record_failure`): a mail-server or network error is retried with
  exponential backoff (OUTBOX_RETRY_BACKOFF_SECONDS × 2^(attempt-1), at most
  OUTBOX_RETRY_BACKOFF_MAX_SECONDS) up to OUTBOX_MAX_ATTEMPTS attempts; then, or at
  once for any other error, the row is `failed` with the error text. The SMO sees
  it on the outbox page (and a count on the dashboard) and can retry it there
  (`message_retry`).
- `message_requeue_stale` (beat: `outbox.tasks.sweep_outbox`) hands again every row
  still pending OUTBOX_REQUEUE_AFTER_SECONDS after its creation or last hand-over:
  the broker was down at commit, the message was lost, or the worker was killed
  mid-send.
- Every status change of a row is a step of its state machine
  (OutgoingMessage.status), with its event on the case's chronology: the SMO's
  retry goes through `workflow.run`; the worker's sent and failed steps through
  `workflow.fire_locked`, since the worker already holds the row (SKIP LOCKED,
  while it talks to the mail server) and `run` would lock it again. A message of
  no case (a resident's receipt, a staff digest) has its record on the outbox
  page, not a chronology; a reminder's and a document's "sent" event is the
  one their kind writes (after_sent).
- What is sent: receipts, status changes and documents are rendered when queued
  (the row holds the text). Reminders and digests are composed when sent, from
  the deadlines as they are then (deadlines.reminders, registered by
  DeadlinesConfig.ready() with `register_composer`); one whose deadline was closed
  meanwhile is not needed any more and the row is `skipped`.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from smtplib import SMTPException

from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import ImproperlyConfigured
from django.core.mail import EmailMessage
from django.db import connection, transaction
from django.db.models import Q
from django.template.loader import render_to_string
from django.utils import timezone

from documents.models import IssuedDocument
from documents.services import may_issue
from kernel.roles import Role, require_role
from kernel.timeline import record_event
from kernel.workflow import Refused, fire_locked, run

from .models import OutgoingMessage

log = logging.getLogger(__name__)

Kind = OutgoingMessage.Kind


class MessageNotNeeded(Exception):
    """Raised by a composer: the message is no longer to be sent (the row is
    skipped with this reason)."""


class MessageNotReady(Exception):
    """Raised by a composer: not yet (a document still rendering); retried."""


# Mail-server hiccups, lost connections and "not yet" are worth retrying; a bug
# (a template error, a missing record) is not: it fails at once, with its text.
TRANSIENT_ERRORS = (SMTPException, ConnectionError, TimeoutError, OSError)
TRANSIENT = (*TRANSIENT_ERRORS, MessageNotReady)


@dataclass
class Draft:
    """What a composer returns: the e-mail, and what to write once it is sent
    (in the delivery's transaction)."""

    subject: str
    body: str
    attachments: list[tuple[str, bytes, str]] = field(default_factory=list)
    after_sent: Callable[[OutgoingMessage], None] | None = None


# Which function composes each kind at sending time: one table, explicit, so a
# reader can follow what a message does (no signals). The kinds whose text is
# stored when queued, and documents, are the outbox's own (registered at the end
# of this module); an app whose messages are composed at sending time registers
# its composer in its AppConfig.ready(): deadlines, the reminders and digests.
COMPOSERS: dict[str, Callable[..., Draft]] = {}


def register_composer(kind: str, composer: Callable[..., Draft]) -> None:
    """`composer(message, today=)` → Draft composes messages of `kind` when they
    are sent (or raises MessageNotNeeded / MessageNotReady)."""
    COMPOSERS[kind] = composer


def _setting(name: str, default: int) -> int:
    return int(getattr(settings, name, default))


def max_attempts() -> int:
    return _setting("OUTBOX_MAX_ATTEMPTS", 6)


def backoff_seconds(attempts: int) -> int:
    """Seconds before the next attempt after `attempts` failed ones: 30, 60,
    120, 240… capped."""
    base = _setting("OUTBOX_RETRY_BACKOFF_SECONDS", 30)
    cap = _setting("OUTBOX_RETRY_BACKOFF_MAX_SECONDS", 1800)
    return min(base * 2 ** max(attempts - 1, 0), cap)


def requeue_after() -> dt.timedelta:
    return dt.timedelta(seconds=_setting("OUTBOX_REQUEUE_AFTER_SECONDS", 300))


def _subject(text: str) -> str:
    return f"[{settings.VILLAGE['name']}] {text}"[:250]


# --- writing rows ------------------------------------------------------------------
def message_queue(
    *,
    kind: str,
    source,
    recipient: str,
    cause: str,
    subject: str,
    body: str = "",
    case=None,
    actor=None,
) -> OutgoingMessage:
    """Write the outbox row for one e-mail to `recipient` about `source` (the
    report, notification, reminder, digest or document that causes it) and hand
    it to the broker when the transaction commits.

    Who: the services that cause messages, inside their own transaction (raises
    RuntimeError outside one: a row written on its own could outlive a rolled-back
    change). Idempotent: the same kind, source and recipient again returns the
    row already queued, and nothing more is sent."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("message_queue must run inside the change's transaction")
    message, created = OutgoingMessage.objects.get_or_create(
        kind=kind,
        content_type=ContentType.objects.get_for_model(source),
        object_id=source.pk,
        recipient=recipient,
        defaults={
            "subject": subject[:250],
            "body": body,
            "cause": cause[:200],
            "case": case,
            "created_by": actor if getattr(actor, "is_authenticated", False) else None,
        },
    )
    if created:
        transaction.on_commit(partial(message_enqueue, message.pk))
    return message


@dataclass
class Queued:
    """One row of message_queue_many: what message_queue takes, with the source
    as its id (of the model given to message_queue_many)."""

    source_id: int
    recipient: str
    cause: str
    subject: str
    body: str = ""
    case_id: int | None = None


def message_queue_many(*, kind: str, model, rows: list[Queued]) -> list[int]:
    """message_queue for many sources of one model at once (the reminder sweep):
    the same rows, unique per (kind, source, recipient), written in three
    queries whatever their number, and handed to the broker together when the
    transaction commits. Returns the ids of the rows written now (a row already
    queued is neither written nor handed over again).

    Who: services creating many messages in their own transaction (raises
    RuntimeError outside one)."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError(
            "message_queue_many must run inside the change's transaction"
        )
    if not rows:
        return []
    content_type = ContentType.objects.get_for_model(model)
    of_these = OutgoingMessage.objects.filter(
        kind=kind,
        content_type=content_type,
        object_id__in={row.source_id for row in rows},
    )
    already = set(of_these.values_list("object_id", "recipient"))
    new = {
        (row.source_id, row.recipient): row
        for row in rows
        if (row.source_id, row.recipient) not in already
    }
    # ignore_conflicts: a row another transaction wrote meanwhile stays the one
    # row (the unique constraint); it is handed over again below, which sends
    # nothing twice (message_deliver sends only a pending row, under its lock).
    OutgoingMessage.objects.bulk_create(
        [
            OutgoingMessage(
                kind=kind,
                content_type=content_type,
                object_id=row.source_id,
                recipient=row.recipient,
                subject=row.subject[:250],
                body=row.body,
                cause=row.cause[:200],
                case_id=row.case_id,
            )
            for row in new.values()
        ],
        ignore_conflicts=True,
    )
    ids = [
        pk
        for pk, source_id, recipient in of_these.values_list(
            "pk", "object_id", "recipient"
        )
        if (source_id, recipient) in new
    ]
    if ids:
        transaction.on_commit(partial(message_enqueue_many, ids))
    return ids


def message_enqueue_many(message_ids: list[int]) -> int:
    """message_enqueue each row in turn; at the first broker error the rest wait
    for the outbox sweep (one warning, not one per row). Returns how many were
    handed over."""
    handed = 0
    for pk in message_ids:
        if not message_enqueue(pk):
            break
        handed += 1
    return handed


def message_enqueue(message_id: int) -> bool:
    """Hand the delivery task to the broker. Never raises: with the broker down
    the row waits for the sweep (a web request must not fail over an e-mail)."""
    from . import tasks  # the task module imports this one

    try:
        tasks.deliver_message.apply_async((message_id,))
    except Exception:  # the broker is down: the row is the outbox
        log.warning(
            "could not hand outgoing message %s to the broker; the sweep retries",
            message_id,
            exc_info=True,
        )
        return False
    return True


def message_requeue_stale(*, now: dt.datetime | None = None, limit: int = 500) -> int:
    """Hand again every pending row created or last handed over more than
    OUTBOX_REQUEUE_AFTER_SECONDS ago. Who: the periodic task sweep_outbox.
    Returns how many were handed over (it stops at the first broker error)."""
    now = now or timezone.now()
    cutoff = now - requeue_after()
    stale = Q(enqueued_at__isnull=True, created_at__lt=cutoff) | Q(
        enqueued_at__lt=cutoff
    )
    ids = list(
        OutgoingMessage.objects.filter(stale, status=OutgoingMessage.Status.PENDING)
        .order_by("created_at", "id")
        .values_list("pk", flat=True)[:limit]
    )
    handed = 0
    for pk in ids:
        OutgoingMessage.objects.filter(
            pk=pk, status=OutgoingMessage.Status.PENDING
        ).update(enqueued_at=now)
        if not message_enqueue(pk):
            break
        handed += 1
    return handed


# --- delivering --------------------------------------------------------------------
def _lock_pending(message_id: int) -> OutgoingMessage | None:
    """The pending row, locked for this transaction; None if it is sent, failed,
    skipped, missing, or being sent by another worker right now."""
    rows = OutgoingMessage.objects.filter(
        pk=message_id, status=OutgoingMessage.Status.PENDING
    )
    if connection.features.has_select_for_update_skip_locked:
        return rows.select_for_update(skip_locked=True).first()
    # No row locks (SQLite): this UPDATE takes the database's write lock, held
    # until commit, so a second delivery waits, then finds the row sent.
    if not rows.update(last_attempt_at=timezone.now()):
        return None
    return rows.first()


def compose(message: OutgoingMessage, *, today: dt.date) -> Draft:
    composer = COMPOSERS.get(message.kind)
    if composer is None:
        raise ImproperlyConfigured(f"No composer registered for {message.kind!r}")
    return composer(message, today=today)


def message_deliver(*, message_id: int, today: dt.date | None = None) -> bool:
    """Send one pending row; True if this call sent it.

    Who: the task deliver_message (and the deadline module's deliver_* helpers).
    A sent, failed or skipped row, or one another worker holds, sends nothing.
    Raises what the mail backend or the composer raised; the caller records it
    (message_record_failure), since this transaction is rolled back."""
    today = today or timezone.localdate()
    with transaction.atomic():
        message = _lock_pending(message_id)
        if message is None:
            return False
        try:
            draft = compose(message, today=today)
        except MessageNotNeeded as exc:
            fire_locked(
                message,
                "mark_skipped",
                str(exc),
                event=bool(message.case_id),
                summary=lambda *_: f"Not sent, no longer needed: {message.subject}",
                detail=str(exc),
            )
            return False
        EmailMessage(
            subject=draft.subject,
            body=draft.body,
            to=[message.recipient],
            attachments=draft.attachments,
        ).send()
        message.subject = draft.subject[:250]
        message.attempts += 1
        message.last_attempt_at = timezone.now()
        # The step's event: the kind's own words where it has them (a reminder's,
        # a document's, written by after_sent), else the kernel's, on its case.
        fire_locked(
            message,
            "mark_sent",
            event=bool(message.case_id) and draft.after_sent is None,
            summary=lambda *_: f"E-mailed to {message.recipient}: {message.subject}",
        )
        if draft.after_sent is not None:
            draft.after_sent(message)
    return True


def message_record_failure(*, message_id: int, error: BaseException) -> int | None:
    """Count a failed attempt: seconds until the next one, or None when the row
    is now failed (retries used up, or an error retrying cannot mend). Who: the
    task deliver_message."""
    text = f"{type(error).__name__}: {error}"[:2000]
    transient = isinstance(error, TRANSIENT)
    with transaction.atomic():
        message = (
            OutgoingMessage.objects.select_for_update()
            .filter(pk=message_id, status=OutgoingMessage.Status.PENDING)
            .first()
        )
        if message is None:
            return None
        now = timezone.now()
        message.attempts += 1
        message.last_attempt_at = now
        message.last_error = text
        if not transient or message.attempts >= max_attempts():
            fire_locked(
                message,
                "mark_failed",
                text,
                event=bool(message.case_id),
                summary=lambda *_: (
                    f"E-mail to {message.recipient} could not be sent: "
                    f"{message.subject}"
                ),
                detail=text,
            )
            log.error(
                "outgoing message %s to %s failed after %s attempt(s): %s",
                message.pk,
                message.recipient,
                message.attempts,
                text,
            )
            return None
        delay = backoff_seconds(message.attempts)
        # The sweep leaves it alone until some minutes after the retry is due.
        message.enqueued_at = now + dt.timedelta(seconds=delay)
        message.save()
    log.warning(
        "outgoing message %s: attempt %s failed (%s); again in %s s",
        message_id,
        message.attempts,
        text,
        delay,
    )
    return delay


def message_retry(*, message: OutgoingMessage, actor) -> OutgoingMessage:
    """Put a failed delivery back in the queue with a fresh set of attempts,
    through the kernel (its `retry` step: lock, role, one event).
    Who: SMO staff (the outbox page). Raises Refused (another role, or the row is
    not failed: it was retried or sent meanwhile)."""
    require_role(actor, Role.SMO, doing="retry an e-mail")
    try:
        message = run(
            message,
            "retry",
            actor=actor,
            fields={"enqueued_at": timezone.now()},
            summary=lambda *_: (
                f"E-mail to {message.recipient} put back in the queue: "
                f"{message.subject}"
            ),
            effects=[lambda sent: message_enqueue(sent.pk)],
        )
    except Refused:
        if not OutgoingMessage.objects.get(pk=message.pk).may_retry:
            raise Refused(
                "Only a failed delivery can be retried; this one is not."
            ) from None
        raise
    log.info("outgoing message %s retried by %s", message.pk, actor)
    return message


# --- composers ---------------------------------------------------------------------
def compose_stored(message: OutgoingMessage, *, today: dt.date) -> Draft:
    """Receipts and status changes: the text written when the row was queued."""
    return Draft(subject=message.subject, body=message.body)


def compose_document(message: OutgoingMessage, *, today: dt.date) -> Draft:
    """A document e-mailed to a party: the stored text, with the issued PDF
    attached; the chronology records that it went out."""
    document = IssuedDocument.objects.select_related("case").get(pk=message.object_id)
    if not document.is_issued:
        if document.error:
            raise RuntimeError(f"The document could not be rendered: {document.error}")
        raise MessageNotReady(f"{document} is still being rendered")
    with document.pdf.open("rb") as handle:
        pdf = handle.read()

    def after_sent(sent: OutgoingMessage) -> None:
        record_event(
            case=document.case,
            actor=None,
            kind="document",
            summary=f"E-mailed to {sent.recipient}: {document}",
            subject=document,
        )

    return Draft(
        subject=message.subject,
        body=message.body,
        attachments=[(document.download_name, pdf, "application/pdf")],
        after_sent=after_sent,
    )


def document_email(*, document, recipient: str, actor) -> OutgoingMessage:
    """Queue an issued (or still rendering) document to be e-mailed, PDF
    attached, to a party at `recipient`; it goes once the PDF exists.

    Who: whoever may issue that kind (documents.services.may_issue). Raises
    Refused. Idempotent per document and address."""
    if not may_issue(actor, document.kind):
        raise Refused("Your role may not send this document.")
    context = {"document": document, "village": settings.VILLAGE}
    with transaction.atomic():
        return message_queue(
            kind=Kind.DOCUMENT,
            source=document,
            recipient=recipient,
            cause=f"{document} e-mailed to a party",
            subject=_subject(f"{document.title} {document.document_number}".strip()),
            body=render_to_string("outbox/email/document.txt", context),
            case=document.case,
            actor=actor,
        )


for _kind in (Kind.RECEIPT, Kind.STATUS_CHANGE, Kind.APPEAL_RECEIPT):
    register_composer(_kind, compose_stored)
register_composer(Kind.DOCUMENT, compose_document)
