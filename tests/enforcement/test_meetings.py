"""Board meetings hold the appeal hearings (R-APL-2): scheduling at a meeting
fills the hearing's date, time and place; the clerk alone records them."""

import datetime as dt

import pytest
from django.urls import reverse

from enforcement.models import BoardMeeting
from enforcement.services import meetings as meeting_services
from kernel.workflow import Refused

from .conftest import aware, schedule_hearing, village_day


def _meeting(clerk_user, day=dt.date(2026, 3, 24), place="Village Hall"):
    with village_day(dt.date(2026, 3, 10)):
        return meeting_services.meeting_create(
            actor=clerk_user, date=day, time=dt.time(19, 30), place=place
        )


def test_a_hearing_at_a_meeting_takes_its_date_time_and_place(appeal, clerk_user):
    meeting = _meeting(clerk_user)
    with village_day(dt.date(2026, 3, 10)):
        from enforcement.services import appeals as svc

        scheduled, warning = svc.appeal_schedule_hearing(
            appeal=appeal, actor=clerk_user, meeting=meeting
        )
    assert warning == ""
    assert scheduled.meeting == meeting
    assert scheduled.hearing_at == aware(2026, 3, 24, 19, 30)
    assert scheduled.hearing_location == "Village Hall"
    assert list(meeting.hearings()) == [scheduled]


def test_a_date_time_and_place_record_the_meeting_once(appeal, clerk_user):
    scheduled, _ = schedule_hearing(
        appeal, clerk_user, aware(2026, 3, 24), location="Village Hall"
    )
    assert scheduled.meeting is not None
    assert BoardMeeting.objects.count() == 1
    again, _ = schedule_hearing(
        scheduled, clerk_user, aware(2026, 3, 24), location="village hall"
    )
    assert again.meeting_id == scheduled.meeting_id
    assert BoardMeeting.objects.count() == 1


def test_a_meeting_after_the_hearing_by_date_warns(appeal, clerk_user):
    meeting = _meeting(clerk_user, day=dt.date(2026, 4, 20))
    from enforcement.services import appeals as svc

    with village_day(dt.date(2026, 3, 10)):
        scheduled, warning = svc.appeal_schedule_hearing(
            appeal=appeal, actor=clerk_user, meeting=meeting
        )
    assert "after the hearing-by date" in warning
    assert scheduled.hearing_past_limit


def test_a_refused_hearing_records_no_meeting(appeal, smo_user):
    with pytest.raises(Refused):
        schedule_hearing(appeal, smo_user, aware(2026, 3, 24), location="Hall")
    assert BoardMeeting.objects.count() == 0


def test_only_the_clerk_records_a_meeting(smo_user):
    with pytest.raises(Refused):
        meeting_services.meeting_create(
            actor=smo_user, date=dt.date(2099, 1, 5), time=dt.time(19), place="Hall"
        )


def test_a_meeting_cannot_be_on_a_past_day(clerk_user):
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError):
        meeting_services.meeting_create(
            actor=clerk_user, date=dt.date(2000, 1, 5), time=dt.time(19), place="Hall"
        )


def test_the_meeting_pages_list_upcoming_meetings_and_their_hearings(
    appeal, clerk_user, client_as
):
    client = client_as("clerk")
    response = client.post(
        reverse("enforcement:meeting_list"),
        {
            "meeting-date": "2099-01-05",
            "meeting-time": "19:00",
            "meeting-place": "Hall",
        },
    )
    meeting = BoardMeeting.objects.get()
    assert response.status_code == 302
    assert response["Location"] == meeting.get_absolute_url()
    response = client.post(
        reverse("enforcement:appeal_step", args=[appeal.pk, "schedule_hearing"]),
        {"schedule_hearing-meeting": meeting.pk},
    )
    assert response.status_code == 302
    appeal.refresh_from_db()
    assert appeal.meeting == meeting
    listing = client.get(reverse("enforcement:meeting_list")).content.decode()
    assert f"Appeal {appeal.pk}" in listing
    assert "Mon, Jan 5, 2099" in listing
    page = client.get(meeting.get_absolute_url()).content.decode()
    assert f'data-testid="hearing-{appeal.pk}"' in page
    assert "hear by Thu, Apr 9, 2026" in page  # the stored R-APL-2 deadline
    assert "Save the notes" in page


def test_the_smo_reads_the_meetings_but_records_none(db, client_as):
    client = client_as("smo")
    page = client.get(reverse("enforcement:meeting_list"))
    assert page.status_code == 200
    assert "Record the meeting" not in page.content.decode()
    response = client.post(
        reverse("enforcement:meeting_list"),
        {"meeting-date": "2099-01-05", "meeting-time": "19:00", "meeting-place": "H"},
    )
    assert response.status_code == 403
    assert BoardMeeting.objects.count() == 0


def test_the_trustees_feed_lists_the_meetings_through_the_one_writer(
    scheduled_appeal, client, settings
):
    settings.SITE_URL_SET = True
    settings.SITE_URL = "https://ms4.example.org"
    meeting = scheduled_appeal.meeting
    with village_day(dt.date(2026, 3, 10)):
        response = client.get(reverse("enforcement:board_meetings_ics"))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/calendar")
    body = response.content.decode()
    assert "BEGIN:VCALENDAR" in body and "\r\n" in body
    assert f"UID:board-meeting-{meeting.pk}@poquott-ms4" in body
    assert "DTSTART:20260324T230000Z" in body  # 7 PM in New York, in UTC
    assert f"URL:https://ms4.example.org{meeting.get_absolute_url()}" in body
    assert "1 appeal of a notice" in body
    assert "Pat Owner" not in body  # no appellant's name in the public feed
