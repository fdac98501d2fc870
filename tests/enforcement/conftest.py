"""Fixtures for enforcement: a case with a confirmed violation, its parties, and
notices/appeals in each state, built through the services (never by setting a
status by hand) so each fixture is a state the system can reach."""

import datetime as dt
from decimal import Decimal

import pytest

from cases.models import Case, CaseParty, CaseStatus, Party, Premises
from enforcement.models import RequirementKind
from enforcement.services import appeals as appeal_services
from enforcement.services import notices as notice_services


@pytest.fixture
def owner(db):
    return Party.objects.create(
        name="Pat Owner", mailing_address="12 Shore Road\nPoquott, NY 11733"
    )


@pytest.fixture
def agent(db):
    return Party.objects.create(
        name="Agent LLC", kind=Party.Kind.ENTITY, mailing_address="1 Main St"
    )


@pytest.fixture
def confirmed_case(db, owner, agent):
    premises = Premises.objects.create(address="12 Shore Road")
    case = Case.objects.create(
        number="MS4-1999-0001",
        source="web",
        summary="Pool water to the storm drain",
        premises=premises,
        responsible_party=owner,
        status=CaseStatus.VIOLATION_CONFIRMED,
        violation_confirmed_on=dt.date(2026, 3, 2),
        violation_finding="Pool water pumped to the catch basin.",
    )
    CaseParty.objects.create(case=case, party=agent, role=CaseParty.Role.AGENT)
    return case


def draft(case, actor, **overrides):
    values = {
        "case": case,
        "actor": actor,
        "recipient": case.responsible_party,
        "violation_date": dt.date(2026, 3, 2),
        "findings": "Pool water discharged to the MS4.",
        "requirements": [
            (RequirementKind.CEASE_DESIST, "Stop pumping pool water."),
            (RequirementKind.ABATEMENT, "Clean the catch basin."),
        ],
        "remediation_days": 10,
    }
    values.update(overrides)
    return notice_services.notice_draft(**values)


@pytest.fixture
def draft_notice(confirmed_case, smo_user):
    return draft(confirmed_case, smo_user)


@pytest.fixture
def issued_notice(draft_notice, smo_user):
    return notice_services.notice_issue(
        notice=draft_notice, actor=smo_user, issued_on=dt.date(2026, 3, 3)
    )


@pytest.fixture
def appeal(issued_notice, clerk_user, owner):
    return appeal_services.appeal_file(
        notice=issued_notice,
        actor=clerk_user,
        appellant=owner,
        filed_on=dt.date(2026, 3, 10),
        grounds="The water was rain water.",
    )


def aware(y, m, d, h=19, minute=0):
    from django.utils import timezone

    return timezone.make_aware(dt.datetime(y, m, d, h, minute))


@pytest.fixture
def scheduled_appeal(appeal, clerk_user):
    appeal, _ = appeal_services.appeal_schedule_hearing(
        appeal=appeal,
        actor=clerk_user,
        hearing_at=aware(2026, 3, 24),
        location="Village Hall",
    )
    return appeal


FINE = Decimal("300")
