"""A deadline's status changes only through its state machine (issue 30): met,
met late, waived by a person with the right role; replaced and ended by the
clock table. A step its state or role does not allow is refused in words and
changes nothing; every step writes one event on the case, under the
deadline's own rule (here R-SPL-4, the spill confirmation's)."""

import datetime as dt

import pytest

from deadlines.models import Deadline
from deadlines.services import end_deadline, meet_deadline, waive_deadline
from kernel.models import CaseEvent
from kernel.workflow import Refused

from .conftest import deadline_on

pytestmark = pytest.mark.django_db

DUE = dt.date(2026, 3, 10)


def _events(case) -> list[str]:
    return list(
        CaseEvent.objects.filter(case=case, kind="deadline")
        .order_by("id")
        .values_list("summary", flat=True)
    )


def test_waiving_a_deadline_already_met_is_refused_in_words_and_changes_nothing(
    make_case, smo_user
):
    case = make_case()
    deadline = deadline_on(DUE, case=case)
    meet_deadline(deadline, on=dt.date(2026, 3, 9), actor=smo_user)
    before = _events(case)

    with pytest.raises(Refused) as refused:
        waive_deadline(deadline, reason="Notice withdrawn", actor=smo_user)

    assert str(refused.value) == (
        "Not done: that step is not possible while it is “Met”."
    )
    deadline.refresh_from_db()
    assert (deadline.status, deadline.met_on, deadline.waived_reason) == (
        Deadline.Status.MET,
        dt.date(2026, 3, 9),
        "",
    )
    assert _events(case) == before


def test_a_waiver_says_why_on_the_case_and_needs_a_reason(make_case, smo_user):
    case = make_case()
    deadline = deadline_on(DUE, case=case)
    with pytest.raises(Refused, match="say why the deadline is waived"):
        waive_deadline(deadline, reason="  ", actor=smo_user)
    deadline.refresh_from_db()
    assert deadline.is_open

    waive_deadline(deadline, reason="Notice withdrawn", actor=smo_user)

    deadline.refresh_from_db()
    assert deadline.status == Deadline.Status.WAIVED
    event = CaseEvent.objects.filter(case=case, kind="deadline").latest("id")
    assert event.summary == "Deadline waived: R-SPL-4 duty"
    assert (event.detail, event.actor, event.subject) == (
        "Notice withdrawn",
        smo_user,
        deadline,
    )
    assert (event.from_status, event.to_status) == ("open", "waived")
    assert event.rule_id == "R-SPL-4"


def test_the_clerk_may_not_waive_the_smos_duty(make_case, clerk_user):
    case = make_case()
    deadline = deadline_on(DUE, case=case, responsible="smo")
    with pytest.raises(Refused, match="your role does not allow that step"):
        waive_deadline(deadline, reason="Not ours", actor=clerk_user)
    deadline.refresh_from_db()
    assert deadline.is_open and _events(case) == []
    board = deadline_on(DUE, case=case, rule_id="R-APL-2", responsible="board")
    waive_deadline(board, reason="Hearing cancelled", actor=clerk_user)
    board.refresh_from_db()
    assert board.status == Deadline.Status.WAIVED


def test_done_after_the_due_date_is_recorded_missed_with_late_in_the_chronology(
    make_case, smo_user
):
    case = make_case()
    deadline = deadline_on(DUE, case=case)
    meet_deadline(deadline, on=dt.date(2026, 3, 12), actor=smo_user)
    deadline.refresh_from_db()
    assert deadline.status == Deadline.Status.MISSED
    assert _events(case) == [
        "Deadline met (late): R-SPL-4 duty on Thursday, March 12, 2026, "
        "due Tuesday, March 10, 2026"
    ]


def test_recording_met_twice_is_refused_and_keeps_the_first_date(make_case, smo_user):
    case = make_case()
    deadline = deadline_on(DUE, case=case)
    meet_deadline(deadline, on=dt.date(2026, 3, 9), actor=smo_user)
    with pytest.raises(Refused, match="not possible while it is “Met”"):
        meet_deadline(deadline, on=dt.date(2026, 3, 10), actor=smo_user)
    deadline.refresh_from_db()
    assert deadline.met_on == dt.date(2026, 3, 9) and len(_events(case)) == 1


def test_the_clock_table_leaves_a_deadline_closed_meanwhile_as_it_is(
    make_case, smo_user
):
    case = make_case()
    deadline = deadline_on(DUE, case=case)
    waive_deadline(deadline, reason="Notice withdrawn", actor=smo_user)
    before = _events(case)

    ended = end_deadline(deadline, reason="The case was resolved", actor=None)
    met = meet_deadline(deadline, on=DUE, actor=None, by_clock=True)

    assert ended.status == met.status == Deadline.Status.WAIVED
    assert _events(case) == before
