"""A notice served late (issue 25): the 15 days to appeal count from the notice's
issue, not its service (§ 132-14, R-APL-1). When service is recorded more than
LATE_SERVICE_AFTER_DAYS after issue, the notice page and the message after
recording say how many of the days to appeal were left, from the stored R-APL-1
deadline, and offer the page's own ways to issue the notice again or withdraw it."""

import datetime as dt

import pytest
from django.urls import reverse

from enforcement.models import NoticeOfViolation
from enforcement.selectors import LATE_SERVICE_AFTER_DAYS, late_service
from enforcement.services import notices as notice_services
from enforcement.services.appeals import appeal_due_date
from tests.steps import case_confirmed
from tests.visible import visible_text

pytestmark = pytest.mark.django_db

# The fixture's notice was issued on Tuesday 2026-03-03; its last day to appeal
# (R-APL-1, 15 days) is Wednesday 2026-03-18.
ISSUED_ON = dt.date(2026, 3, 3)


def record_service(client, notice, served_on):
    return client.post(
        reverse("enforcement:notice_service", args=[notice.pk]),
        case_confirmed(
            {
                "method": "personal",
                "served_on": served_on.isoformat(),
                "served_by": "S. Officer",
                "where": "12 Shore Road",
            }
        ),
        follow=True,
    )


def test_service_13_days_after_issue_says_2_days_to_appeal_were_left(
    issued_notice, smo_client
):
    assert appeal_due_date(issued_notice) == dt.date(2026, 3, 18)
    words = (
        "Served on Monday, March 16, 2026, 13 days after the notice was issued: "
        "the respondent had 2 of the 15 days to appeal left"
    )

    # The message right after recording it …
    response = record_service(smo_client, issued_notice, dt.date(2026, 3, 16))
    assert response.redirect_chain[-1][0] == reverse(
        "enforcement:notice_detail", args=[issued_notice.pk]
    )
    assert visible_text(response).count(words) == 2  # the message and the page
    assert "Issue a correction" in visible_text(response)

    # … and the notice page whenever it is opened again.
    page = smo_client.get(
        reverse("enforcement:notice_detail", args=[issued_notice.pk])
    ).content.decode()
    # The warning stands under the service list, before the page's other buttons.
    late = page[
        page.index('data-testid="late-service"') : page.index(
            reverse("enforcement:notice_service", args=[issued_notice.pk])
        )
    ]
    assert words in visible_text(late)
    assert "Wednesday, March 18, 2026" in visible_text(late)
    # The page's own ways: the correction (issue it again) and the withdrawal step.
    assert reverse("enforcement:notice_correct", args=[issued_notice.pk]) in late
    assert 'href="#step-withdraw"' in late
    assert 'id="step-withdraw"' in page


def test_service_1_day_after_issue_says_nothing_about_lateness(
    issued_notice, smo_client
):
    response = record_service(smo_client, issued_notice, dt.date(2026, 3, 4))
    text = visible_text(response)
    assert "Service of notice of violation" in text  # recorded
    assert "Late service" not in text
    assert "days to appeal left" not in text
    assert 'data-testid="late-service"' not in response.content.decode()


def test_service_on_or_after_the_last_day_says_none_were_left(
    issued_notice, smo_client
):
    response = record_service(smo_client, issued_notice, dt.date(2026, 3, 20))
    assert (
        "Served on Friday, March 20, 2026, 17 days after the notice was issued: "
        "the respondent had none of the 15 days to appeal left: the last day to "
        "appeal was Wednesday, March 18, 2026, before the notice was served."
    ) in visible_text(response)


def test_the_offered_correction_issues_the_notice_again_with_a_new_appeal_time(
    issued_notice, smo_client, smo_user
):
    record_service(smo_client, issued_notice, dt.date(2026, 3, 16))
    response = smo_client.post(
        reverse("enforcement:notice_correct", args=[issued_notice.pk])
    )
    correction = NoticeOfViolation.objects.get(supersedes=issued_notice)
    assert response.url == reverse("enforcement:notice_edit", args=[correction.pk])
    correction = notice_services.notice_issue(
        notice=correction, actor=smo_user, issued_on=dt.date(2026, 3, 17)
    )
    assert appeal_due_date(correction) == dt.date(2026, 4, 1)


def test_lateness_starts_after_the_named_number_of_days(issued_notice, smo_user):
    on_time = ISSUED_ON + dt.timedelta(days=LATE_SERVICE_AFTER_DAYS)
    notice_services.notice_record_service(
        notice=issued_notice, actor=smo_user, method="personal", served_on=on_time
    )
    assert late_service(issued_notice) is None


def test_a_later_service_after_one_in_time_is_not_late(issued_notice, smo_user):
    for day in (4, 16):
        notice_services.notice_record_service(
            notice=issued_notice,
            actor=smo_user,
            method="posting",
            served_on=dt.date(2026, 3, day),
        )
    assert late_service(issued_notice) is None


def test_service_the_day_before_the_last_day_leaves_one_day(issued_notice, smo_user):
    notice_services.notice_record_service(
        notice=issued_notice,
        actor=smo_user,
        method="personal",
        served_on=dt.date(2026, 3, 17),
    )
    assert "had 1 of the 15 days to appeal left" in late_service(issued_notice).words


def test_a_reader_sees_the_late_service_but_no_correction_button(
    issued_notice, smo_user, client_as
):
    notice_services.notice_record_service(
        notice=issued_notice,
        actor=smo_user,
        method="personal",
        served_on=dt.date(2026, 3, 16),
    )
    page = client_as("clerk").get(
        reverse("enforcement:notice_detail", args=[issued_notice.pk])
    )
    text = visible_text(page)
    assert "the respondent had 2 of the 15 days to appeal left" in text
    assert "Issue a correction" not in text
