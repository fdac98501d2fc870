"""Who did it, on every page and document that prints a chronology (issue 26).

An entry's actor is a staff user, the respondent on their own page, a member of
the public or the system. Before, an entry without a staff user (an appeal filed
online, a proof of correction sent) broke the Board's hearing packet and the
premises page with a 500. Here the respondent really files an appeal and sends
proof through their page, and each page and document is read for the four names."""

import datetime as dt
import io

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from pypdf import PdfReader

from enforcement.models import Appeal
from enforcement.services import appeals as appeal_services
from kernel.models import CaseEvent
from kernel.timeline import record_event
from tests.jobs.worker import made_by_worker
from tests.visible import visible_text

from .conftest import enter

pytestmark = pytest.mark.django_db

ADDRESS = "198.51.100.45"
WHO = ("Sam Officer", "the respondent (online)", "a member of the public", "the system")


@pytest.fixture(autouse=True)
def _fresh_throttle():
    cache.clear()


@pytest.fixture
def case_with_every_actor(owner_code, issued_notice, smo_user, clerk_user):
    """An appeal filed and proof sent on the respondent's page; a staff note, a
    public entry and a system entry beside them; the hearing scheduled."""
    smo_user.first_name, smo_user.last_name = "Sam", "Officer"
    smo_user.save()
    respondent = Client()
    enter(respondent, owner_code, REMOTE_ADDR=ADDRESS)
    filed = respondent.post(
        reverse("portal_appeal:new", args=[issued_notice.pk]),
        {"grounds": "Garden hose, not a connection.", "confirm": "1"},
        REMOTE_ADDR=ADDRESS,
        follow=True,
    )
    assert filed.status_code == 200
    sent = respondent.post(
        reverse("portal:correction", args=[issued_notice.pk]),
        {"statement": "The hose was removed on Monday."},
        REMOTE_ADDR=ADDRESS,
        follow=True,
    )
    assert sent.status_code == 200
    case = issued_notice.case
    from django.db import transaction

    with transaction.atomic():
        record_event(case=case, actor=smo_user, kind="note", summary="Staff note")
        record_event(
            case=case,
            actor=None,
            by=CaseEvent.ActorKind.PUBLIC,
            kind="report",
            summary="Resident's report",
        )
        record_event(case=case, actor=None, kind="reminder", summary="Reminder")
    appeal = Appeal.objects.get(notice=issued_notice)
    appeal_services.appeal_schedule_hearing(
        appeal=appeal,
        actor=clerk_user,
        hearing_at=timezone.now() + dt.timedelta(days=10),
        location="Village Hall",
    )
    appeal.refresh_from_db()
    return appeal


def test_the_online_steps_are_named_as_the_respondents(case_with_every_actor):
    case = case_with_every_actor.notice.case
    kinds = set(case.events.values_list("actor_kind", flat=True))
    assert kinds == {"staff", "respondent", "public", "system"}
    online = case.events.filter(kind="appeal", summary__contains="respondent's page")
    assert [e.by_words for e in online] == ["the respondent (online)"]


def test_the_boards_packet_prints_each_kind_of_actor(
    case_with_every_actor, clerk_client
):
    response = made_by_worker(
        clerk_client,
        reverse("enforcement:appeal_packet", args=[case_with_every_actor.pk]),
    )
    reader = PdfReader(io.BytesIO(response.content))
    text = " ".join(page.extract_text() for page in reader.pages)
    text = " ".join(text.split())
    for name in WHO:
        assert name in text


@pytest.mark.parametrize("page", ["case", "premises", "dashboard"])
def test_each_page_that_prints_the_chronology_names_each_kind_of_actor(
    case_with_every_actor, smo_client, page
):
    case = case_with_every_actor.notice.case
    url = {
        "case": reverse("cases:detail", args=[case.number]),
        "premises": reverse("inspections:premises_detail", args=[case.premises_id]),
        "dashboard": reverse("cases:dashboard"),
    }[page]
    response = smo_client.get(url)
    assert response.status_code == 200
    text = visible_text(response)
    names = WHO if page != "dashboard" else WHO[:1]  # the dashboard's latest few
    for name in names:
        assert name in text
    assert "None None" not in text  # a missing staff user's empty name
