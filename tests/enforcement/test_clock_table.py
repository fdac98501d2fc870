"""Every clock follows the case (issue 25): the clock table (cases.clocks) applied
by the workflow kernel, scenario by scenario.

Each scenario is a sequence of steps on given dates, built through the services,
and after each step the open clocks of the case with their due dates, as the
SMO's deadline list shows them. The statute of each expectation is in a comment.
"""

import datetime as dt

import pytest
from django.core import mail

from cases.services import case_run_transition
from deadlines.models import Deadline
from deadlines.reminders import sweep_reminders
from deadlines.services import deadlines_for
from enforcement.models import AppealStatus, Decision, NoticeStatus
from enforcement.services import appeals as appeal_services
from enforcement.services import notices as notice_services
from kernel.workflow import Refused
from outbox.models import OutgoingMessage

from .conftest import aware, draft, schedule_hearing, village_day

pytestmark = pytest.mark.django_db

D = dt.date


def open_clocks(case) -> dict[str, dt.date]:
    """{"R-APL-1": due, "R-APL-3:file": due, …} of the case's open clocks."""
    return {
        d.rule_id + (f":{d.purpose}" if d.purpose else ""): d.due_date
        for d in Deadline.objects.filter(case=case, status=Deadline.Status.OPEN)
    }


def issue(case, smo, on, **draft_values):
    with village_day(on):
        notice = draft(case, smo, **draft_values)
        return notice_services.notice_issue(notice=notice, actor=smo, issued_on=on)


def appeal_and_decide(notice, clerk, filed, hearing, decided, decision):
    with village_day(filed):
        appeal = appeal_services.appeal_file(
            notice=notice,
            actor=clerk,
            appellant=notice.recipient,
            filed_on=filed,
            grounds="Not mine.",
        )
    appeal, _ = schedule_hearing(
        appeal, clerk, aware(hearing.year, hearing.month, hearing.day), location="Hall"
    )
    with village_day(decided):
        return appeal_services.appeal_decide(
            appeal=appeal,
            actor=clerk,
            decision=decision,
            decided_on=decided,
            resolution="Decided.",
            modification="Only the catch basin." if decision == "modified" else "",
        )


def resolve(case, smo, on):
    with village_day(on):
        return case_run_transition(
            case=case,
            transition="resolve",
            actor=smo,
            eliminated_on=on,
            verification="Dye test at the catch basin: clear.",
        )


def test_issuing_a_notice_starts_its_appeal_and_remediation_clocks(
    confirmed_case, smo_user
):
    # § 132-14 / R-APL-1: 15 days from issuance; R-NOV-2: the 60 days the notice
    # sets. Issued Monday 2027-01-04.
    issue(confirmed_case, smo_user, D(2027, 1, 4), remediation_days=60)
    assert open_clocks(confirmed_case) == {
        "R-APL-1": D(2027, 1, 19),
        "R-NOV-2": D(2027, 3, 5),
    }


def test_an_upheld_appeal_never_shortens_the_time_the_notice_gave(
    confirmed_case, smo_user, clerk_user
):
    # The issue's example: a notice of 2027-01-04 gave 60 days (to 03-05); the
    # appeal was filed 01-05 and upheld 01-20. § 132-15 A gives five business
    # days *after* the decision (01-27); it does not take away the notice's own
    # time, so the correction date is the later one, 03-05.
    notice = issue(confirmed_case, smo_user, D(2027, 1, 4), remediation_days=60)
    with village_day(D(2027, 1, 5)):
        appeal = appeal_services.appeal_file(
            notice=notice,
            actor=clerk_user,
            appellant=notice.recipient,
            filed_on=D(2027, 1, 5),
            grounds="Not mine.",
        )
    # R-APL-1 met on the filing day; R-APL-2: the hearing within 30 days.
    assert open_clocks(confirmed_case) == {
        "R-NOV-2": D(2027, 3, 5),
        "R-APL-2": D(2027, 2, 4),
    }
    appeal, _ = schedule_hearing(
        appeal, clerk_user, aware(2027, 1, 19), on=D(2027, 1, 5), location="Hall"
    )
    with village_day(D(2027, 1, 20)):
        appeal_services.appeal_decide(
            appeal=appeal,
            actor=clerk_user,
            decision=Decision.UPHELD,
            decided_on=D(2027, 1, 20),
            resolution="Upheld.",
        )
    # R-COR-1 replaces the notice's own date (one current date per obligation);
    # R-APL-3: the Board files and mails its decision within five days.
    assert open_clocks(confirmed_case) == {
        "R-COR-1": D(2027, 3, 5),
        "R-APL-3:file": D(2027, 1, 25),
        "R-APL-3:mail": D(2027, 1, 25),
    }
    correction = deadlines_for(notice).get(rule_id="R-COR-1")
    assert "The notice itself gave until" in correction.explanation
    remediation = deadlines_for(notice).get(rule_id="R-NOV-2")
    assert remediation.status == Deadline.Status.REPLACED
    assert remediation.replaced_by == correction
    notice.refresh_from_db()
    assert notice.compliance_deadline() == correction


