"""Issue 26: the respondent's page in words a resident reads: no rule id, no
ISO date, no "GCL" shorthand; "How it was computed" says what was counted,
from which day and why the last day moved; a proof or contact change waiting
for the officer says so in full; each paper is listed once, and a notice of
hearing issued again marks the earlier one "replaced by" the newer."""

import datetime as dt
import re

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from documents.services import document_render, issue_for
from enforcement.document_kinds import EnforcementDocument
from enforcement.services import appeals as appeal_services
from enforcement.services import notices as notice_services
from tests.enforcement.conftest import aware, schedule_hearing, village_day
from tests.visible import visible_text

from .conftest import enter

pytestmark = pytest.mark.django_db

RULE_ID = re.compile(r"R-[A-Z]{3}-\d")
ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


@pytest.fixture(autouse=True)
def _fresh_throttle():
    cache.clear()


@pytest.fixture
def issued_notice(draft_notice, smo_user):
    # Friday 2026-03-06: the 15 days to appeal (R-APL-1) end on a Saturday.
    return notice_services.notice_issue(
        notice=draft_notice, actor=smo_user, issued_on=dt.date(2026, 3, 6)
    )


def page(code):
    client = Client()
    enter(client, code)
    response = client.get(reverse("portal:home"))
    return response.content.decode(), visible_text(response)


def test_the_page_has_no_rule_id_iso_date_or_shorthand(owner_code):
    html, text = page(owner_code)
    # The words a person reads (a <time datetime> attribute is for machines).
    assert not RULE_ID.search(text), RULE_ID.search(text)
    assert not ISO_DATE.search(text), ISO_DATE.search(text)
    assert "GCL" not in html
    assert (
        "Counted 15 days from the notice date, Friday, March 6, 2026; the last "
        "day fell on a weekend, so it moves to Monday, March 23, 2026."
    ) in text


def test_a_notice_of_hearing_issued_again_is_listed_once_as_replaced(
    owner_code, issued_notice, clerk_user, owner
):
    with village_day(dt.date(2026, 3, 10)):
        appeal = appeal_services.appeal_file(
            notice=issued_notice,
            actor=clerk_user,
            appellant=owner,
            filed_on=dt.date(2026, 3, 10),
            grounds="Not mine.",
        )
    appeal, _ = schedule_hearing(
        appeal, clerk_user, aware(2026, 3, 24), location="Village Hall"
    )
    with village_day(dt.date(2026, 3, 11)):
        first = issue_for(
            kind=EnforcementDocument.HEARING_NOTICE, source=appeal, actor=clerk_user
        )
        document_render(document_id=first.pk)
    with village_day(dt.date(2026, 3, 12)):
        again = issue_for(
            kind=EnforcementDocument.HEARING_NOTICE, source=appeal, actor=clerk_user
        )
        document_render(document_id=again.pk)
    html, text = page(owner_code)
    assert html.count(reverse("portal:document", args=[first.pk])) == 1
    papers = text[text.index("Your papers") :]
    assert f"replaced by {again.title} {again.document_number}" in papers
    assert not RULE_ID.search(text) and not ISO_DATE.search(text)


def test_the_reminder_e_mail_to_the_party_has_no_rule_id_or_iso_date(
    owner_code, issued_notice, confirmed_case, owner
):
    from django.core import mail

    from deadlines.models import Reminder
    from deadlines.reminders import deliver_reminder

    first = (
        issued_notice.deadlines().filter(responsible="discharger").order_by("due_date")
    )[0]
    reminder = Reminder.objects.create(
        deadline=first, kind="due-today", recipient="pat@example.org"
    )
    with village_day(first.due_date):
        assert deliver_reminder(reminder.pk) is True
    (message,) = mail.outbox
    for text in (message.subject, message.body):
        assert not RULE_ID.search(text), RULE_ID.search(text)
        assert not ISO_DATE.search(text), ISO_DATE.search(text)
        assert "GCL" not in text
    assert " ".join(first.people_explanation.split()) in " ".join(message.body.split())
