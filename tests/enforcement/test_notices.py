"""Notices of violation (R-NOV-1, R-NOV-2): every edge of the notice FSM."""

import datetime as dt
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from cases.models import CaseStatus
from cases.services import Refused
from deadlines.models import Deadline
from enforcement.models import (
    NoticeFrozenError,
    NoticeOfViolation,
    NoticeRequirement,
    NoticeStatus,
    RequirementKind,
    ServiceRecord,
)
from enforcement.services import notices as svc
from kernel.models import CaseEvent

from .conftest import draft

pytestmark = pytest.mark.django_db


def test_a_notice_cannot_be_drafted_before_the_violation_is_confirmed(
    confirmed_case, smo_user
):
    type(confirmed_case).objects.filter(pk=confirmed_case.pk).update(
        status=CaseStatus.INVESTIGATING
    )
    confirmed_case.refresh_from_db()
    with pytest.raises(Refused, match="confirmed"):
        draft(confirmed_case, smo_user)
    assert not NoticeOfViolation.objects.exists()


def test_only_the_smo_drafts_notices(confirmed_case, clerk_user):
    with pytest.raises(Refused):
        draft(confirmed_case, clerk_user)


def test_recipient_must_be_a_party_of_the_case(confirmed_case, smo_user):
    from cases.models import Party

    stranger = Party.objects.create(name="Stranger", mailing_address="x")
    with pytest.raises(ValidationError) as err:
        draft(confirmed_case, smo_user, recipient=stranger)
    assert "recipient" in err.value.message_dict


def test_the_agent_named_on_the_case_may_be_the_recipient(
    confirmed_case, smo_user, agent
):
    assert draft(confirmed_case, smo_user, recipient=agent).recipient == agent


def test_abatement_needs_a_remediation_deadline(confirmed_case, smo_user):
    with pytest.raises(ValidationError) as err:
        draft(confirmed_case, smo_user, remediation_days=None)
    assert "remediation_days" in err.value.message_dict


def test_every_requirement_needs_its_particulars(confirmed_case, smo_user):
    with pytest.raises(ValidationError):
        draft(
            confirmed_case, smo_user, requirements=[(RequirementKind.MONITORING, " ")]
        )


def test_issue_freezes_recipient_opens_deadlines_and_begins_enforcement(
    draft_notice, smo_user, owner
):
    notice = svc.notice_issue(
        notice=draft_notice, actor=smo_user, issued_on=dt.date(2026, 3, 3)
    )
    assert notice.status == NoticeStatus.ISSUED
    assert notice.recipient_name == "Pat Owner"
    assert notice.recipient_address.startswith("12 Shore Road")
    rules = {d.rule_id: d for d in notice.deadlines()}
    # 15 days after Tue 2026-03-03 is Wed 2026-03-18 (R-APL-1).
    assert rules["R-APL-1"].due_date == dt.date(2026, 3, 18)
    # 10 days after 2026-03-03 is Fri 2026-03-13 (R-NOV-2).
    assert rules["R-NOV-2"].due_date == dt.date(2026, 3, 13)
    notice.case.refresh_from_db()
    assert notice.case.status == CaseStatus.ENFORCEMENT
    assert CaseEvent.objects.filter(case=notice.case, to_status="issued").exists()
    # Changing the party afterwards does not change the notice.
    owner.mailing_address = "Somewhere else"
    owner.save()
    notice.refresh_from_db()
    assert notice.recipient_address.startswith("12 Shore Road")


def test_issue_refused_without_requirements_says_why(draft_notice, smo_user):
    NoticeRequirement.objects.filter(notice=draft_notice).delete()
    with pytest.raises(Refused, match="requirement"):
        svc.notice_issue(notice=draft_notice, actor=smo_user)
    draft_notice.refresh_from_db()
    assert draft_notice.status == NoticeStatus.DRAFT
    assert not Deadline.objects.exists()


def test_issue_refused_without_mailing_address(draft_notice, smo_user, owner):
    owner.mailing_address = ""
    owner.save()
    with pytest.raises(Refused, match="mailing address"):
        svc.notice_issue(notice=draft_notice, actor=smo_user)


def test_issue_refused_for_the_clerk(draft_notice, clerk_user):
    with pytest.raises(Refused, match="role"):
        svc.notice_issue(notice=draft_notice, actor=clerk_user)


def test_issue_twice_is_refused(issued_notice, smo_user):
    with pytest.raises(Refused, match="not possible"):
        svc.notice_issue(notice=issued_notice, actor=smo_user)


