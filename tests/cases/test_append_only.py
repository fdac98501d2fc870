"""The timeline is append-only: the model refuses, and PostgreSQL refuses too."""

import pytest
from django.db import DatabaseError, connection, transaction

from kernel.models import AppendOnlyError, CaseEvent
from kernel.timeline import record_event

from .factories import CaseFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(smo_user):
    with transaction.atomic():
        return record_event(
            case=CaseFactory(), actor=smo_user, kind="note", summary="Seen"
        )


def test_model_refuses_to_change_an_event(event):
    event.summary = "Rewritten"
    with pytest.raises(AppendOnlyError):
        event.save()
    with pytest.raises(AppendOnlyError):
        event.delete()
    with pytest.raises(AppendOnlyError):
        CaseEvent.objects.filter(pk=event.pk).update(summary="x")
    with pytest.raises(AppendOnlyError):
        CaseEvent.objects.filter(pk=event.pk).delete()
    assert CaseEvent.objects.get(pk=event.pk).summary == "Seen"


@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE cases_caseevent SET summary = 'forged' WHERE id = %s",
        "DELETE FROM cases_caseevent WHERE id = %s",
    ],
)
def test_database_trigger_refuses_raw_update_and_delete(event, sql):
    if connection.vendor != "postgresql":
        pytest.skip("the trigger exists on PostgreSQL only")
    with (
        pytest.raises(DatabaseError, match="append-only"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute(sql, [event.pk])
    assert CaseEvent.objects.get(pk=event.pk).summary == "Seen"
