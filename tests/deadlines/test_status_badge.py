"""Every page shows a deadline's state with the one badge (deadlines/_status.html),
which asks the model's predicates (is_overdue through engine.due_window, is_open,
was_met, was_missed), never its status field."""

import datetime as dt

import pytest
from django.template.loader import render_to_string
from django.utils import timezone

from deadlines.models import Deadline
from kernel.humanize import human_date
from tests.visible import visible_text

from .conftest import deadline_on

pytestmark = pytest.mark.django_db


def _badge(template, d):
    return visible_text(render_to_string(template, {"deadlines": [d], "d": d}))


@pytest.mark.parametrize(
    "template", ["enforcement/_deadlines.html", "inspections/_deadlines.html"]
)
def test_key_dates_show_overdue_met_missed_and_waived_like_the_deadline_pages(
    template,
):
    today = timezone.localdate()
    late = deadline_on(today - dt.timedelta(days=1), purpose="late")
    assert "Overdue" in _badge(template, late)
    soon = deadline_on(today + dt.timedelta(days=3), purpose="soon")
    assert "Open" in _badge(template, soon)
    soon.status, soon.met_on = Deadline.Status.MET, today
    assert f"Met {human_date(today)}" in _badge(template, soon)
    late.status, late.met_on = Deadline.Status.MISSED, today
    assert f"Missed: done {human_date(today)}" in _badge(template, late)
    late.status = Deadline.Status.WAIVED
    assert "Waived" in _badge(template, late)
