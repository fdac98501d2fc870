"""The deadline pages read dates as people do (issue 16): the due day "Thu, Mar
5, 2026", a reminder's time "2:04 PM" in the village's time, the rule id beside
the plain name; ISO only in <time datetime=…> (and in the engine's explanation,
worded as on the letters, one click away)."""

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from deadlines.models import OfficeClosure, Reminder
from tests.visible import assert_human_dates

from .conftest import deadline_on

pytestmark = pytest.mark.django_db

DAY = dt.date(2026, 3, 5)  # a Thursday
SENT = dt.datetime(
    2026, 3, 2, 14, 4, tzinfo=timezone.get_current_timezone()
)  # Monday, 2:04 PM


@pytest.fixture
def reminded(make_case, smo_user):
    case = make_case(officer=smo_user)
    d = deadline_on(DAY, case=case, event_date=dt.date(2026, 2, 24))
    Reminder.objects.create(
        deadline=d, kind="before-1", recipient="smo@poquott.example", sent_at=SENT
    )
    return d


NOT_ISO = ("2026-03-05", "2026-02-24", "2026-03-02", "14:04")


def test_deadline_list_and_detail_say_the_due_day_and_reminder_time_in_words(
    smo_client, reminded
):
    listing = smo_client.get(reverse("deadlines:list") + "?show=all")
    text = assert_human_dates(
        listing, "Thu, Mar 5, 2026", "sent Mon, Mar 2, 2026, 2:04 PM", not_iso=NOT_ISO
    )
    assert "R-SPL-4 duty R-SPL-4" in text  # the plain name, then its rule id
    detail = smo_client.get(reverse("deadlines:detail", args=[reminded.pk]))
    assert_human_dates(
        detail,
        "Due Thu, Mar 5, 2026",
        "Counts from the event, Tue, Feb 24, 2026",
        not_iso=NOT_ISO,
    )
    html = detail.content.decode()
    assert '<time datetime="2026-03-05">Thu, Mar 5, 2026</time>' in html
    assert '<time datetime="2026-03-02T14:04:00-05:00">' in html


def test_reminders_and_closures_pages_say_their_days_in_words(smo_client, reminded):
    assert_human_dates(
        smo_client.get(reverse("deadlines:reminders")),
        "due Thu, Mar 5, 2026",
        "Mon, Mar 2, 2026, 2:04 PM",
        not_iso=NOT_ISO,
    )
    OfficeClosure.objects.create(day=dt.date(2026, 3, 5), reason="Snow day")
    assert_human_dates(
        smo_client.get(reverse("deadlines:closures")),
        "Thu, Mar 5, 2026 Snow day",
        not_iso=NOT_ISO,
    )


def test_case_page_deadline_panel_says_the_due_day_in_words(smo_client, reminded):
    page = smo_client.get(reverse("cases:detail", args=[reminded.case.number]))
    assert_human_dates(page, "Due Thu, Mar 5, 2026", not_iso=NOT_ISO)