def test_an_upheld_appeal_gives_five_business_days_when_the_notice_gave_less(
    issued_notice, clerk_user
):
    # Issued 2026-03-03 with 10 days (to 03-13); upheld Thu 2026-03-26: five
    # business days after it is Thu 04-02 (R-COR-1), later than 03-13.
    appeal_and_decide(
        issued_notice,
        clerk_user,
        filed=D(2026, 3, 10),
        hearing=D(2026, 3, 24),
        decided=D(2026, 3, 26),
        decision=Decision.UPHELD,
    )
    assert open_clocks(issued_notice.case)["R-COR-1"] == D(2026, 4, 2)
    correction = deadlines_for(issued_notice).get(rule_id="R-COR-1")
    assert "The notice itself gave until" not in correction.explanation


def test_a_modified_decision_ends_the_notices_own_dates(issued_notice, clerk_user):
    # R-COR-1 runs only from a decision upholding the SMO; the superseding
    # notice sets the dates (§ 132-14, § 132-15 A).
    appeal_and_decide(
        issued_notice,
        clerk_user,
        filed=D(2026, 3, 10),
        hearing=D(2026, 3, 24),
        decided=D(2026, 3, 26),
        decision=Decision.MODIFIED,
    )
    assert set(open_clocks(issued_notice.case)) == {"R-APL-3:file", "R-APL-3:mail"}
    assert (
        deadlines_for(issued_notice).get(rule_id="R-NOV-2").status
        == Deadline.Status.ENDED
    )


def test_a_reversed_decision_withdraws_the_notice_and_ends_its_clocks(
    issued_notice, clerk_user
):
    appeal_and_decide(
        issued_notice,
        clerk_user,
        filed=D(2026, 3, 10),
        hearing=D(2026, 3, 24),
        decided=D(2026, 3, 26),
        decision=Decision.REVERSED,
    )
    issued_notice.refresh_from_db()
    assert issued_notice.status == NoticeStatus.WITHDRAWN
    assert set(open_clocks(issued_notice.case)) == {"R-APL-3:file", "R-APL-3:mail"}


def test_resolving_a_case_ends_every_clock_closes_its_notice_and_cancels_reminders(
    issued_notice, smo_user, settings
):
    # Issued 2026-03-03: R-APL-1 due 03-18, R-NOV-2 due 03-13. On 03-12 the
    # reminder sweep queues the remediation reminder (due tomorrow) ...
    settings.CELERY_TASK_ALWAYS_EAGER = False
    case = issued_notice.case
    with village_day(D(2026, 3, 12)):
        sweep_reminders(today=D(2026, 3, 12))
    waiting = OutgoingMessage.objects.filter(
        case=case, status=OutgoingMessage.Status.PENDING, kind="reminder"
    )
    assert waiting.exists()
    # ... and the SMO records the case resolved the same day.
    resolve(case, smo_user, D(2026, 3, 12))
    assert open_clocks(case) == {}
    ended = deadlines_for(issued_notice).filter(status=Deadline.Status.ENDED)
    assert {d.rule_id for d in ended} == {"R-APL-1", "R-NOV-2"}
    assert all(d.waived_reason == "The case was resolved." for d in ended)
    issued_notice.refresh_from_db()
    assert issued_notice.status == NoticeStatus.CLOSED
    # The queued reminder is cancelled, never sent, and says why.
    cancelled = OutgoingMessage.objects.filter(case=case, kind="reminder")
    assert {m.status for m in cancelled} == {OutgoingMessage.Status.SKIPPED}
    assert all(m.closed_reason.startswith("Cancelled") for m in cancelled)
    # The next day's sweep finds nothing of this case to remind anyone of.
    mail.outbox.clear()
    with village_day(D(2026, 3, 13)):
        sweep_reminders(today=D(2026, 3, 13))
    assert not OutgoingMessage.objects.filter(
        case=case, status=OutgoingMessage.Status.PENDING
    ).exists()


