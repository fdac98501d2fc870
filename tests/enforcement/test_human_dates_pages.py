"""The notice and appeal pages read dates as people do (issue 16): "Thu, Mar 5,
2026", times "2:04 PM", in the village's time; ISO only in <time datetime=…>.
(A day of the past, never today: the fine's computation, worded as on the
letter, names today's date.)"""

import datetime as dt

import pytest
from django.urls import reverse

from enforcement.selectors import with_limits
from enforcement.services import appeals as appeal_services
from enforcement.services import notices as notice_services
from tests.visible import assert_human_dates

from .conftest import aware, draft, schedule_hearing

pytestmark = pytest.mark.django_db

DAY = dt.date(2026, 3, 5)  # a Thursday


@pytest.fixture
def notice_of_day(confirmed_case, smo_user):
    notice = draft(confirmed_case, smo_user, violation_date=dt.date(2026, 3, 4))
    return notice_services.notice_issue(notice=notice, actor=smo_user, issued_on=DAY)


def test_notice_page_and_list_show_issue_and_violation_days_in_words(
    client_as, notice_of_day
):
    client = client_as("smo")
    page = client.get(reverse("enforcement:notice_detail", args=[notice_of_day.pk]))
    text = assert_human_dates(
        page,
        "Violation committed Wed, Mar 4, 2026",
        "Issued Thu, Mar 5, 2026",
        not_iso=("2026-03-05", "2026-03-04"),
    )
    assert (
        '<time datetime="2026-03-05">Thu, Mar 5, 2026</time>' in page.content.decode()
    )
    # The notice's key dates are the engine's stored deadlines, in words.
    appeal_by = notice_of_day.deadlines().get(rule_id="R-APL-1").due_date
    assert f"{appeal_by:%a, %b} {appeal_by.day}, {appeal_by.year}" in text
    listing = client.get(reverse("enforcement:notice_list"))
    assert_human_dates(listing, "Thu, Mar 5, 2026", not_iso=("2026-03-05",))


def test_appeal_list_shows_filed_hear_by_and_hearing_time_in_words(
    client_as, clerk_user, owner, notice_of_day
):
    appeal = appeal_services.appeal_file(
        notice=notice_of_day,
        actor=clerk_user,
        appellant=owner,
        filed_on=DAY,
        grounds="The water was rain water.",
    )
    client = client_as("clerk")
    hear_by = with_limits([appeal])[0].hearing_by.due_date
    text = assert_human_dates(
        client.get(reverse("enforcement:appeal_list")),
        "filed Thu, Mar 5, 2026",
        not_iso=("2026-03-05", hear_by.isoformat()),
    )
    assert f"hear by {hear_by:%a, %b} {hear_by.day}, {hear_by.year} R-APL-2" in text
    assert "(R-APL-2)" not in text  # the rule id beside the words, not in them
    schedule_hearing(
        appeal, clerk_user, aware(2026, 3, 12, 14, 4), location="Village Hall"
    )
    assert_human_dates(
        client.get(reverse("enforcement:appeal_list")),
        "hearing Thu, Mar 12, 2026, 2:04 PM Village Hall",
        not_iso=("2026-03-12", "2026-03-05", "14:04"),
    )
