"""Corrections of an event date and office closures recompute open deadlines
through one function, and say old → new on the case timeline."""

import datetime as dt

import pytest

from deadlines import services
from deadlines.models import Deadline, OfficeClosure
from kernel.models import CaseEvent
from kernel.workflow import Refused

pytestmark = pytest.mark.django_db


def _events(case, starts):
    return list(
        CaseEvent.objects.filter(case=case, summary__startswith=starts).values_list(
            "summary", flat=True
        )
    )


def test_correcting_the_issue_date_recomputes_the_appeal_deadline(make_case, smo_user):
    case = make_case()
    # R-APL-1: 15 days after Thu 2026-12-03 is Fri 2026-12-18.
    deadline = services.open_deadline(
        rule_id="R-APL-1", event_date=dt.date(2026, 12, 3), source=case, case=case
    )
    assert deadline.due_date == dt.date(2026, 12, 18)

    services.correct_event_date(
        case, new_date=dt.date(2026, 12, 10), actor=smo_user, reason="Typo on intake"
    )

    deadline.refresh_from_db()
    # 15 days after 2026-12-10 is Christmas Day → Monday, December 28, 2026 (GCL § 25-a).
    assert deadline.event_date == dt.date(2026, 12, 10)
    assert deadline.due_date == dt.date(2026, 12, 28)
    assert "Christmas Day" in deadline.explanation
    [summary] = _events(case, "Deadline recomputed")
    assert "Friday, December 18, 2026 → Monday, December 28, 2026" in summary
    event = CaseEvent.objects.get(case=case, summary=summary)
    assert "Typo on intake" in event.detail and event.actor == smo_user


def test_correcting_one_deadline_leaves_the_other_deadlines_of_the_source(
    make_case, smo_user
):
    case = make_case()
    first = services.open_deadline(
        rule_id="R-APL-3",
        event_date=dt.date(2026, 3, 2),
        source=case,
        case=case,
        purpose="file",
    )
    second = services.open_deadline(
        rule_id="R-APL-3",
        event_date=dt.date(2026, 3, 2),
        source=case,
        case=case,
        purpose="mail",
    )
    services.correct_event_date(
        first, new_date=dt.date(2026, 3, 4), actor=smo_user, reason="Decision date"
    )
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.event_date == dt.date(2026, 3, 4)
    assert second.event_date == dt.date(2026, 3, 2)


def test_a_correction_does_not_touch_a_closed_deadline(make_case, smo_user):
    case = make_case()
    deadline = services.open_deadline(
        rule_id="R-APL-1", event_date=dt.date(2026, 12, 3), source=case, case=case
    )
    services.meet_deadline(deadline, on=dt.date(2026, 12, 5), actor=smo_user)
    services.correct_event_date(
        case, new_date=dt.date(2026, 12, 10), actor=smo_user, reason="Typo"
    )
    deadline.refresh_from_db()
    assert deadline.due_date == dt.date(2026, 12, 18)
    assert _events(case, "Deadline recomputed") == []


def test_a_correction_needs_a_reason(make_case, smo_user):
    case = make_case()
    services.open_deadline(
        rule_id="R-APL-1", event_date=dt.date(2026, 12, 3), source=case, case=case
    )
    with pytest.raises(ValueError, match="reason"):
        services.correct_event_date(
            case, new_date=dt.date(2026, 12, 4), actor=smo_user, reason="  "
        )


def test_a_new_office_closure_moves_a_business_day_deadline_and_says_so(
    make_case, smo_user
):
    case = make_case()
    # R-SPL-4: 3 business days after Mon 2026-03-02 is Thu 2026-03-05.
    deadline = services.open_deadline(
        rule_id="R-SPL-4", event_date=dt.date(2026, 3, 2), source=case, case=case
    )
    assert deadline.due_date == dt.date(2026, 3, 5)

    services.add_office_closure(
        day=dt.date(2026, 3, 4), reason="Snow emergency", actor=smo_user
    )

    deadline.refresh_from_db()
    assert deadline.due_date == dt.date(2026, 3, 6)  # Wed skipped: Tue, Thu, Fri
    assert "Snow emergency" in deadline.explanation
    [summary] = _events(case, "Deadline recomputed")
    assert "Thursday, March 5, 2026 → Friday, March 6, 2026" in summary
    event = CaseEvent.objects.get(case=case, summary=summary)
    assert "Office closure added on Wednesday, March 4, 2026" in event.detail


def test_a_closure_outside_the_period_changes_nothing(make_case, smo_user):
    case = make_case()
    deadline = services.open_deadline(
        rule_id="R-SPL-4", event_date=dt.date(2026, 3, 2), source=case, case=case
    )
    services.add_office_closure(
        day=dt.date(2026, 3, 9), reason="Staff training", actor=smo_user
    )
    deadline.refresh_from_db()
    assert deadline.due_date == dt.date(2026, 3, 5)
    assert _events(case, "Deadline recomputed") == []


def test_a_closure_on_the_last_day_of_a_calendar_period_rolls_it(make_case, smo_user):
    case = make_case()
    # R-APL-1: 15 days after Mon 2026-03-02 is Tue 2026-03-17.
    deadline = services.open_deadline(
        rule_id="R-APL-1", event_date=dt.date(2026, 3, 2), source=case, case=case
    )
    assert deadline.due_date == dt.date(2026, 3, 17)
    services.add_office_closure(
        day=dt.date(2026, 3, 17), reason="Office flooded", actor=smo_user
    )
    deadline.refresh_from_db()
    assert deadline.due_date == dt.date(2026, 3, 18)


def test_removing_the_closure_moves_the_deadline_back(make_case, smo_user):
    case = make_case()
    deadline = services.open_deadline(
        rule_id="R-SPL-4", event_date=dt.date(2026, 3, 2), source=case, case=case
    )
    closure = services.add_office_closure(
        day=dt.date(2026, 3, 4), reason="Snow emergency", actor=smo_user
    )
    services.remove_office_closure(closure=closure, actor=smo_user)
    deadline.refresh_from_db()
    assert deadline.due_date == dt.date(2026, 3, 5)
    assert not OfficeClosure.objects.exists()
    summaries = _events(case, "Deadline recomputed")
    assert summaries[-1].endswith("Friday, March 6, 2026 → Thursday, March 5, 2026")


def test_a_closure_twice_on_one_day_is_refused(smo_user):
    services.add_office_closure(day=dt.date(2026, 3, 4), reason="Snow", actor=smo_user)
    with pytest.raises(Refused, match="already"):
        services.add_office_closure(
            day=dt.date(2026, 3, 4), reason="Snow", actor=smo_user
        )


def test_the_suspension_notice_uses_the_village_setting(settings, make_case):
    settings.SUSPENSION_NOTICE_BUSINESS_DAYS = 3
    case = make_case()
    deadline = services.open_deadline(
        rule_id="R-SUS-1", event_date=dt.date(2026, 3, 2), source=case, case=case
    )
    assert deadline.due_date == dt.date(2026, 3, 5)
    assert Deadline.objects.get(pk=deadline.pk).status == "open"
