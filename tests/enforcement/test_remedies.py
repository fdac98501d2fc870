"""Corrective measures, nuisance abatement, injunction referral, suspension and
termination of access, alternative remedies: every edge, and R-REM-1."""

import datetime as dt
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from cases.models import Case, CaseKind, CaseStatus
from cases.services import Refused
from deadlines.models import Deadline
from enforcement import charges
from enforcement.models import (
    AlternativeKind,
    AlternativeStatus,
    CorrectiveStatus,
    InjunctionStatus,
    OffenseRecord,
    SuspensionStatus,
    TerminationStatus,
)
from enforcement.services import notices as notice_svc
from enforcement.services import remedies as svc

from .conftest import aware

pytestmark = pytest.mark.django_db
D = dt.date(2026, 4, 1)


@pytest.fixture
def not_complied(issued_notice, smo_user):
    return notice_svc.notice_record_noncompliance(notice=issued_notice, actor=smo_user)


@pytest.fixture
def corrective(not_complied, smo_user):
    return svc.corrective_request_access(
        notice=not_complied, actor=smo_user, request_letter_on=dt.date(2026, 3, 20)
    )


def step(obj, name, actor, **fields):
    return svc.remedy_step(obj=obj, transition=name, actor=actor, **fields)


def test_corrective_measures_need_a_notice_not_complied_with(issued_notice, smo_user):
    with pytest.raises(Refused, match="non-compliance"):
        svc.corrective_request_access(
            notice=issued_notice, actor=smo_user, request_letter_on=D
        )


def test_access_refused_warrant_order_work_invoice_paid(corrective, smo_user):
    with pytest.raises(Refused, match="owner's answer"):
        step(corrective, "record_access_refused", smo_user)
    a = step(corrective, "record_access_refused", smo_user, response_on=D)
    assert a.status == CorrectiveStatus.ACCESS_REFUSED
    with pytest.raises(Refused, match="not possible"):
        step(a, "record_work", smo_user)
    with pytest.raises(Refused, match="court"):
        step(a, "record_warrant", smo_user, warrant_court="")
    a = step(
        a,
        "record_warrant",
        smo_user,
        warrant_court="Suffolk County Supreme Court",
        warrant_applied_on=D,
        warrant_issued_on=dt.date(2026, 4, 3),
    )
    a = step(
        a,
        "record_order",
        smo_user,
        order_court="Suffolk",
        order_on=dt.date(2026, 4, 6),
        order_terms="Abate.",
    )
    a = step(
        a,
        "record_work",
        smo_user,
        performed_by="contractor",
        performer_name="ACME",
        work_description="Basin cleaned",
        work_completed_on=dt.date(2026, 4, 8),
    )
    with pytest.raises(Refused, match="itemize"):
        step(a, "invoice", smo_user)
    svc.cost_item_add(
        remedy=a,
        actor=smo_user,
        description="Vacuum truck",
        amount=Decimal("400"),
        incurred_on=dt.date(2026, 4, 8),
    )
    svc.cost_item_add(
        remedy=a,
        actor=smo_user,
        description="Disposal",
        amount=Decimal("100"),
        incurred_on=dt.date(2026, 4, 8),
    )
    # R-COR-2: the invoice is the total of the costs, numbered by the office.
    a = step(a, "invoice", smo_user)
    assert a.status == CorrectiveStatus.INVOICED
    assert a.invoice_amount == Decimal("500")
    assert a.invoice_number == f"INV-CM-{a.pk}"
    assert a.invoiced_on == timezone.localdate()
    with pytest.raises(Refused, match="invoiced"):
        svc.cost_item_add(
            remedy=a,
            actor=smo_user,
            description="late",
            amount=Decimal("1"),
            incurred_on=D,
        )
    a = step(a, "record_payment", smo_user, **_paid(Decimal("500")))
    assert a.status == CorrectiveStatus.PAID
    assert a.paid_on == timezone.localdate()


def _paid(amount, **more):
    return {
        "paid_on": timezone.localdate(),
        "amount": amount,
        "method": "check",
        "reference": "1042",
        **more,
    }


def test_access_granted_goes_straight_to_the_work(corrective, smo_user, clerk_user):
    with pytest.raises(Refused, match="role"):
        step(corrective, "record_access_granted", clerk_user, response_on=D)
    a = step(corrective, "record_access_granted", smo_user, response_on=D)
    assert a.status == CorrectiveStatus.ACCESS_GRANTED
    with pytest.raises(Refused, match="not possible"):
        step(a, "record_warrant", smo_user)


