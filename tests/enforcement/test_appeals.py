"""Appeals to the Board of Trustees (R-APL-1..3) and what the decision drives."""

import datetime as dt

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile

from cases.services import Refused
from deadlines.models import Deadline
from enforcement.models import AppealStatus, Decision, NoticeStatus
from enforcement.services import appeals as svc
from enforcement.services import notices as notice_svc
from kernel.models import CaseEvent

from .conftest import aware, schedule_hearing

pytestmark = pytest.mark.django_db


def test_an_appeal_on_day_15_is_on_time_and_opens_the_hearing_deadline(
    issued_notice, clerk_user, owner
):
    appeal = svc.appeal_file(
        notice=issued_notice,
        actor=clerk_user,
        appellant=owner,
        filed_on=dt.date(2026, 3, 18),
        grounds="Not me.",
    )
    assert not appeal.is_late
    assert appeal.appeal_due == dt.date(2026, 3, 18)
    window = issued_notice.deadlines().get(rule_id="R-APL-1")
    assert window.status == Deadline.Status.MET
    # 30 days after Wed 2026-03-18 is Fri 2026-04-17 (R-APL-2).
    assert svc.hearing_by(appeal) == dt.date(2026, 4, 17)


def test_an_appeal_filed_on_day_16_is_recorded_and_flagged_late(
    issued_notice, clerk_user, owner
):
    appeal = svc.appeal_file(
        notice=issued_notice,
        actor=clerk_user,
        appellant=owner,
        filed_on=dt.date(2026, 3, 19),
        grounds="Late but heard.",
    )
    assert appeal.is_late
    assert appeal.status == AppealStatus.FILED
    assert (
        issued_notice.deadlines().get(rule_id="R-APL-1").status
        == Deadline.Status.MISSED
    )
    assert CaseEvent.objects.filter(summary__contains="LATE").exists()


def test_only_the_clerk_or_smo_records_appeals(issued_notice, attorney_user, owner):
    with pytest.raises(Refused):
        svc.appeal_file(
            notice=issued_notice,
            actor=attorney_user,
            appellant=owner,
            filed_on=dt.date(2026, 3, 10),
            grounds="x",
        )


def test_a_draft_notice_cannot_be_appealed(draft_notice, clerk_user, owner):
    with pytest.raises(Refused, match="issued"):
        svc.appeal_file(
            notice=draft_notice,
            actor=clerk_user,
            appellant=owner,
            filed_on=dt.date(2026, 3, 10),
            grounds="x",
        )


def test_bad_appeal_input_saves_nothing(issued_notice, clerk_user, owner):
    with pytest.raises(ValidationError) as err:
        svc.appeal_file(
            notice=issued_notice,
            actor=clerk_user,
            appellant=owner,
            filed_on=dt.date(2026, 3, 1),
            grounds="",
        )
    assert {"filed_on", "grounds"} <= set(err.value.message_dict)
    assert not issued_notice.appeals.exists()


def test_documents_are_kept_privately_with_their_hash(issued_notice, clerk_user, owner):
    upload = SimpleUploadedFile("letter.pdf", b"%PDF-1.4 appeal", "application/pdf")
    appeal = svc.appeal_file(
        notice=issued_notice,
        actor=clerk_user,
        appellant=owner,
        filed_on=dt.date(2026, 3, 10),
        grounds="x",
        documents=[upload],
    )
    document = appeal.documents.get()
    assert document.original_name == "letter.pdf"
    assert len(document.sha256) == 64
    assert document.file.name.startswith("private/")
    assert "letter" not in document.file.name


def test_hearing_within_30_days_is_not_flagged(appeal, clerk_user):
    # Scheduled on the filing day, Tue 2026-03-10.
    appeal, warning = schedule_hearing(appeal, clerk_user, aware(2026, 4, 9))
    assert appeal.status == AppealStatus.HEARING_SCHEDULED
    assert warning == ""
    assert not appeal.hearing_past_limit


def test_hearing_scheduled_past_30_days_is_allowed_and_warned(appeal, clerk_user):
    # Filed Tue 2026-03-10: hearing by Thu 2026-04-09; scheduled that day.
    appeal, warning = schedule_hearing(appeal, clerk_user, aware(2026, 4, 10))
    assert appeal.status == AppealStatus.HEARING_SCHEDULED
    assert appeal.hearing_past_limit
    assert warning == (
        "The hearing on Friday, April 10, 2026 is after the hearing-by date, "
        "Thursday, April 9, 2026 (30 days after filing, R-APL-2)."
    )