def test_the_boards_own_duties_outlive_the_smos_resolution(
    issued_notice, clerk_user, smo_user
):
    # R-APL-3 is the Village's duty (§ 132-14): resolving the case does not end it.
    appeal = appeal_and_decide(
        issued_notice,
        clerk_user,
        filed=D(2026, 3, 10),
        hearing=D(2026, 3, 24),
        decided=D(2026, 3, 26),
        decision=Decision.UPHELD,
    )
    resolve(issued_notice.case, smo_user, D(2026, 3, 27))
    assert open_clocks(issued_notice.case) == {
        "R-APL-3:file": D(2026, 3, 31),
        "R-APL-3:mail": D(2026, 3, 31),
    }
    assert appeal.status == AppealStatus.DECIDED


def test_resolving_while_an_appeal_is_pending_is_refused_and_saves_nothing(
    appeal, smo_user
):
    case = appeal.notice.case
    before = open_clocks(case)
    with pytest.raises(Refused, match="appeal pending"):
        resolve(case, smo_user, D(2026, 3, 12))
    case.refresh_from_db()
    assert case.eliminated_on is None and not case.is_closed
    assert open_clocks(case) == before


def test_a_late_appeal_opens_no_hearing_clock_until_the_board_accepts_it(
    issued_notice, clerk_user
):
    # R-APL-1: the last day to appeal was 03-18; filed 03-19, it is received
    # and marked late; R-APL-2 starts only when the Board accepts it, counted
    # from the filing (30 days after 03-19 is 04-18, a Saturday: Mon 04-20).
    with village_day(D(2026, 3, 19)):
        appeal = appeal_services.appeal_file(
            notice=issued_notice,
            actor=clerk_user,
            appellant=issued_notice.recipient,
            filed_on=D(2026, 3, 19),
            grounds="Late.",
        )
    assert appeal.is_late
    assert "R-APL-2" not in open_clocks(issued_notice.case)
    with village_day(D(2026, 3, 20)):
        appeal = appeal_services.appeal_accept_late(appeal=appeal, actor=clerk_user)
    assert appeal.late_accepted_on == D(2026, 3, 20)
    assert open_clocks(issued_notice.case)["R-APL-2"] == D(2026, 4, 20)
    with pytest.raises(Refused):
        appeal_services.appeal_accept_late(appeal=appeal, actor=clerk_user)


def test_withdrawing_a_notice_ends_its_clocks(issued_notice, smo_user):
    notice_services.notice_withdraw(
        notice=issued_notice, actor=smo_user, reason="Wrong address."
    )
    assert open_clocks(issued_notice.case) == {}
    assert set(deadlines_for(issued_notice).values_list("status", flat=True)) == {
        Deadline.Status.ENDED
    }


def test_complying_meets_the_remediation_clock_and_ends_the_rest(
    issued_notice, smo_user
):
    with village_day(D(2026, 3, 12)):
        notice_services.notice_record_compliance(
            notice=issued_notice, actor=smo_user, complied_on=D(2026, 3, 12)
        )
    statuses = dict(deadlines_for(issued_notice).values_list("rule_id", "status"))
    assert statuses == {
        "R-NOV-2": Deadline.Status.MET,
        "R-APL-1": Deadline.Status.ENDED,
    }


def test_compliance_dated_before_the_notice_is_refused_and_saves_nothing(
    issued_notice, smo_user
):
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError, match="issued on Tue, Mar 3, 2026"):
        notice_services.notice_record_compliance(
            notice=issued_notice, actor=smo_user, complied_on=D(2026, 3, 2)
        )
    issued_notice.refresh_from_db()
    assert issued_notice.status == NoticeStatus.ISSUED
    assert set(open_clocks(issued_notice.case)) == {"R-APL-1", "R-NOV-2"}