def test_an_issued_notice_is_frozen_in_the_model(issued_notice):
    notice = NoticeOfViolation.objects.get(pk=issued_notice.pk)
    notice.findings = "rewritten"
    with pytest.raises(NoticeFrozenError):
        notice.save()
    requirement = notice.requirements.first()
    requirement.particulars = "changed"
    with pytest.raises(NoticeFrozenError):
        requirement.save()
    with pytest.raises(NoticeFrozenError):
        requirement.delete()


def test_an_issued_notice_is_frozen_in_the_service(issued_notice, smo_user):
    with pytest.raises(NoticeFrozenError):
        svc.notice_update(
            notice=issued_notice,
            actor=smo_user,
            recipient=issued_notice.recipient,
            violation_date=issued_notice.violation_date,
            findings="x",
            requirements=[(RequirementKind.CEASE_DESIST, "stop")],
        )


def test_a_draft_may_be_changed(draft_notice, smo_user):
    notice = svc.notice_update(
        notice=draft_notice,
        actor=smo_user,
        recipient=draft_notice.recipient,
        violation_date=draft_notice.violation_date,
        findings="Better words.",
        requirements=[(RequirementKind.ELIMINATION, "Remove the pipe.")],
    )
    assert notice.findings == "Better words."
    assert notice.requirement_kinds() == {RequirementKind.ELIMINATION}


def test_a_correction_supersedes_the_issued_notice_and_both_are_kept(
    issued_notice, smo_user
):
    correction = svc.notice_start_correction(notice=issued_notice, actor=smo_user)
    assert correction.status == NoticeStatus.DRAFT
    assert correction.supersedes == issued_notice
    svc.notice_issue(notice=correction, actor=smo_user, issued_on=dt.date(2026, 3, 5))
    old = NoticeOfViolation.objects.get(pk=issued_notice.pk)
    assert old.status == NoticeStatus.SUPERSEDED
    assert old.findings == issued_notice.findings
    assert not old.deadlines().filter(status=Deadline.Status.OPEN).exists()
    assert NoticeOfViolation.objects.count() == 2


def test_a_second_correction_of_the_same_notice_is_refused(issued_notice, smo_user):
    svc.notice_start_correction(notice=issued_notice, actor=smo_user)
    with pytest.raises(Refused, match="already exists"):
        svc.notice_start_correction(notice=issued_notice, actor=smo_user)


def test_supersede_without_an_issued_correction_is_refused(issued_notice, smo_user):
    from enforcement.services.flow import run_step

    with pytest.raises(Refused, match="correcting notice"):
        run_step(obj=issued_notice, transition="supersede", actor=smo_user)


def test_a_draft_cannot_be_corrected(draft_notice, smo_user):
    with pytest.raises(Refused):
        svc.notice_start_correction(notice=draft_notice, actor=smo_user)


def test_compliance_meets_the_remediation_deadline(issued_notice, smo_user):
    notice = svc.notice_record_compliance(
        notice=issued_notice, actor=smo_user, complied_on=dt.date(2026, 3, 12)
    )
    assert notice.status == NoticeStatus.COMPLIED
    remediation = notice.deadlines().get(rule_id="R-NOV-2")
    assert remediation.status == Deadline.Status.MET


def test_compliance_needs_its_date(issued_notice, smo_user):
    with pytest.raises(Refused, match="date of compliance"):
        svc.notice_record_compliance(
            notice=issued_notice, actor=smo_user, complied_on=None
        )


def test_compliance_of_a_draft_is_refused(draft_notice, smo_user):
    with pytest.raises(Refused, match="not possible"):
        svc.notice_record_compliance(
            notice=draft_notice, actor=smo_user, complied_on=dt.date(2026, 3, 12)
        )


def test_not_complied_after_the_deadline_then_escalated(issued_notice, smo_user):
    notice = svc.notice_record_noncompliance(notice=issued_notice, actor=smo_user)
    assert notice.status == NoticeStatus.NOT_COMPLIED
    with pytest.raises(Refused, match="why"):
        svc.notice_escalate(notice=notice, actor=smo_user, note="")
    notice = svc.notice_escalate(
        notice=notice, actor=smo_user, note="Corrective measures."
    )
    assert notice.status == NoticeStatus.ESCALATED


def test_not_complied_is_refused_before_the_deadline(confirmed_case, smo_user):
    from django.utils import timezone

    notice = draft(confirmed_case, smo_user)
    notice = svc.notice_issue(
        notice=notice, actor=smo_user, issued_on=timezone.localdate()
    )
    with pytest.raises(Refused, match="compliance deadline"):
        svc.notice_record_noncompliance(notice=notice, actor=smo_user)


