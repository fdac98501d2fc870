# ruff: noqa: F401, F811 (the enforcement fixtures, imported for this package)
"""Fixtures of the ledger's tests: a notice issued with a fine, its charge; an
invoice of corrective measures, its charge. Built through the services."""

import datetime as dt
from decimal import Decimal

import pytest

from enforcement.models import RequirementKind
from enforcement.services import notices as notice_services
from ledger.models import Charge, ChargeKind
from tests.enforcement.conftest import (
    agent,
    confirmed_case,
    draft,
    draft_notice,
    issued_notice,
    owner,
)

ISSUED = dt.date(2026, 3, 3)


@pytest.fixture
def fined_notice(confirmed_case, smo_user):
    notice = draft(
        confirmed_case,
        smo_user,
        requirements=[
            (RequirementKind.CEASE_DESIST, "Stop pumping pool water."),
            (RequirementKind.FINE, "Pay the fine."),
        ],
        remediation_days=None,
        proposed_fine=Decimal("250.00"),
    )
    return notice_services.notice_issue(notice=notice, actor=smo_user, issued_on=ISSUED)


@pytest.fixture
def fine(fined_notice):
    return Charge.objects.get(notice=fined_notice, kind=ChargeKind.NOV_FINE)