def test_a_date_in_the_future_is_refused_and_nothing_saved(corrective, smo_user):
    with pytest.raises(ValidationError):
        step(
            corrective,
            "record_access_granted",
            smo_user,
            response_on=timezone.localdate() + dt.timedelta(days=3),
        )
    corrective.refresh_from_db()
    assert corrective.status == CorrectiveStatus.ACCESS_REQUESTED
    assert corrective.response_on is None


def test_nuisance_abatement_with_its_cost(confirmed_case, smo_user):
    n = svc.nuisance_declare(
        case=confirmed_case,
        actor=smo_user,
        condition_description="Sewage pooling",
        declared_on=D,
    )
    confirmed_case.refresh_from_db()
    assert confirmed_case.status == CaseStatus.ENFORCEMENT
    with pytest.raises(Refused, match="who did the work"):
        step(n, "record_abatement", smo_user)
    n = step(
        n,
        "record_abatement",
        smo_user,
        performed_by="village",
        work_description="Pumped out",
        work_completed_on=D,
    )
    svc.cost_item_add(
        remedy=n,
        actor=smo_user,
        description="Pump",
        amount=Decimal("250"),
        incurred_on=D,
    )
    n = step(n, "invoice", smo_user)
    assert (n.invoice_number, n.invoice_amount) == (f"INV-NA-{n.pk}", Decimal(250))
    with pytest.raises(ValidationError, match="date of the payment"):
        step(n, "record_payment", smo_user)
    n = step(n, "record_payment", smo_user, **_paid(Decimal("100")))
    assert n.status == "partly_paid"
    assert "$150.00 of invoice" in svc.step_words(n, "record_payment")
    with pytest.raises(ValidationError, match=r"more than the \$150.00"):
        step(n, "record_payment", smo_user, **_paid(Decimal("200")))
    assert step(n, "record_payment", smo_user, **_paid(Decimal("150"))).status == (
        "paid"
    )
    assert len(charges.remedy_payments(n)) == 2


def test_injunction_referral_edges(confirmed_case, smo_user):
    r = svc.injunction_refer(
        case=confirmed_case,
        actor=smo_user,
        kind="permanent",
        relief="restrain",
        referred_on=D,
        grounds="Repeated.",
    )
    with pytest.raises(Refused, match="not possible"):
        step(r, "record_granted", smo_user, decided_on=D, outcome_note="x")
    r = step(r, "record_petition", smo_user, court="Supreme Court", petition_filed_on=D)
    with pytest.raises(Refused, match="decision"):
        step(r, "record_denied", smo_user)
    r = step(r, "record_granted", smo_user, decided_on=D, outcome_note="Granted.")
    assert r.status == InjunctionStatus.GRANTED


def test_injunction_withdrawal_needs_a_reason(confirmed_case, smo_user):
    r = svc.injunction_refer(
        case=confirmed_case,
        actor=smo_user,
        kind="permanent",
        relief="compel",
        referred_on=D,
        grounds="x",
    )
    with pytest.raises(Refused, match="why"):
        step(r, "withdraw", smo_user)
    assert step(r, "withdraw", smo_user, outcome_note="Complied").status == "withdrawn"


def test_remedies_need_a_confirmed_violation(confirmed_case, smo_user):
    Case.objects.filter(pk=confirmed_case.pk).update(status=CaseStatus.INVESTIGATING)
    confirmed_case.refresh_from_db()
    with pytest.raises(Refused, match="confirmed violation"):
        svc.nuisance_declare(
            case=confirmed_case,
            actor=smo_user,
            condition_description="x",
            declared_on=D,
        )


def test_remedies_are_cumulative_on_one_case(corrective, confirmed_case, smo_user):
    svc.nuisance_declare(
        case=confirmed_case, actor=smo_user, condition_description="x", declared_on=D
    )
    svc.injunction_refer(
        case=confirmed_case,
        actor=smo_user,
        kind="preliminary",
        relief="compel",
        referred_on=D,
        grounds="x",
    )
    from enforcement.selectors import case_enforcement

    data = case_enforcement(confirmed_case)
    assert len(data["notices"]) == 1
    assert all(
        len(data["remedies"][k]) == 1 for k in ("corrective", "nuisance", "injunction")
    )


