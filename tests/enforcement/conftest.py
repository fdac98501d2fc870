"""Fixtures for enforcement: a case with a confirmed violation, its parties, and
notices/appeals in each state, built through the services (never by setting a
status by hand) so each fixture is a state the system can reach."""

import contextlib
import datetime as dt
from decimal import Decimal
from unittest import mock

import pytest
from django.utils import timezone

from cases.models import Case, CaseParty, CaseStatus, Party, Premises
from enforcement.document_kinds import EnforcementDocument
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
    # Pat Owner owns the premises and is the one the notices go to; corrective
    # measures ask the owner's permission (§ 132-15 A), so the owner is named.
    CaseParty.objects.create(case=case, party=owner, role=CaseParty.Role.OWNER)
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
    return dt.datetime(y, m, d, h, minute, tzinfo=timezone.get_current_timezone())


@contextlib.contextmanager
def village_day(day: dt.date):
    """The village's calendar stopped on `day`: `timezone.localdate()` (no
    argument, "today") answers `day`; a date of a given moment is unchanged.
    For records made on a day of the fixtures' past (a hearing may only be
    scheduled on or after the day it is scheduled, R-APL-2)."""
    real = timezone.localdate

    def localdate(value=None, timezone=None):
        return day if value is None else real(value, timezone)

    with mock.patch("django.utils.timezone.localdate", localdate):
        yield


def schedule_hearing(appeal, actor, hearing_at, *, on=None, location=""):
    """Schedule the hearing as the clerk did on `on` (default: the filing day)."""
    with village_day(on or appeal.filed_on):
        return appeal_services.appeal_schedule_hearing(
            appeal=appeal, actor=actor, hearing_at=hearing_at, location=location
        )


@pytest.fixture
def scheduled_appeal(appeal, clerk_user):
    # Scheduled on the day the appeal was filed (2026-03-10), for 2026-03-24.
    appeal, _ = schedule_hearing(
        appeal, clerk_user, aware(2026, 3, 24), location="Village Hall"
    )
    return appeal


FINE = Decimal("300")


def issued_notice_of_hearing(appeal, clerk):
    """The notice of hearing issued by the clerk and rendered (what the document
    worker does)."""
    from documents.services import document_render, issue_for

    document = issue_for(
        kind=EnforcementDocument.HEARING_NOTICE, source=appeal, actor=clerk
    )
    return document_render(document_id=document.pk)


def hearing_notice_sent(appeal, clerk, on: dt.date):
    """The clerk records the latest notice of hearing handed to the appellant."""
    from enforcement.models import Appeal
    from enforcement.services.meetings import hearing_notice_record_service

    return hearing_notice_record_service(
        appeal=Appeal.objects.get(pk=appeal.pk),
        actor=clerk,
        method="personal",
        served_on=on,
        sent_to="Pat Owner",
    )
