""" "Overdue" and "due this week" have one definition, engine.due_window: the
model (Deadline.is_overdue / is_due_soon / has_passed), the queries (selectors
overdue / due_this_week), the dashboard and digest, the reminder sweep, the
status badge, the appeal list and the notice and spill guards all follow it.

The proof: change the definition (a day of grace) and every one of them moves;
a copy that computed "due_date < today" by itself would not."""

import datetime as dt
import re
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.template.loader import render_to_string

from deadlines import engine, reminders, selectors
from deadlines.business_days import BusinessCalendar
from deadlines.models import Deadline
from enforcement.models import NoticeOfViolation
from inspections.models import SpillNotification
from tests.project import APPS

from .conftest import deadline_on

pytestmark = pytest.mark.django_db

ON = dt.date(2026, 12, 3)  # Thursday
ROOT = Path(__file__).resolve().parents[2]


def _days(*offsets):
    return {n: deadline_on(ON + dt.timedelta(days=n), purpose=str(n)) for n in offsets}


def test_the_model_and_the_queries_agree_on_every_day_around_today():
    rows = _days(-8, -1, 0, 1, 6, 7, 8)
    everything = Deadline.objects.all()
    overdue = set(selectors.overdue(everything, ON))
    week = set(selectors.due_this_week(everything, ON))
    for n, d in rows.items():
        assert d.is_overdue(ON) == (d in overdue) == (n < 0), n
        assert d.is_due_soon(ON) == (d in week) == (0 <= n < 7), n
        assert d.has_passed(ON) == (n < 0), n


def test_a_closed_deadline_is_past_but_never_overdue():
    d = deadline_on(ON - dt.timedelta(days=1))
    Deadline.objects.filter(pk=d.pk).update(status=Deadline.Status.MET)
    d.refresh_from_db()
    assert d.has_passed(ON) and not d.is_overdue(ON) and not d.is_due_soon(ON)
    assert not selectors.overdue(Deadline.objects.all(), ON).exists()


@pytest.fixture
def a_day_of_grace(monkeypatch):
    """The definition changed: due yesterday is not overdue yet."""

    def window(on):
        return on - dt.timedelta(days=1), on + dt.timedelta(days=6)

    monkeypatch.setattr(engine, "due_window", window)


def _appeal_row(hearing_by):
    appeal = SimpleNamespace(
        pk=1,
        appellant=SimpleNamespace(name="Pat Owner"),
        notice=SimpleNamespace(case=SimpleNamespace(number="MS4-2026-0001")),
        filed_on=ON,
        is_late=False,
        hearing_by=hearing_by,
    )
    return render_to_string(
        "enforcement/_appeal_row.html", {"a": appeal, "section": "open"}
    )


def test_every_user_of_overdue_follows_the_engines_definition(
    smo_user, a_day_of_grace, monkeypatch
):
    from django.utils import timezone

    monkeypatch.setattr(timezone, "localdate", lambda *a, **k: ON)
    yesterday = deadline_on(ON - dt.timedelta(days=1), purpose="y")
    before = deadline_on(ON - dt.timedelta(days=2), purpose="b")
    everything = Deadline.objects.all()

    # the model
    assert not yesterday.is_overdue() and yesterday.is_due_soon()
    assert before.is_overdue() and before.has_passed()
    # the queries, the staff list's filter and the dashboard / digest
    assert list(selectors.overdue(everything, ON)) == [before]
    assert yesterday in selectors.due_this_week(everything, ON)
    assert list(selectors.filter_deadlines(everything, show="overdue")) == [before]
    panels = selectors.dashboard_panels(smo_user, ON)
    assert panels["overdue"] == [before]
    assert yesterday in panels["due_this_week"]
    # the reminder sweep and what the e-mail says
    cal = BusinessCalendar()
    kind = reminders.reminder_kind(yesterday, today=ON, cal=cal, schedule=[0, 1, 5])
    assert kind != reminders.OVERDUE
    assert reminders.due_words(before, today=ON, cal=cal) == "Overdue"
    assert reminders.due_words(yesterday, today=ON, cal=cal) != "Overdue"
    # the status badge of the deadline pages and the case panel
    assert "Overdue" not in render_to_string("deadlines/_status.html", {"d": yesterday})
    assert "Overdue" in render_to_string("deadlines/_status.html", {"d": before})
    # the clerk's appeal list ("past" the hearing-by date)
    assert "past</span>" not in _appeal_row(yesterday)
    assert "past</span>" in _appeal_row(before)
    # the notice's "compliance deadline has passed" guard
    notice = NoticeOfViolation()
    notice.compliance_deadline = lambda: yesterday
    assert not notice.compliance_deadline_passed()
    notice.compliance_deadline = lambda: before
    assert notice.compliance_deadline_passed()
    # the spill's "written confirmation overdue" guard
    assert not SpillNotification(confirmation_deadline=yesterday).confirmation_overdue()
    assert SpillNotification(confirmation_deadline=before).confirmation_overdue()


# Where a due date may be compared by hand: the engine (the definition), the
# selectors (its bounds as a query), the reminder sweep's look-ahead horizon and
# the deadlines whose period spans a new office closure (neither is "overdue").
ALLOWED = {
    "deadlines/engine.py",
    "deadlines/selectors.py",
    "deadlines/reminders.py:due_date__lt=horizon",
    "deadlines/services.py:event_date__lt=day, due_date__gte=day",
}
COMPARISON = re.compile(r"due_date\s*[<>]|due_date__(lt|lte|gt|gte)\b")


def test_no_copy_of_the_definition_is_left():
    found = []
    for folder in (*APPS, "templates"):  # each app's templates/ is in its folder
        for path in (ROOT / folder).rglob("*"):
            if (
                path.suffix not in {".py", ".html", ".txt"}
                or "migrations" in path.parts
            ):
                continue
            rel = path.relative_to(ROOT).as_posix()
            if rel in ALLOWED:
                continue
            for line in path.read_text(encoding="utf-8").splitlines():
                if COMPARISON.search(line) and not any(
                    a.startswith(rel + ":") and a.split(":", 1)[1] in line
                    for a in ALLOWED
                ):
                    found.append(f"{rel}: {line.strip()}")
    assert found == [], "compare with Deadline.is_overdue / selectors.overdue"
