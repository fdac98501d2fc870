"""The clerk's appeal list reads at most 15 queries, as many for three appeals
in each of its lists as for one (issue 28)."""

import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from enforcement.models import Appeal

from .conftest import aware, schedule_hearing
from .test_work_queues_roles import _appeal, _decided

pytestmark = pytest.mark.django_db

LIST = reverse("enforcement:appeal_list")


def _one_in_each_list(smo, clerk, n):
    """An appeal filed, one with its hearing scheduled, one decided."""
    _appeal(smo, clerk, n, dt.date(2026, 11, 20))
    filed = _appeal(smo, clerk, n + 1, dt.date(2026, 11, 20))
    schedule_hearing(filed, clerk, aware(2026, 12, 3))
    _decided(smo, clerk, n + 2, dt.date(2026, 11, 30))


def _queries(client):
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(LIST)
    assert response.status_code == 200
    return len(ctx.captured_queries), response.content.decode()


def test_the_appeal_list_costs_15_queries_at_most_whatever_its_length(
    smo_user, clerk_user, client_as
):
    client = client_as("clerk")
    _one_in_each_list(smo_user, clerk_user, 1)
    one, _ = _queries(client)
    for n in (4, 7):
        _one_in_each_list(smo_user, clerk_user, n)
    three, page = _queries(client)
    assert Appeal.objects.count() == 9
    assert one == three
    assert three <= 15
    for appeal in Appeal.objects.filter(status="filed"):
        assert appeal.notice.case.number in page
