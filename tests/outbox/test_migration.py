"""The data migration 0017: reminders and digests left unsent before the outbox
become outbox rows, keeping when they were last handed to the broker."""

import datetime as dt

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("cases", "0016_sections_from_the_citation_table")]
AFTER = [("cases", "0017_outbox")]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.fixture(autouse=True)
def _back_to_the_latest_migrations():
    """Leave the database as every other test expects it: fully migrated."""
    yield
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())


def test_unsent_reminders_and_digests_become_pending_outbox_rows():
    old = _migrate(BEFORE)
    try:
        Deadline = old.get_model("cases", "Deadline")
        Reminder = old.get_model("cases", "Reminder")
        StaffDigest = old.get_model("cases", "StaffDigest")
        today = timezone.localdate()
        handed = timezone.now() - dt.timedelta(minutes=3)
        deadline = Deadline.objects.create(
            rule_id="R-SPL-4",
            label="Written confirmation",
            counts_from="the call",
            event_date=today,
            due_date=today,
            explanation="x",
            method="business_days",
            responsible="smo",
        )
        unsent = Reminder.objects.create(
            deadline=deadline,
            kind="due-today",
            recipient="smo@poquott.example",
            enqueued_at=handed,
        )
        Reminder.objects.create(
            deadline=deadline,
            kind="before-1",
            recipient="smo@poquott.example",
            sent_at=handed,
        )
        digest = StaffDigest.objects.create(day=today, recipient="x@poquott.example")
    finally:
        new = _migrate(AFTER)
    OutgoingMessage = new.get_model("cases", "OutgoingMessage")
    rows = {(m.kind, m.object_id): m for m in OutgoingMessage.objects.all()}
    assert set(rows) == {("reminder", unsent.pk), ("digest", digest.pk)}
    assert rows[("reminder", unsent.pk)].enqueued_at == handed
    assert rows[("reminder", unsent.pk)].status == "pending"
    assert rows[("digest", digest.pk)].recipient == "x@poquott.example"
