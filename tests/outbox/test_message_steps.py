"""An outgoing message's status changes through its state machine (issue 30):
the worker's sent and failed steps and the SMO's retry each write their event
on the message's case; a retry of a row that is not failed is refused in words
and changes nothing."""

import pytest
from django.core import mail

from cases.services import case_open
from kernel.models import CaseEvent
from kernel.workflow import Refused
from outbox.models import OutgoingMessage
from outbox.services import (
    message_deliver,
    message_record_failure,
    message_retry,
)

from .factories import OutgoingMessageFactory

pytestmark = pytest.mark.django_db


def _summaries(case) -> list[str]:
    return list(
        CaseEvent.objects.filter(case=case)
        .order_by("id")
        .values_list("summary", flat=True)
    )


@pytest.fixture
def case(db):
    return case_open(actor=None, source="web", summary="Oily discharge")


def test_a_failed_e_mail_and_its_retry_are_on_the_case(case, smo_user):
    message = OutgoingMessageFactory(
        case=case, recipient="ann@example.org", subject="Your report"
    )
    message_record_failure(message_id=message.pk, error=RuntimeError("no template"))
    message.refresh_from_db()
    assert message.is_failed
    assert _summaries(case)[-1] == (
        "E-mail to ann@example.org could not be sent: Your report"
    )
    failed = CaseEvent.objects.filter(case=case).latest("id")
    assert failed.detail == "RuntimeError: no template"
    assert (failed.from_status, failed.to_status) == ("pending", "failed")

    message_retry(message=message, actor=smo_user)

    message.refresh_from_db()
    assert message.is_pending and message.attempts == 0
    retried = CaseEvent.objects.filter(case=case).latest("id")
    assert (
        retried.summary
        == "E-mail to ann@example.org put back in the queue: Your report"
    )
    assert retried.actor == smo_user


def test_a_sent_e_mail_of_a_case_is_on_its_chronology(case):
    message = OutgoingMessageFactory(
        case=case, recipient="ann@example.org", subject="Your report"
    )
    assert message_deliver(message_id=message.pk)
    assert [m.to for m in mail.outbox] == [["ann@example.org"]]
    assert _summaries(case)[-1] == "E-mailed to ann@example.org: Your report"


def test_a_receipt_of_no_case_leaves_its_record_on_the_outbox_page_only():
    message = OutgoingMessageFactory()
    events = CaseEvent.objects.count()
    assert message_deliver(message_id=message.pk)
    message.refresh_from_db()
    assert message.is_sent and CaseEvent.objects.count() == events


def test_retrying_a_sent_e_mail_is_refused_in_words_and_changes_nothing(case, smo_user):
    message = OutgoingMessageFactory(case=case, sent=True)
    before = _summaries(case)
    with pytest.raises(Refused, match="Only a failed delivery can be retried"):
        message_retry(message=message, actor=smo_user)
    message.refresh_from_db()
    assert message.status == OutgoingMessage.Status.SENT and message.attempts == 1
    assert _summaries(case) == before


def test_only_the_smo_retries(case, clerk_user):
    message = OutgoingMessageFactory(case=case, failed=True)
    with pytest.raises(Refused):
        message_retry(message=message, actor=clerk_user)
    message.refresh_from_db()
    assert message.is_failed