def test_emergency_suspension_opens_the_notice_of_reasons_deadline(
    confirmed_case, smo_user, owner, settings
):
    settings.SUSPENSION_NOTICE_BUSINESS_DAYS = 2
    # Friday 2026-04-03 evening: two business days later is Tuesday 2026-04-07.
    s = svc.suspension_start(
        case=confirmed_case,
        actor=smo_user,
        party=owner,
        suspended_at=aware(2026, 4, 3, 18),
        reasons="Oil sheen",
    )
    deadline = svc.open_deadline_for(s, "R-SUS-1")
    assert deadline.due_date == dt.date(2026, 4, 7)
    with pytest.raises(Refused, match="notice of reasons"):
        step(s, "record_notice", smo_user)
    with pytest.raises(Refused, match="not possible"):
        step(s, "lift", smo_user, lifted_on=D, lifted_reason="x")
    s = step(
        s,
        "record_notice",
        smo_user,
        notice_sent_on=dt.date(2026, 4, 6),
        notice_method="personal",
    )
    deadline.refresh_from_db()
    assert deadline.status == Deadline.Status.MET
    s = step(
        s, "lift", smo_user, lifted_on=dt.date(2026, 4, 10), lifted_reason="Stopped"
    )
    assert s.status == SuspensionStatus.LIFTED


def test_the_suspension_notice_period_follows_the_setting(
    confirmed_case, smo_user, owner, settings
):
    settings.SUSPENSION_NOTICE_BUSINESS_DAYS = 5
    s = svc.suspension_start(
        case=confirmed_case,
        actor=smo_user,
        party=owner,
        suspended_at=aware(2026, 4, 3, 18),
        reasons="x",
    )
    assert svc.open_deadline_for(s, "R-SUS-1").due_date == dt.date(2026, 4, 10)


@pytest.fixture
def termination(confirmed_case, smo_user, owner):
    return svc.termination_propose(
        case=confirmed_case,
        actor=smo_user,
        party=owner,
        notice_on=D,
        reasons="Illicit connection",
    )


def test_termination_petition_hearing_and_grant(termination, smo_user):
    t = step(termination, "terminate", smo_user, terminated_on=dt.date(2026, 4, 5))
    with pytest.raises(Refused, match="petition"):
        step(t, "record_petition", smo_user)
    t = step(
        t,
        "record_petition",
        smo_user,
        petition_on=dt.date(2026, 4, 6),
        petition_grounds="Fixed",
    )
    t = step(t, "schedule_hearing", smo_user, hearing_at=aware(2026, 4, 9))
    with pytest.raises(Refused, match="ceased"):
        step(
            t,
            "grant_access",
            smo_user,
            decided_on=dt.date(2026, 4, 9),
            discharge_ceased=True,
            determination="ok",
        )
    t = step(
        t,
        "grant_access",
        smo_user,
        decided_on=dt.date(2026, 4, 9),
        discharge_ceased=True,
        recurrence_prevented=True,
        determination="Fixed.",
    )
    assert t.status == TerminationStatus.REINSTATED


def test_termination_denied_in_writing(termination, smo_user):
    t = step(
        termination, "record_petition", smo_user, petition_on=D, petition_grounds="x"
    )
    t = step(t, "schedule_hearing", smo_user, hearing_at=aware(2026, 4, 9))
    with pytest.raises(Refused, match="in writing"):
        step(t, "deny_access", smo_user, decided_on=dt.date(2026, 4, 9))
    t = step(
        t,
        "deny_access",
        smo_user,
        decided_on=dt.date(2026, 4, 9),
        determination="Likely to recur.",
    )
    assert t.status == TerminationStatus.DENIED


def test_termination_withdrawn_only_while_proposed(termination, smo_user):
    t = step(termination, "withdraw", smo_user, determination="Ceased")
    assert t.status == TerminationStatus.WITHDRAWN
    with pytest.raises(Refused, match="not possible"):
        step(t, "terminate", smo_user, terminated_on=D)


def test_unauthorized_reinstatement_opens_a_new_case_as_an_offense(
    termination, smo_user, owner
):
    with pytest.raises(Refused, match="not terminated"):
        svc.termination_record_unauthorized_reinstatement(
            termination=termination, actor=smo_user, observed_on=D, description="x"
        )
    t = step(termination, "terminate", smo_user, terminated_on=D)
    record = svc.termination_record_unauthorized_reinstatement(
        termination=t,
        actor=smo_user,
        observed_on=dt.date(2026, 4, 12),
        description="Plug removed",
    )
    assert record.new_case.kind == CaseKind.UNAUTHORIZED_REINSTATEMENT
    assert record.new_case.responsible_party == owner
    offense = OffenseRecord.objects.get(case=record.new_case)
    assert offense.party == owner and offense.committed_on == dt.date(2026, 4, 12)


