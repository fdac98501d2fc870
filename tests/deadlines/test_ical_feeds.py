# ruff: noqa: F811  (the enforcement fixtures are imported, then requested)
"""Every iCal feed, through the real providers, parsed back with icalendar: one
writer (folded, escaped), and every URL absolute on settings.SITE_URL."""

import datetime as dt
from urllib.parse import urlsplit

import icalendar
import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from cases.deadlines import ical
from cases.models import Premises
from inspections import services as inspection_services
from inspections.models import Inspection

# The enforcement fixtures, to reach a scheduled hearing through the services.
from tests.enforcement.conftest import (  # noqa: F401
    agent,
    appeal,
    confirmed_case,
    draft_notice,
    issued_notice,
    owner,
    scheduled_appeal,
)

from .conftest import deadline_on

pytestmark = pytest.mark.django_db


def _events(body: str) -> dict[str, icalendar.Event]:
    for raw in body.encode().split(b"\r\n"):
        assert len(raw) <= 75  # folded, by the one writer
    calendar = icalendar.Calendar.from_ical(body)
    assert str(calendar["VERSION"]) == "2.0"
    return {str(e["UID"]): e for e in calendar.walk("VEVENT")}


def _assert_absolute(event: icalendar.Event, path: str) -> None:
    url = str(event["URL"])
    parts = urlsplit(url)
    assert parts.scheme in {"http", "https"} and parts.netloc, url
    assert url == settings.SITE_URL + path


@pytest.fixture
def inspection(smo_user):
    premises = Premises.objects.create(
        address="1 Shore Road", land_use=Premises.LandUse.RESIDENTIAL
    )
    return inspection_services.inspection_schedule(
        actor=smo_user,
        kind=Inspection.Kind.COMPLAINT,
        premises=premises,
        officer=smo_user,
        scheduled_for=timezone.now() + dt.timedelta(days=1),
    )


def test_the_deadlines_feed_has_every_provider_with_absolute_urls(
    client, smo_user, make_case, inspection, scheduled_appeal
):
    case = make_case(officer=smo_user)
    deadline = deadline_on(dt.date(2026, 12, 28), case=case)
    token = ical.token_for(smo_user).token
    body = client.get(reverse("deadlines:ical", kwargs={"token": token})).content
    events = _events(body.decode())
    host = urlsplit(settings.SITE_URL).hostname

    mine = events[f"deadline-{deadline.pk}@{host}"]
    assert mine.decoded("DTSTART") == dt.date(2026, 12, 28)
    _assert_absolute(mine, case.get_absolute_url())

    visit = events[f"inspection-{inspection.pk}@poquott-ms4"]
    assert visit.decoded("DTSTART") == inspection.scheduled_for.replace(microsecond=0)
    _assert_absolute(
        visit, reverse("inspections:inspection_detail", args=[inspection.pk])
    )

    hearing = events[f"appeal-{scheduled_appeal.pk}@poquott-ms4"]
    assert hearing.decoded("DTSTART") == scheduled_appeal.hearing_at
    _assert_absolute(
        hearing, reverse("enforcement:appeal_detail", args=[scheduled_appeal.pk])
    )
    for event in events.values():
        assert str(event["URL"]).startswith(settings.SITE_URL + "/")


def test_the_hearings_feed_is_written_by_the_same_writer(
    client, clerk_user, scheduled_appeal
):
    scheduled_appeal.hearing_location = "Village Hall, Room 2; " + "§" * 40
    scheduled_appeal.save(update_fields=["hearing_location"])
    client.force_login(clerk_user)
    response = client.get(reverse("enforcement:hearings_ics"))
    assert response.status_code == 200
    events = _events(response.content.decode())
    hearing = events[f"appeal-{scheduled_appeal.pk}@poquott-ms4"]
    assert "Village Hall, Room 2; " + "§" * 40 in str(hearing["DESCRIPTION"])
    assert hearing.decoded("DTSTART") == scheduled_appeal.hearing_at
    assert "DTSTAMP" in hearing
    _assert_absolute(
        hearing, reverse("enforcement:appeal_detail", args=[scheduled_appeal.pk])
    )


def test_a_path_from_a_provider_becomes_an_absolute_url():
    assert ical.absolute_url("/x/1/") == settings.SITE_URL + "/x/1/"
    assert ical.absolute_url("https://elsewhere.example/y") == (
        "https://elsewhere.example/y"
    )
