"""The report staff pages, the outbox and the case page's chronology read dates as
people do (issue 16): "Thu, Mar 5, 2026, 2:04 PM" in the village's time, ISO only
in <time datetime=…> for machines."""

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from cases import services
from kernel.humanize import human_datetime
from tests.outbox.factories import OutgoingMessageFactory
from tests.visible import assert_human_dates

from .factories import CaseFactory, ReportFactory

pytestmark = pytest.mark.django_db

RECEIVED = dt.datetime(
    2026, 3, 5, 14, 4, tzinfo=timezone.get_current_timezone()
)  # Thursday
SEEN = dt.datetime(2026, 3, 4, 7, 30, tzinfo=timezone.get_current_timezone())
NOT_ISO = ("2026-03-05", "2026-03-04", "14:04", "07:30")


def test_report_list_and_page_say_when_it_came_and_was_seen_in_words(smo_client):
    report = ReportFactory(received_at=RECEIVED, observed_at=SEEN)
    assert_human_dates(
        smo_client.get(reverse("reports:list")),
        "Thu, Mar 5, 2026, 2:04 PM",
        not_iso=NOT_ISO,
    )
    page = smo_client.get(reverse("reports:detail", args=[report.pk]))
    assert_human_dates(
        page,
        "received Thu, Mar 5, 2026, 2:04 PM",
        "Seen Wed, Mar 4, 2026, 7:30 AM",
        not_iso=NOT_ISO,
    )
    assert '<time datetime="2026-03-05T14:04:00-05:00">' in page.content.decode()


def test_outbox_list_says_when_each_message_was_queued(smo_client):
    OutgoingMessageFactory(failed=True, created_at=RECEIVED)
    OutgoingMessageFactory(created_at=RECEIVED)
    text = assert_human_dates(
        smo_client.get(reverse("outbox:list")),
        "Thu, Mar 5, 2026, 2:04 PM",
        not_iso=NOT_ISO,
    )
    assert " ago)" in text  # its age beside it, as before


def test_the_chronology_says_each_entry_time_in_words(smo_client, smo_user):
    case = services.case_open(actor=smo_user, source="phone", summary="Oil")
    event = case.events.get()
    at = timezone.localtime(event.at)
    page = smo_client.get(reverse("cases:detail", args=[case.number]))
    text = assert_human_dates(
        page,
        f"{human_datetime(event.at)} · Case opened",
        not_iso=(f"{at:%Y-%m-%d}",),
    )
    assert f'<time datetime="{at.isoformat(timespec="seconds")}">' in (
        page.content.decode()
    )
    assert "Case opened" in text.split(human_datetime(event.at))[-1]


def test_case_list_and_page_say_the_case_days_in_words(smo_client):
    case = CaseFactory(
        violation_confirmed=True,
        violation_confirmed_on=dt.date(2026, 3, 5),
        violation_finding="Grey water piped to the curb.",
        opened_at=SEEN,
    )
    assert_human_dates(
        smo_client.get(reverse("cases:list")), "Wed, Mar 4, 2026", not_iso=NOT_ISO
    )
    assert_human_dates(
        smo_client.get(reverse("cases:detail", args=[case.number])),
        "Violation confirmed Thu, Mar 5, 2026",
        "opened Wed, Mar 4, 2026, 7:30 AM",
        not_iso=NOT_ISO,
    )


def test_the_filters_put_words_for_people_and_iso_for_machines():
    from django.template import Context, Template

    def render(value, filter_name):
        template = Template("{% load human_tags %}{{ v|" + filter_name + " }}")
        return template.render(Context({"v": value}))

    assert render(dt.date(2026, 12, 3), "human_date") == (
        '<time datetime="2026-12-03">Thu, Dec 3, 2026</time>'
    )
    moment = dt.datetime(2026, 12, 3, 14, 4, tzinfo=timezone.get_current_timezone())
    assert render(moment, "human_datetime") == (
        '<time datetime="2026-12-03T14:04:00-05:00">Thu, Dec 3, 2026, 2:04 PM</time>'
    )
    assert render(moment.astimezone(dt.UTC), "human_time") == (
        '<time datetime="2026-12-03T14:04:00-05:00">2:04 PM</time>'
    )
    assert render(None, "human_date") == ""
    assert render("<b>when reported</b>", "human_date") == (
        "&lt;b&gt;when reported&lt;/b&gt;"
    )


def test_the_words_are_djangos_formats_written_directly():
    """humanize writes DATE and TIME itself (a case page writes a hundred, bench/):
    the same words as Django's date_format, every hour of the day and every
    weekday and month, in and out of daylight saving time, dates and datetimes."""
    from django.utils.dateformat import format as date_format

    from kernel.humanize import DATE, TIME, human_date, human_time

    start = dt.datetime(2026, 1, 1, 0, 7, tzinfo=timezone.get_current_timezone())
    for step in range(0, 24 * 400, 5):  # every 5 hours over 400 days
        at = start + dt.timedelta(hours=step, minutes=step % 53)
        local = timezone.localtime(at)
        words = f"{date_format(local, DATE)}, {date_format(local, TIME)}"
        assert human_datetime(at) == words
        assert human_time(at) == date_format(local, TIME)
        assert human_date(local.date()) == date_format(local.date(), DATE)
    assert human_time(dt.time(0, 5)) == "12:05 AM"
    assert human_time(dt.time(12, 0)) == "12:00 PM"