@pytest.fixture
def proposal(confirmed_case, smo_user, owner):
    return svc.alternative_propose(
        case=confirmed_case,
        actor=smo_user,
        party=owner,
        violation_date=D,
        unintentional=True,
        minimal_damage=True,
        acted_quickly=True,
        cooperated=True,
        findings="First time; cleaned at once.",
        kinds=[
            (AlternativeKind.WORKSHOP, "May workshop"),
            (AlternativeKind.CLEANUP, ""),
        ],
    )


def test_sign_offs_only_by_their_roles_in_order(
    proposal, smo_user, attorney_user, inspector_user, clerk_user
):
    for wrong in (smo_user, inspector_user, clerk_user):
        with pytest.raises(Refused):
            step(proposal, "recommend", wrong)
    with pytest.raises(Refused, match="not possible"):
        step(proposal, "concur", inspector_user)
    r = step(proposal, "recommend", attorney_user, recommendation_note="Agree.")
    assert r.recommended_by == attorney_user and r.recommended_at is not None
    assert "No previous violation" in r.history_at_recommendation
    for wrong in (smo_user, attorney_user):
        with pytest.raises(Refused, match="role"):
            step(r, "concur", wrong)
    r = step(r, "concur", inspector_user)
    assert r.concurred_by == inspector_user and r.status == AlternativeStatus.CONCURRED


def test_criterion_two_is_computed_from_the_offense_history(
    proposal, attorney_user, owner
):
    OffenseRecord.objects.create(
        party=owner,
        committed_on=dt.date(2019, 1, 1),
        description="Old discharge",
        outcome="convicted",
    )
    label, met, how = proposal.criteria()[1]
    assert not met and "Jan 1, 2019" in how
    with pytest.raises(Refused, match="five criteria"):
        step(proposal, "recommend", attorney_user)


def test_a_failed_typed_criterion_blocks_the_recommendation(proposal, attorney_user):
    type(proposal).objects.filter(pk=proposal.pk).update(cooperated=False)
    proposal.refresh_from_db()
    with pytest.raises(Refused, match="five criteria"):
        step(proposal, "recommend", attorney_user)


def test_declines_by_each_signer(
    proposal, attorney_user, inspector_user, confirmed_case, smo_user, owner
):
    with pytest.raises(Refused, match="reason"):
        step(proposal, "decline_recommendation", attorney_user)
    with pytest.raises(Refused, match="role"):
        step(proposal, "decline_recommendation", inspector_user, declined_reason="x")
    d = step(
        proposal,
        "decline_recommendation",
        attorney_user,
        declined_reason="Penalty fits.",
    )
    assert d.status == AlternativeStatus.DECLINED and d.declined_by == attorney_user


def test_completion_needs_every_remedy_done(
    proposal, attorney_user, inspector_user, smo_user
):
    r = step(proposal, "recommend", attorney_user)
    with pytest.raises(Refused):
        svc.alternative_item_complete(
            item=r.items.first(), actor=smo_user, completed_on=D
        )
    r = step(r, "concur", inspector_user)
    with pytest.raises(Refused, match="every remedy"):
        step(r, "complete", smo_user)
    for item in r.items.all():
        svc.alternative_item_complete(item=item, actor=smo_user, completed_on=D)
    assert step(r, "complete", smo_user).status == AlternativeStatus.COMPLETED


def test_concurrent_steps_on_one_remedy_one_wins(corrective, smo_user):
    from cases.services import CaseChangedError

    stale = type(corrective).objects.get(pk=corrective.pk)
    step(corrective, "record_access_granted", smo_user, response_on=D)
    with pytest.raises((Refused, CaseChangedError)):
        svc.remedy_step(
            obj=stale,
            transition="record_access_refused",
            actor=smo_user,
            expected_status=stale.status,
            response_on=D,
        )


def test_demo_is_idempotent(smo_user, clerk_user):
    import io

    from enforcement import demo
    from enforcement.models import Appeal, NoticeOfViolation

    demo.load(io.StringIO())
    demo.load(io.StringIO())
    assert NoticeOfViolation.objects.filter(status="issued").count() == 1
    assert Appeal.objects.filter(status="hearing_scheduled").count() == 1
