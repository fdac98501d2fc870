"""An appeal filed online by the notice's recipient (issue 18, § 132-14): received
at the moment it is sent, its filing date the village's date of that moment
(R-APL-1: a late one is accepted and flagged), the hearing-by date counted from
it (R-APL-2), a receipt on screen and by e-mail through the outbox, and the
clerk's list saying it came in online."""

import contextlib
import datetime as dt
import io
from unittest import mock
from zoneinfo import ZoneInfo

import pytest
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from PIL import Image

from deadlines.models import Deadline
from enforcement.models import Appeal, AppealDocument
from enforcement.services.appeals import appeal_due_date, hearing_by
from kernel.humanize import human_date, human_datetime
from kernel.models import CaseEvent
from outbox.models import OutgoingMessage
from portal.services import portal_issue
from tests.visible import visible_text

from .conftest import enter

pytestmark = pytest.mark.django_db

VILLAGE = ZoneInfo("America/New_York")
ADDRESS = "198.51.100.44"


@pytest.fixture(autouse=True)
def _fresh_throttle():
    cache.clear()


@contextlib.contextmanager
def at_moment(moment: dt.datetime):
    """The clock stopped at `moment` (an aware datetime): `timezone.now()` and,
    through it, the village's "today"."""
    with mock.patch("django.utils.timezone.now", lambda: moment):
        yield


def village_time(day: dt.date, hour: int, minute: int) -> dt.datetime:
    return dt.datetime(day.year, day.month, day.day, hour, minute, tzinfo=VILLAGE)


def signed_in(code) -> Client:
    client = Client()
    enter(client, code, REMOTE_ADDR=ADDRESS)
    return client


def a_jpeg() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (8, 8), (0, 90, 200)).save(out, format="JPEG")
    return out.getvalue()


def file_online(client, notice, **fields):
    data = {
        "grounds": "The water was from a burst garden hose, not a connection.",
        "email": "owner@example.org",
        "phone": "631-555-0199",
        "confirm": "1",
    }
    data.update(fields)
    return client.post(
        reverse("portal_appeal:new", args=[notice.pk]),
        data,
        REMOTE_ADDR=ADDRESS,
        follow=True,
    )


def test_an_appeal_sent_late_on_the_last_evening_is_on_time_and_counted_from_that_day(
    owner_code, issued_notice, owner
):
    last_day = appeal_due_date(issued_notice)
    moment = village_time(last_day, 23, 30)  # 04:30 UTC the next day
    assert moment.astimezone(dt.UTC).date() == last_day + dt.timedelta(days=1)
    with at_moment(moment):
        client = signed_in(owner_code)
        home = visible_text(client.get(reverse("portal:home")))
        assert "Appeal to the Board of Trustees" in home
        page = file_online(client, issued_notice)
    assert page.status_code == 200
    appeal = Appeal.objects.get(notice=issued_notice)
    assert appeal.filed_online and appeal.appellant == owner
    assert appeal.filed_on == last_day
    assert not appeal.is_late
    assert appeal.received_at == moment
    assert appeal.received_from == ADDRESS
    assert appeal.receipt_number == f"APL-{appeal.pk}-{moment:%Y%m%d}"
    # R-APL-1 met on that day; R-APL-2 runs 30 days from it.
    window = Deadline.objects.get(rule_id="R-APL-1", case=issued_notice.case)
    assert window.status == Deadline.Status.MET
    assert hearing_by(appeal) == last_day + dt.timedelta(days=30)

    text = visible_text(page)
    assert "Your appeal is received" in text
    assert appeal.receipt_number in text
    assert "after the last day" not in text
    assert f"To be heard by {human_date(hearing_by(appeal))}" in text

    message = OutgoingMessage.objects.get(kind=OutgoingMessage.Kind.APPEAL_RECEIPT)
    assert message.recipient == "owner@example.org"
    assert appeal.receipt_number in message.subject
    assert appeal.receipt_number in message.body
    assert "burst garden hose" in message.body
    event = CaseEvent.objects.filter(case=issued_notice.case, kind="portal").last()
    assert appeal.receipt_number in event.summary and ADDRESS in event.summary


