"""The respondent's contact details and reminders (issue 18): new details are a
request the SMO confirms (notices go to the address of record); e-mail reminders
of the party's own dates are sent by the deadline sweep, once per deadline and
step, through the outbox."""

import datetime as dt

import pytest
from django.core.cache import cache
from django.urls import reverse

from cases.models import Party
from deadlines.models import Reminder
from deadlines.reminders import sweep_reminders
from kernel.models import CaseEvent
from portal.models import ContactChangeRequest
from portal.services import live_access
from tests.visible import visible_text

from .conftest import enter

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_throttle():
    cache.clear()


@pytest.fixture
def signed_in(owner_code):
    """The respondent's own browser (not the staff client of `client_as`)."""
    from django.test import Client

    client = Client()
    enter(client, owner_code, REMOTE_ADDR="198.51.100.20")
    return client


def test_new_details_wait_for_the_smo_and_then_become_the_address_of_record(
    signed_in, owner, confirmed_case, client_as
):
    page = signed_in.post(
        reverse("portal:contact"),
        {
            "mailing_address": "7 Harbor Lane\nPoquott, NY 11733",
            "phone": "631-555-0101",
        },
        REMOTE_ADDR="198.51.100.20",
        follow=True,
    )
    assert "your new details are sent" in visible_text(page)
    assert "Waiting for the Stormwater Management Officer's review" in visible_text(
        page
    )
    assert Party.objects.get(pk=owner.pk).mailing_address.startswith("12 Shore Road")
    event = CaseEvent.objects.filter(case=confirmed_case, kind="portal").last()
    assert "asked to change their contact details" in event.summary
    assert "198.51.100.20" in event.summary

    smo = client_as("smo")
    case_page = visible_text(
        smo.get(reverse("cases:detail", args=[confirmed_case.number]))
    )
    assert (
        "Asks to change contact details" in case_page and "7 Harbor Lane" in case_page
    )
    change = ContactChangeRequest.objects.get()
    done = smo.post(
        reverse(
            "portal_staff:contact_decide",
            args=[confirmed_case.number, change.pk, "confirm"],
        ),
        follow=True,
    )
    assert "are changed as they asked" in visible_text(done)
    owner.refresh_from_db()
    assert owner.mailing_address == "7 Harbor Lane\nPoquott, NY 11733"
    assert owner.phone == "631-555-0101"
    assert owner.history.first().history_change_reason.startswith("Edited from case")
    assert "Confirmed" in visible_text(signed_in.get(reverse("portal:home")))


def test_a_declined_change_shows_its_reason_and_changes_nothing(
    signed_in, owner, confirmed_case, client_as
):
    signed_in.post(reverse("portal:contact"), {"email": "pat@example.org"})
    change = ContactChangeRequest.objects.get()
    url = reverse(
        "portal_staff:contact_decide",
        args=[confirmed_case.number, change.pk, "decline"],
    )
    refused = client_as("smo").post(url, {"reason": ""}, follow=True)
    assert "Say why the change is declined" in visible_text(refused)
    client_as("smo").post(url, {"reason": "Please call us to confirm who you are"})
    assert Party.objects.get(pk=owner.pk).email == ""
    text = visible_text(signed_in.get(reverse("portal:home")))
    assert "Declined — Please call us to confirm who you are" in text


def test_a_bad_request_keeps_what_was_typed_and_saves_nothing(signed_in):
    page = signed_in.post(
        reverse("portal:contact"),
        {"mailing_address": "7 Harbor Lane", "email": "not-an-address"},
    )
    assert page.status_code == 400
    assert "That is not an e-mail address." in visible_text(page)
    assert "7 Harbor Lane" in page.content.decode()
    assert not ContactChangeRequest.objects.exists()
    empty = signed_in.post(reverse("portal:contact"), {})
    assert "Give at least one new detail" in visible_text(empty)


def test_the_page_without_a_session_asks_for_the_code(client):
    page = client.get(reverse("portal:contact"))
    assert page.status_code == 302 and page.url == reverse("portal:enter")


def test_reminders_asked_for_are_sent_once_per_deadline_and_step(
    signed_in, issued_notice, confirmed_case, owner
):
    signed_in.post(reverse("portal:reminders"), {"email": "pat@example.org"})
    access = live_access(confirmed_case, owner)
    assert access.reminder_email == "pat@example.org"
    own = (
        issued_notice.deadlines().filter(responsible="discharger").order_by("due_date")
    )
    first = own[0]
    # the due day of the first of the party's dates: the "due today" step
    sweep_reminders(today=first.due_date)
    sweep_reminders(today=first.due_date)  # again: nothing twice
    sent = Reminder.objects.filter(recipient="pat@example.org", deadline=first)
    assert sent.count() == 1 and sent.get().kind == "due-today"
    signed_in.post(reverse("portal:reminders"), {"off": "1"})
    before = Reminder.objects.filter(recipient="pat@example.org").count()
    sweep_reminders(today=own.last().due_date)  # the last date's due day: off now
    assert Reminder.objects.filter(recipient="pat@example.org").count() == before
    assert (
        "turned off e-mail reminders"
        in CaseEvent.objects.filter(kind="portal").last().summary
    )


def test_a_reminder_address_that_is_not_one_is_refused(
    signed_in, confirmed_case, owner
):
    page = signed_in.post(reverse("portal:reminders"), {"email": "pat@"}, follow=True)
    assert "That is not an e-mail address." in visible_text(page)
    assert live_access(confirmed_case, owner).reminder_email == ""


def test_reminders_go_only_to_the_party_of_the_notice(
    signed_in, issued_notice, confirmed_case, agent
):
    signed_in.post(reverse("portal:reminders"), {"email": "pat@example.org"})
    first = (
        issued_notice.deadlines()
        .filter(responsible="discharger")
        .order_by("due_date")[0]
    )
    sweep_reminders(today=first.due_date - dt.timedelta(days=0))
    recipients = set(Reminder.objects.values_list("recipient", flat=True))
    assert "pat@example.org" in recipients
    assert live_access(confirmed_case, agent) is None
