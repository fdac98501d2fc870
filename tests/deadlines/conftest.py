"""Helpers for the deadline tests: cases, deadlines on chosen dates, a clean
Redis queue and a way to wait for a real worker."""

import datetime as dt
import time

import pytest

from cases.services import case_open
from deadlines.models import Deadline


@pytest.fixture
def make_case(db):
    def make(officer=None, summary="Oily discharge at the outfall"):
        return case_open(
            actor=None, source="web", summary=summary, assigned_officer=officer
        )

    return make


def deadline_on(
    due: dt.date,
    *,
    case=None,
    rule_id="R-SPL-4",
    responsible="smo",
    assigned_to=None,
    notify_email="",
    purpose="",
    event_date=None,
):
    """A deadline row with a chosen due date (the sweep reads stored dates; the
    engine's arithmetic is pinned in test_engine.py)."""
    return Deadline.objects.create(
        case=case,
        rule_id=rule_id,
        label=f"{rule_id} duty",
        counts_from="the event",
        event_date=event_date or due - dt.timedelta(days=10),
        due_date=due,
        explanation=f"{rule_id} explanation.",
        method="business_days",
        responsible=responsible,
        assigned_to=assigned_to,
        notify_email=notify_email,
        purpose=purpose,
    )


def wait_for(predicate, what: str, timeout: float = 30.0):
    """Poll until `predicate()` is true; fail saying what never happened."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


@pytest.fixture
def clean_broker(transactional_db):
    """Start from an empty Redis queue so no other test's message is consumed."""
    from poquott_ms4.celery import app

    app.control.purge()
    yield app
    app.control.purge()
