# ruff: noqa: F811  (the enforcement fixtures are imported, then requested)
"""Every iCal feed, through the real providers, parsed back with icalendar: one
writer (folded, escaped), and every URL absolute on the site's address:
SITE_URL when it is set, else the host the feed was asked on (kernel.site_url);
UIDs the same on every host."""

import datetime as dt
from urllib.parse import urlsplit

import icalendar
import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from cases.models import Premises
from deadlines import ical
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
    village_day,
)

from .conftest import deadline_on

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _site_url_set(settings):
    """SITE_URL set, as in production (the request's host is tested below)."""
    settings.SITE_URL_SET = True


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
    mine = events[f"deadline-{deadline.pk}@poquott-ms4"]
    assert mine.decoded("DTSTART") == dt.date(2026, 12, 28)
    _assert_absolute(mine, reverse("deadlines:detail", args=[deadline.pk]))

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


# --- issue 17: every event has an end; the hearings feed by token; the host ------
def test_hearing_and_inspection_events_have_an_end(
    client, smo_user, inspection, scheduled_appeal
):
    body = client.get(
        reverse("deadlines:ical", kwargs={"token": ical.token_for(smo_user).token})
    )
    events = _events(body.content.decode())
    hearing = events[f"appeal-{scheduled_appeal.pk}@poquott-ms4"]
    # Heard at the Board's meeting: the meeting's length.
    meeting_start = scheduled_appeal.meeting.starts_at()
    assert hearing.decoded("DTSTART") == meeting_start == scheduled_appeal.hearing_at
    assert hearing.decoded("DTEND") == meeting_start + ical.BOARD_MEETING_LENGTH
    visit = events[f"inspection-{inspection.pk}@poquott-ms4"]
    assert visit.decoded("DTEND") - visit.decoded("DTSTART") == ical.INSPECTION_LENGTH
    for event in events.values():
        assert event.decoded("DTEND") > event.decoded("DTSTART")


def test_a_hearing_not_at_a_meeting_lasts_the_default_hour():
    from enforcement.ical_feed import hearing_end

    start = dt.datetime(2026, 5, 4, 10, 0, tzinfo=timezone.get_current_timezone())
    assert (
        hearing_end(start)
        == start + ical.HEARING_LENGTH
        == start + dt.timedelta(hours=1)
    )


def test_the_writer_never_writes_a_zero_length_timed_event():
    start = dt.datetime(2026, 5, 4, 10, 0, tzinfo=timezone.get_current_timezone())
    body = ical.render_calendar(
        [ical.FeedEvent(uid="x@poquott-ms4", start=start, summary="s")], name="t"
    )
    [event] = _events(body).values()
    assert event.decoded("DTEND") == start + ical.DEFAULT_EVENT_LENGTH


def test_the_hearings_feed_needs_no_session_only_the_users_token(
    client, clerk_user, scheduled_appeal
):
    token = ical.token_for(clerk_user).token
    url = reverse("enforcement:hearings_ical", kwargs={"token": token})
    response = client.get(url)  # a calendar program: no session
    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    events = _events(response.content.decode())
    hearing = events[f"appeal-{scheduled_appeal.pk}@poquott-ms4"]
    assert "DTEND" in hearing
    _assert_absolute(
        hearing, reverse("enforcement:appeal_detail", args=[scheduled_appeal.pk])
    )
    # The one token: a new one retires this address too.
    ical.regenerate_token(clerk_user)
    assert client.get(url).status_code == 404
    bad = reverse("enforcement:hearings_ical", kwargs={"token": "nope"})
    assert client.get(bad).status_code == 404


def test_the_hearings_feed_is_only_for_those_who_read_hearings(
    client, inspector_user, scheduled_appeal
):
    token = ical.token_for(inspector_user).token
    url = reverse("enforcement:hearings_ical", kwargs={"token": token})
    assert client.get(url).status_code == 404


def test_my_calendar_feed_page_gives_the_hearings_address(
    client, clerk_user, inspector_user
):
    client.force_login(clerk_user)
    html = client.get(reverse("deadlines:feed_settings")).content.decode()
    token = ical.token_for(clerk_user).token
    path = reverse("enforcement:hearings_ical", kwargs={"token": token})
    assert f'value="{settings.SITE_URL}{path}"' in html
    # Opened as a calendar program would, the address works.
    client.logout()
    assert client.get(path).status_code == 200
    client.force_login(inspector_user)
    html = client.get(reverse("deadlines:feed_settings")).content.decode()
    assert "/enforcement/appeals/hearings/" not in html


def test_without_site_url_links_are_on_the_asked_host_and_uids_on_none(
    client, settings, smo_user, make_case, inspection, scheduled_appeal
):
    settings.SITE_URL_SET = False
    settings.ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
    case = make_case(officer=smo_user)
    deadline_on(dt.date(2026, 12, 28), case=case)
    url = reverse("deadlines:ical", kwargs={"token": ical.token_for(smo_user).token})
    on_8123 = _events(client.get(url, HTTP_HOST="127.0.0.1:8123").content.decode())
    on_9000 = _events(client.get(url, HTTP_HOST="localhost:9000").content.decode())
    assert set(on_8123) == set(on_9000)  # the same UIDs on every host
    assert all(uid.endswith("@poquott-ms4") for uid in on_8123)
    for uid, event in on_8123.items():
        assert str(event["URL"]).startswith("http://127.0.0.1:8123/"), uid
        assert str(on_9000[uid]["URL"]).startswith("http://localhost:9000/"), uid
    # The feed settings page gives the address on the host it was asked on.
    client.force_login(smo_user)
    page = client.get(reverse("deadlines:feed_settings"), HTTP_HOST="127.0.0.1:8123")
    assert f'value="http://127.0.0.1:8123{url}"' in page.content.decode()
    # The hearings and the trustees' feeds too.
    token = ical.token_for(smo_user).token
    for feed in (
        reverse("enforcement:hearings_ical", kwargs={"token": token}),
        reverse("enforcement:board_meetings_ics"),
    ):
        with village_day(dt.date(2026, 3, 10)):  # the meeting is still to come
            body = client.get(feed, HTTP_HOST="127.0.0.1:8123").content.decode()
        events = _events(body)
        assert events and all(
            str(e["URL"]).startswith("http://127.0.0.1:8123/") for e in events.values()
        )
