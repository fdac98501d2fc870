"""What the respondent and the staff see of the clocks once a step changed them
(issue 25): one current date per obligation after an upheld appeal, and a
resolved case that says so and shows no running date anywhere."""

import datetime as dt

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from cases.services import case_run_transition
from deadlines.models import Deadline
from enforcement.models import Decision
from enforcement.services import appeals as appeal_services
from kernel.humanize import human_date
from tests.enforcement.conftest import aware, schedule_hearing, village_day
from tests.visible import visible_text

from .conftest import enter

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_throttle():
    cache.clear()


def respondent_page(code) -> str:
    client = Client()
    enter(client, code)
    return visible_text(client.get(reverse("portal:home")))


def test_after_an_upheld_appeal_the_respondent_sees_one_date_the_later_one(
    owner_code, issued_notice, clerk_user
):
    # Issued 2026-03-03 with 10 days: remediation due Fri 03-13. Upheld Thu
    # 03-05: five business days after it is Thu 03-12, earlier than what the
    # notice gave, so the correction date is 03-13 (§ 132-15 A, R-COR-1).
    with village_day(dt.date(2026, 3, 4)):
        appeal = appeal_services.appeal_file(
            notice=issued_notice,
            actor=clerk_user,
            appellant=issued_notice.recipient,
            filed_on=dt.date(2026, 3, 4),
            grounds="Not mine.",
        )
    appeal, _ = schedule_hearing(appeal, clerk_user, aware(2026, 3, 5))
    with village_day(dt.date(2026, 3, 5)):
        appeal_services.appeal_decide(
            appeal=appeal,
            actor=clerk_user,
            decision=Decision.UPHELD,
            decided_on=dt.date(2026, 3, 5),
            resolution="Upheld.",
        )
    text = respondent_page(owner_code)
    dates = text[text.index("Your dates") : text.index("If nothing is done")]
    assert "Correction of the violation after the appeal decision" in dates
    assert human_date(dt.date(2026, 3, 13)) in dates
    assert "Remediation deadline" not in dates  # replaced, not shown twice
    assert "waived" not in dates.lower() and "(met)" not in dates


def resolve(case, smo_user):
    return case_run_transition(
        case=case,
        transition="resolve",
        actor=smo_user,
        eliminated_on=dt.date(2026, 12, 1),
        verification="Dye test: clear.",
    )


def test_a_resolved_case_says_so_and_shows_no_running_date_anywhere(
    owner_code, issued_notice, smo_user, smo_client
):
    case = issued_notice.case
    resolve(case, smo_user)
    case.refresh_from_db()
    on = human_date(case.closed_at)

    # The respondent's page.
    text = respondent_page(owner_code)
    assert f"This case was resolved on {on}. Nothing more is required of you." in text
    assert "No date runs for you on this notice." in text
    assert "days left" not in text and "overdue" not in text.lower()
    assert "requires nothing more of you" in text
    assert "Send proof the work is done" not in text

    # The case page: the panel says so; no clock is open.
    page = visible_text(smo_client.get(reverse("cases:detail", args=[case.number])))
    assert f"This case was resolved on {on}: no deadline runs for it any more." in page
    assert not Deadline.objects.filter(case=case, status="open").exists()
    assert "Record compliance" not in page

    # The deadline list (open ones) no longer lists it.
    listing = visible_text(smo_client.get(reverse("deadlines:list")))  # open ones
    assert case.number not in listing
