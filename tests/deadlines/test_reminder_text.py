"""What a reminder says: the business days really left, not the step of the
schedule that chose the day (a deadline three business days away reached the
five-day step and was announced as "Due in 5 business day(s)")."""

import datetime as dt
import re

import pytest
from django.core import mail

from deadlines import reminders
from deadlines.business_days import BusinessCalendar
from deadlines.models import Reminder
from kernel.models import CaseEvent

from .conftest import deadline_on

pytestmark = pytest.mark.django_db

THU = dt.date(2026, 12, 3)  # Thursday
TUE = dt.date(2026, 12, 8)  # three business days later: Fri 4, Mon 7, Tue 8
CAL = BusinessCalendar()


@pytest.fixture(autouse=True)
def _schedule(settings):
    settings.STAFF_DIGEST_HOUR = 24
    settings.REMINDER_BUSINESS_DAYS_BEFORE = [5, 1, 0]


def test_business_days_until_counts_the_days_after_today_up_to_the_due_day():
    assert CAL.business_days_until(THU, TUE) == 3
    assert CAL.business_days_until(THU, dt.date(2026, 12, 4)) == 1  # Friday
    assert CAL.business_days_until(dt.date(2026, 12, 4), TUE) == 2  # no weekend
    assert CAL.business_days_until(THU, THU) == 0
    assert CAL.business_days_until(TUE, THU) == 0  # after the due day
    # Christmas Friday 2026-12-25 is not counted.
    assert CAL.business_days_until(dt.date(2026, 12, 24), dt.date(2026, 12, 28)) == 1
    closed = BusinessCalendar({dt.date(2026, 12, 7): "storm"})
    assert closed.business_days_until(THU, TUE) == 2


def test_business_days_until_lives_in_the_calendar_only():
    assert not hasattr(reminders, "business_days_until")


def _subjects():
    return {m.to[0]: m.subject for m in mail.outbox}


def test_three_business_days_left_says_three_to_the_discharger_and_the_smo(
    smo_user, make_case
):
    case = make_case(officer=smo_user)
    deadline = deadline_on(
        TUE, case=case, responsible="discharger", notify_email="owner@example.org"
    )
    reminders.sweep_reminders(today=THU)
    sent = set(Reminder.objects.values_list("kind", "recipient"))
    # The five-day step of the schedule is the one reached on Thursday...
    assert sent == {("before-5", smo_user.email), ("before-5", "owner@example.org")}
    for reminder in Reminder.objects.all():
        assert reminders.deliver_reminder(reminder.pk, today=THU) is True
    subjects = _subjects()
    # ...but what the e-mails say is the count of business days left.
    for address in (smo_user.email, "owner@example.org"):
        assert f"Due in 3 business days: {deadline.label}" in subjects[address]
        assert "5 business" not in subjects[address]
        assert "day(s)" not in subjects[address]
    staff_body = next(m.body for m in mail.outbox if m.to == [smo_user.email])
    assert staff_body.startswith(f"Due in 3 business days: {deadline.label}")
    # Dates in words for staff and the discharger alike (issue 26).
    for message in mail.outbox:
        assert message.subject.endswith(", Tuesday, December 8, 2026")
        assert "Tuesday, December 8, 2026" in message.body
        assert not re.search(r"\d{4}-\d{2}-\d{2}", message.subject + message.body)
    # The chronology says the same.
    events = CaseEvent.objects.filter(case=case, kind="reminder")
    assert events.count() == 2
    assert all("(due in 3 business days)" in e.summary for e in events)


def test_one_business_day_left_is_singular(smo_user):
    deadline_on(dt.date(2026, 12, 4))  # Friday
    reminders.sweep_reminders(today=THU)
    [reminder] = Reminder.objects.all()
    assert reminder.kind == "before-1"
    reminders.deliver_reminder(reminder.pk, today=THU)
    [message] = mail.outbox
    assert "Due in 1 business day: " in message.subject
    assert "business days" not in message.subject


def test_the_due_day_says_due_today(smo_user):
    deadline_on(THU, responsible="discharger", notify_email="owner@example.org")
    reminders.sweep_reminders(today=THU)
    for reminder in Reminder.objects.all():
        assert reminder.kind == "due-today"
        reminders.deliver_reminder(reminder.pk, today=THU)
    assert len(mail.outbox) == 2
    for subject in _subjects().values():
        assert "Due today: " in subject and "business day" not in subject


def test_a_reminder_sent_late_counts_from_the_day_it_is_sent(smo_user):
    # Chosen on Thursday (five-day step), handed over only on Monday after an
    # outage: one business day is left then.
    deadline_on(TUE)
    reminders.sweep_reminders(today=THU)
    [reminder] = Reminder.objects.all()
    reminders.deliver_reminder(reminder.pk, today=dt.date(2026, 12, 7))
    assert "Due in 1 business day: " in mail.outbox[0].subject


def test_an_overdue_reminder_says_overdue(smo_user):
    deadline_on(dt.date(2026, 12, 2))
    reminders.sweep_reminders(today=THU)
    [reminder] = Reminder.objects.all()
    assert reminder.kind == "overdue"
    reminders.deliver_reminder(reminder.pk, today=THU)
    assert "Overdue: " in mail.outbox[0].subject


@pytest.mark.parametrize(
    ("due", "words"),
    [
        (TUE, "Due in 3 business days"),
        (dt.date(2026, 12, 4), "Due in 1 business day"),
        (dt.date(2026, 12, 7), "Due in 2 business days"),
        (THU, "Due today"),
        (dt.date(2026, 12, 2), "Overdue"),
    ],
)
def test_due_words(due, words):
    assert reminders.due_words(deadline_on(due), today=THU, cal=CAL) == words
