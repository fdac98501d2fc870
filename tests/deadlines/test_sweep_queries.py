"""The reminder sweep's queries do not grow with the reminders it makes (issue 28):
200 reminders due, with their outbox rows, in at most 50 queries, and as many
queries as for 20."""

import datetime as dt
import threading

import pytest
from django.contrib.contenttypes.models import ContentType
from django.db import connection, connections
from django.test.utils import CaptureQueriesContext

from cases.services import case_open
from deadlines import reminders
from deadlines.models import Reminder
from outbox import services as outbox
from outbox.models import OutgoingMessage
from portal.services import portal_issue, reminders_set
from tests.enforcement.conftest import (  # noqa: F401 (fixtures)
    agent,
    confirmed_case,
    draft_notice,
    issued_notice,
    owner,
)

from .conftest import deadline_on

pytestmark = pytest.mark.django_db

SWEEP_QUERY_BUDGET = 50
THU = dt.date(2026, 12, 10)


@pytest.fixture(autouse=True)
def _no_digest_catch_up(settings):
    settings.STAFF_DIGEST_HOUR = 24  # the digest's own tests are elsewhere
    settings.REMINDER_BUSINESS_DAYS_BEFORE = [5, 1, 0]


@pytest.fixture
def party_asked_for_reminders(issued_notice, confirmed_case, owner, smo_user):  # noqa: F811
    """The notice's party asked reminders of their dates on the respondent's
    page, so the sweep also looks up that address."""
    access = portal_issue(case=confirmed_case, party=owner, actor=smo_user)
    reminders_set(access=access, address="198.51.100.20", email="pat@example.org")
    return (
        issued_notice.deadlines()
        .filter(responsible="discharger")
        .order_by("due_date")
        .first()
    )


def _sweep(day, deadlines_due: int, officer, django_assert_max_num_queries):
    """Sweep on `day` with `deadlines_due` more discharger duties due that day
    (each reminds the case's officer and the discharger: two reminders)."""
    case = case_open(
        actor=None, source="web", summary="Oily discharge", assigned_officer=officer
    )
    for i in range(deadlines_due):
        deadline_on(
            day,
            case=case,
            responsible="discharger",
            notify_email=f"owner{i}@example.org",
            purpose=f"p{i}",
        )
    ContentType.objects.clear_cache()  # both sweeps start cold
    with django_assert_max_num_queries(SWEEP_QUERY_BUDGET) as sweep:
        result = reminders.sweep_reminders(today=day)
    return result["created"], [q["sql"] for q in sweep.captured_queries]


def _statements(queries: list[str]) -> int:
    """How many statements the sweep made, a bulk insert counted once: SQLite
    takes at most 999 parameters a statement, so there Django writes 200 messages
    in batches, within a savepoint (`bulk_batch_size`); elsewhere in one."""
    if connection.vendor != "sqlite":
        return len(queries)
    kept = []
    for sql in queries:
        if sql.startswith(("SAVEPOINT", "RELEASE SAVEPOINT")):
            continue
        into = sql.split(" (", 1)[0] if sql.startswith("INSERT") else None
        if into and kept and kept[-1].split(" (", 1)[0] == into:
            continue  # the same insert's next batch
        kept.append(sql)
    return len(kept)


def test_200_reminders_take_no_more_queries_than_20(
    party_asked_for_reminders, smo_user, django_assert_max_num_queries
):
    day = party_asked_for_reminders.due_date
    few, few_queries = _sweep(day, 10, smo_user, django_assert_max_num_queries)
    assert Reminder.objects.filter(recipient="pat@example.org").exists()
    assert few >= 20
    OutgoingMessage.objects.filter(kind="reminder").delete()
    Reminder.objects.all().delete()

    # the first ten are due still: a hundred in all
    many, many_queries = _sweep(day, 90, smo_user, django_assert_max_num_queries)
    assert many >= 200 and many == few + 180
    assert Reminder.objects.filter(recipient="pat@example.org").exists()
    # every reminder has exactly one outbox row
    assert OutgoingMessage.objects.filter(kind="reminder").count() == many
    assert _statements(many_queries) == _statements(few_queries)


@pytest.mark.django_db(transaction=True)
def test_two_sweeps_at_once_make_each_reminder_and_its_message_once(
    smo_user, monkeypatch
):
    if not connection.features.has_select_for_update_skip_locked:
        pytest.skip("the waiting insert is PostgreSQL's")
    case = case_open(
        actor=None, source="web", summary="Oily discharge", assigned_officer=smo_user
    )
    deadline_on(THU, case=case)
    deadline_on(THU, case=case, purpose="b")
    inserted, release = threading.Event(), threading.Event()
    write_messages = outbox.message_queue_many

    def held_open(**kwargs):
        inserted.set()  # the first sweep's rows are written, not yet committed
        release.wait(10)
        return write_messages(**kwargs)

    results = {}

    def sweep(name):
        try:
            results[name] = reminders.sweep_reminders(today=THU)["created"]
        finally:
            connections.close_all()

    with monkeypatch.context() as hold:
        hold.setattr(outbox, "message_queue_many", held_open)
        first = threading.Thread(target=sweep, args=("first",))
        first.start()
        assert inserted.wait(10)
    second = threading.Thread(target=sweep, args=("second",))
    second.start()  # its insert waits for the first sweep's commit, then skips
    second.join(0.5)
    release.set()
    first.join()
    second.join()
    assert results == {"first": 2, "second": 0}
    assert Reminder.objects.count() == 2
    assert OutgoingMessage.objects.filter(kind="reminder").count() == 2


def test_the_days_digests_take_as_many_queries_for_six_staff_as_for_two(
    smo_user, clerk_user, settings
):
    from deadlines.models import StaffDigest
    from kernel.roles import Role
    from tests.conftest import make_user

    settings.STAFF_DIGEST_HOUR = 0

    def sweep(day):
        ContentType.objects.clear_cache()  # both sweeps start cold
        with CaptureQueriesContext(connection) as ctx:
            made = reminders.sweep_reminders(today=day)["digests"]
        return made, len(ctx.captured_queries)

    two = sweep(THU)
    for n in range(4):
        make_user(f"officer{n}", Role.SMO)
    six = sweep(THU + dt.timedelta(days=1))
    assert (two[0], six[0]) == (2, 6)
    assert two[1] == six[1] <= SWEEP_QUERY_BUDGET
    assert OutgoingMessage.objects.filter(kind="digest").count() == 8
    assert StaffDigest.objects.count() == 8