def test_scheduling_needs_a_date(appeal, clerk_user):
    with pytest.raises(Refused, match="hearing date"):
        svc.appeal_schedule_hearing(appeal=appeal, actor=clerk_user, hearing_at=None)


def test_scheduling_refused_for_the_inspector(appeal, inspector_user):
    with pytest.raises(Refused, match="role"):
        svc.appeal_schedule_hearing(
            appeal=appeal, actor=inspector_user, hearing_at=aware(2026, 4, 1)
        )


def test_decision_before_a_hearing_is_refused(appeal, clerk_user):
    with pytest.raises(Refused, match="not possible"):
        svc.appeal_decide(
            appeal=appeal,
            actor=clerk_user,
            decision=Decision.UPHELD,
            decided_on=dt.date(2026, 3, 24),
            resolution="Upheld.",
        )


def test_decision_dated_before_the_hearing_is_refused(scheduled_appeal, clerk_user):
    with pytest.raises(Refused, match="before the hearing"):
        svc.appeal_decide(
            appeal=scheduled_appeal,
            actor=clerk_user,
            decision=Decision.UPHELD,
            decided_on=dt.date(2026, 3, 23),
            resolution="Upheld.",
        )


def test_decision_needs_its_resolution_text(scheduled_appeal, clerk_user):
    with pytest.raises(Refused, match="resolution"):
        svc.appeal_decide(
            appeal=scheduled_appeal,
            actor=clerk_user,
            decision=Decision.UPHELD,
            decided_on=dt.date(2026, 3, 24),
            resolution="",
        )


def test_upheld_decision_starts_the_five_business_day_clock(
    scheduled_appeal, clerk_user
):
    appeal = svc.appeal_decide(
        appeal=scheduled_appeal,
        actor=clerk_user,
        decision=Decision.UPHELD,
        decided_on=dt.date(2026, 3, 26),
        resolution="The SMO is upheld.",
    )
    notice = appeal.notice
    correction = notice.deadlines().get(rule_id="R-COR-1")
    # Decided Thu 2026-03-26. Business days after it: Fri 27 (1), Mon 30 (2),
    # Tue 31 (3), Wed Apr 1 (4), Thu Apr 2 (5): due Thursday 2026-04-02.
    assert correction.due_date == dt.date(2026, 4, 2)
    assert notice.compliance_deadline() == correction
    # The notice's own date gives way to the correction date (one current date).
    remediation = notice.deadlines().get(rule_id="R-NOV-2")
    assert remediation.status == Deadline.Status.REPLACED
    assert remediation.replaced_by == correction
    # R-APL-3: five days after 2026-03-26 is Tue 2026-03-31, for filing and mailing.
    limits = {
        d.purpose: d.due_date
        for d in svc.deadlines_for(appeal).filter(rule_id="R-APL-3")
    }
    assert limits == {"file": dt.date(2026, 3, 31), "mail": dt.date(2026, 3, 31)}
    assert (
        svc.deadlines_for(appeal).get(rule_id="R-APL-2").status == Deadline.Status.MET
    )
    assert CaseEvent.objects.filter(
        summary__startswith="Corrective-measures clock"
    ).exists()
    assert notice.status == NoticeStatus.ISSUED


def test_a_modified_decision_starts_no_five_business_day_clock(
    scheduled_appeal, clerk_user
):
    # § 132-15 A: "within five business days of the decision ... upholding the
    # decision of the SMO" — a modified decision does not uphold it.
    appeal = svc.appeal_decide(
        appeal=scheduled_appeal,
        actor=clerk_user,
        decision=Decision.MODIFIED,
        decided_on=dt.date(2026, 3, 26),
        resolution="Modified.",
        modification="The abatement is limited to the catch basin in front of 12.",
    )
    notice = appeal.notice
    assert not notice.deadlines().filter(rule_id="R-COR-1").exists()
    assert notice.deadlines().get(rule_id="R-NOV-2").status == Deadline.Status.ENDED
    assert notice.compliance_deadline() is None