def test_not_complied_is_refused_while_an_appeal_is_pending(appeal, smo_user):
    # § 132-15 A follows the appeal of § 132-14 (R-APL-1): filed Tue 2026-03-10.
    with pytest.raises(
        Refused,
        match="an appeal of this notice, filed Tuesday, March 10, 2026, is pending "
        "before the Board of Trustees; corrective measures can start after its "
        "decision",
    ):
        svc.notice_record_noncompliance(notice=appeal.notice, actor=smo_user)


def test_escalate_from_issued_is_refused(issued_notice, smo_user):
    with pytest.raises(Refused, match="not possible"):
        svc.notice_escalate(notice=issued_notice, actor=smo_user, note="x")


def test_withdraw_needs_a_reason_and_waives_deadlines(
    issued_notice, smo_user, clerk_user
):
    with pytest.raises(Refused, match="reason"):
        svc.notice_withdraw(notice=issued_notice, actor=smo_user, reason="")
    with pytest.raises(Refused, match="role"):
        svc.notice_withdraw(notice=issued_notice, actor=clerk_user, reason="x")
    notice = svc.notice_withdraw(
        notice=issued_notice, actor=smo_user, reason="Wrong lot."
    )
    assert notice.status == NoticeStatus.WITHDRAWN
    assert not notice.deadlines().filter(status=Deadline.Status.OPEN).exists()


def test_withdraw_on_reversal_needs_a_reversed_appeal(issued_notice, smo_user):
    from enforcement.services.flow import run_step

    with pytest.raises(Refused, match="reversed"):
        run_step(obj=issued_notice, transition="withdraw_on_reversal", actor=smo_user)


def test_service_by_certified_mail_needs_the_article_number(issued_notice, smo_user):
    with pytest.raises(ValidationError) as err:
        svc.notice_record_service(
            notice=issued_notice,
            actor=smo_user,
            method=ServiceRecord.Method.CERTIFIED,
            served_on=dt.date(2026, 3, 3),
        )
    assert "article_number" in err.value.message_dict
    record = svc.notice_record_service(
        notice=issued_notice,
        actor=smo_user,
        method=ServiceRecord.Method.CERTIFIED,
        served_on=dt.date(2026, 3, 3),
        article_number="9407 1000 0000 0000 0001",
    )
    record = svc.service_record_returned(
        record=record,
        actor=smo_user,
        returned_on=dt.date(2026, 3, 9),
        reason="Unclaimed",
    )
    assert record.returned
    with pytest.raises(Refused):
        svc.service_record_returned(
            record=record, actor=smo_user, returned_on=dt.date(2026, 3, 9), reason="x"
        )


def test_service_of_a_draft_is_refused(draft_notice, smo_user):
    with pytest.raises(Refused, match="Issue"):
        svc.notice_record_service(
            notice=draft_notice,
            actor=smo_user,
            method=ServiceRecord.Method.PERSONAL,
            served_on=dt.date(2026, 3, 3),
        )


def test_a_fine_outside_its_tier_is_refused(confirmed_case, smo_user):
    with pytest.raises(ValidationError) as err:
        draft(
            confirmed_case,
            smo_user,
            requirements=[(RequirementKind.FINE, "Pay the fine.")],
            remediation_days=None,
            proposed_fine=Decimal("500"),
        )
    assert "first offense" in err.value.message_dict["proposed_fine"][0]


def test_a_fine_in_its_tier_is_stored_with_its_computation_at_issue(
    confirmed_case, smo_user
):
    notice = draft(
        confirmed_case,
        smo_user,
        requirements=[(RequirementKind.FINE, "Pay the fine.")],
        remediation_days=None,
        proposed_fine=Decimal("350"),
    )
    notice = svc.notice_issue(
        notice=notice, actor=smo_user, issued_on=dt.date(2026, 3, 3)
    )
    assert notice.fine_tier == 1
    assert "1 + 0 = 1" in notice.fine_computation


def test_two_people_issuing_the_same_draft_one_wins(draft_notice, smo_user):
    from cases.services import CaseChangedError

    stale = NoticeOfViolation.objects.get(pk=draft_notice.pk)
    svc.notice_issue(notice=draft_notice, actor=smo_user)
    with pytest.raises((Refused, CaseChangedError)):
        svc.notice_issue(notice=stale, actor=smo_user)
    assert NoticeOfViolation.objects.get(pk=draft_notice.pk).deadlines().count() == 2
