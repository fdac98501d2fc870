"""The dashboard and the case list cost the same number of queries for 5 cases as
for 500 (no query per row)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from cases import services
from cases.models import Case, CaseEvent, CaseKind, CaseSource, Report

pytestmark = pytest.mark.django_db


def _make(n, officer, premises=None):
    from .factories import PremisesFactory

    premises = premises or PremisesFactory()
    start = Case.objects.count()
    Case.objects.bulk_create(
        Case(
            number=f"MS4-2019-{start + i + 1:04d}",
            kind=CaseKind.ILLICIT_DISCHARGE,
            source=CaseSource.PHONE,
            summary=f"Bulk {i}",
            premises=premises,
            assigned_officer=officer,
        )
        for i in range(n)
    )
    Report.objects.bulk_create(
        Report(
            channel="web",
            description=f"r{start + i}",
            tracking_code=f"PQ-Q{start + i:07d}",
        )
        for i in range(n)
    )
    cases = list(Case.objects.order_by("-id")[:n])
    CaseEvent.objects.bulk_create(
        CaseEvent(case=c, actor=officer, kind="note", summary="bulk") for c in cases
    )


def _count(client, url):
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200
    return len(ctx.captured_queries)


@pytest.mark.parametrize("url_name", ["cases:dashboard", "cases:list"])
def test_page_costs_the_same_for_5_and_500_cases(smo_client, smo_user, url_name):
    url = reverse(url_name)
    _make(5, smo_user)
    small = _count(smo_client, url)
    _make(495, smo_user)
    large = _count(smo_client, url)
    assert small == large


def test_dashboard_and_list_stay_under_a_fixed_budget(
    smo_client, smo_user, django_assert_max_num_queries
):
    _make(50, smo_user)
    services.case_open(actor=smo_user, source="phone", summary="one more")
    with django_assert_max_num_queries(15):
        smo_client.get(reverse("cases:dashboard"))
    with django_assert_max_num_queries(15):
        smo_client.get(reverse("cases:list") + "?q=Bulk&status=open")