def test_reversed_decision_withdraws_the_notice_and_waives_its_deadlines(
    scheduled_appeal, clerk_user
):
    appeal = svc.appeal_decide(
        appeal=scheduled_appeal,
        actor=clerk_user,
        decision=Decision.REVERSED,
        decided_on=dt.date(2026, 3, 24),
        resolution="Reversed.",
    )
    notice = appeal.notice
    notice.refresh_from_db()
    assert notice.status == NoticeStatus.WITHDRAWN
    assert not notice.deadlines().filter(status=Deadline.Status.OPEN).exists()
    assert not notice.deadlines().filter(rule_id="R-COR-1").exists()


def test_filing_and_mailing_within_five_days_close_the_appeal(
    scheduled_appeal, clerk_user
):
    appeal = svc.appeal_decide(
        appeal=scheduled_appeal,
        actor=clerk_user,
        decision=Decision.UPHELD,
        decided_on=dt.date(2026, 3, 24),
        resolution="Upheld.",
    )
    appeal, warning = svc.appeal_record_clerk_filing(
        appeal=appeal, actor=clerk_user, filed_on=dt.date(2026, 3, 25)
    )
    assert warning == "" and appeal.status == AppealStatus.DECIDED
    with pytest.raises(ValidationError):
        svc.appeal_record_mailing(
            appeal=appeal,
            actor=clerk_user,
            mailed_on=dt.date(2026, 3, 25),
            article_number="",
        )
    appeal, warning = svc.appeal_record_mailing(
        appeal=appeal,
        actor=clerk_user,
        mailed_on=dt.date(2026, 3, 31),
        article_number="9407 0000 1111 0000 0000",
    )
    # Five days after Tue 03-24 is Sun 03-29, rolled to Mon 03-30 (GCL § 25-a):
    # mailed on 03-31 is late, recorded with a warning.
    assert "after the limit, Monday, March 30, 2026" in warning
    assert appeal.status == AppealStatus.CLOSED
    mail = svc.deadlines_for(appeal).get(rule_id="R-APL-3", purpose="mail")
    assert mail.status == Deadline.Status.MISSED
    assert svc.deadlines_for(appeal).get(purpose="file").status == Deadline.Status.MET


def test_recording_the_filing_before_a_decision_is_refused(appeal, clerk_user):
    with pytest.raises(Refused, match="decided"):
        svc.appeal_record_clerk_filing(
            appeal=appeal, actor=clerk_user, filed_on=dt.date(2026, 3, 25)
        )


def test_withdrawn_appeal_ends_the_hearing_deadline(appeal, clerk_user, smo_user):
    with pytest.raises(Refused, match="reason"):
        svc.appeal_withdraw(appeal=appeal, actor=clerk_user, reason="")
    appeal = svc.appeal_withdraw(appeal=appeal, actor=clerk_user, reason="Settled.")
    assert appeal.status == AppealStatus.WITHDRAWN
    assert (
        svc.deadlines_for(appeal).get(rule_id="R-APL-2").status == Deadline.Status.ENDED
    )
    # With no appeal pending, the SMO may record non-compliance again.
    notice = notice_svc.notice_record_noncompliance(
        notice=appeal.notice, actor=smo_user
    )
    assert notice.status == NoticeStatus.NOT_COMPLIED


def test_withdrawing_a_decided_appeal_is_refused(scheduled_appeal, clerk_user):
    appeal = svc.appeal_decide(
        appeal=scheduled_appeal,
        actor=clerk_user,
        decision=Decision.UPHELD,
        decided_on=dt.date(2026, 3, 24),
        resolution="Upheld.",
    )
    with pytest.raises(Refused, match="not possible"):
        svc.appeal_withdraw(appeal=appeal, actor=clerk_user, reason="x")


def test_close_before_filing_and_mailing_is_refused(scheduled_appeal, clerk_user):
    from enforcement.services.flow import run_step

    appeal = svc.appeal_decide(
        appeal=scheduled_appeal,
        actor=clerk_user,
        decision=Decision.UPHELD,
        decided_on=dt.date(2026, 3, 24),
        resolution="Upheld.",
    )
    with pytest.raises(Refused, match="filing"):
        run_step(obj=appeal, transition="close", actor=clerk_user)