def test_an_appeal_sent_after_midnight_is_filed_the_next_day_late_and_still_accepted(
    owner_code, issued_notice
):
    last_day = appeal_due_date(issued_notice)
    with at_moment(village_time(last_day + dt.timedelta(days=1), 0, 5)):
        client = signed_in(owner_code)
        form = visible_text(
            client.get(reverse("portal_appeal:new", args=[issued_notice.pk]))
        )
        assert "You may still file" in form
        page = file_online(client, issued_notice, email="")
    appeal = Appeal.objects.get(notice=issued_notice)
    assert appeal.filed_on == last_day + dt.timedelta(days=1)
    assert appeal.is_late
    assert "after the last day" in visible_text(page)
    assert not OutgoingMessage.objects.filter(
        kind=OutgoingMessage.Kind.APPEAL_RECEIPT
    ).exists()


def test_the_clerk_sees_the_appeal_came_in_online_with_its_hearing_by_date(
    owner_code, issued_notice, client_as
):
    last_day = appeal_due_date(issued_notice)
    with at_moment(village_time(last_day - dt.timedelta(days=2), 14, 10)):
        file_online(
            signed_in(owner_code),
            issued_notice,
            documents=SimpleUploadedFile(
                "hose.jpg", a_jpeg(), content_type="image/jpeg"
            ),
        )
    appeal = Appeal.objects.get(notice=issued_notice)
    clerk = client_as("clerk")
    listing = visible_text(clerk.get(reverse("enforcement:appeal_list")))
    assert "filed online" in listing
    due = hearing_by(appeal)
    assert f"hear by {human_date(due)}" in listing
    assert f"received {human_datetime(appeal.received_at)}" in listing
    detail = visible_text(
        clerk.get(reverse("enforcement:appeal_detail", args=[appeal.pk]))
    )
    assert "on the respondent's page" in detail
    assert appeal.receipt_number in detail and ADDRESS in detail
    assert "hose.jpg" in detail
    document = AppealDocument.objects.get(appeal=appeal)
    assert document.uploaded_by is None and len(document.sha256) == 64
    case_page = visible_text(
        client_as("smo").get(reverse("cases:detail", args=[appeal.case.number]))
    )
    assert (
        f"Appeal {appeal.pk} of NOV-{issued_notice.pk} filed online, received "
        f"{human_datetime(appeal.received_at)} (receipt {appeal.receipt_number})"
    ) in case_page


def test_a_second_appeal_is_refused_in_words_and_nothing_is_recorded(
    owner_code, issued_notice
):
    client = signed_in(owner_code)
    file_online(client, issued_notice)
    again = file_online(client, issued_notice, grounds="A second try.")
    assert "cannot be appealed now" in visible_text(again)
    assert Appeal.objects.filter(notice=issued_notice).count() == 1
    assert "A second try." not in Appeal.objects.get().grounds


def test_a_form_sent_without_grounds_or_confirmation_keeps_what_was_typed(
    owner_code, issued_notice
):
    client = signed_in(owner_code)
    page = file_online(
        client,
        issued_notice,
        grounds="   ",
        confirm="",
        phone="631-555-0123",
        documents=SimpleUploadedFile("a.pdf", b"%PDF-1.4 x"),
    )
    assert page.status_code == 400
    text = visible_text(page)
    assert "Say why you appeal" in text
    assert "Tick the box" in text
    assert 'value="631-555-0123"' in page.content.decode()
    assert not Appeal.objects.exists() and not AppealDocument.objects.exists()

    bad_mail = file_online(client, issued_notice, email="not-an-address")
    assert bad_mail.status_code == 400
    assert "not an e-mail address" in visible_text(bad_mail)
    assert "burst garden hose" in bad_mail.content.decode()
    assert not Appeal.objects.exists()


def test_another_party_cannot_appeal_a_notice_not_addressed_to_them(
    owner_code, issued_notice, confirmed_case, agent, smo_user
):
    access = portal_issue(
        case=confirmed_case, party=agent, actor=smo_user, reason="asked by phone"
    )
    client = signed_in(access.printed)
    page = client.post(
        reverse("portal_appeal:new", args=[issued_notice.pk]),
        {"grounds": "x", "confirm": "1"},
        REMOTE_ADDR=ADDRESS,
    )
    assert page.status_code == 404
    assert not Appeal.objects.exists()


def test_without_a_code_the_appeal_form_sends_the_visitor_to_enter_one(
    issued_notice,
):
    page = Client().get(reverse("portal_appeal:new", args=[issued_notice.pk]))
    assert page.status_code == 302
    assert page["Location"].startswith(reverse("portal:enter"))
