"""The dashboard and the case list cost the same number of queries for 5 cases as
for 500 (no query per row): the dashboard at most 14, the list 15 (issue 28)."""

import datetime as dt
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from cases import services
from cases.models import Case, CaseKind, CaseParty, CaseSource, CaseStatus, Party
from enforcement.models import RequirementKind
from enforcement.services import notices as notice_services
from intake.models import Report
from kernel.models import CaseEvent

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
    # The connection's first page pays its one-time probes (SQLite's JSON
    # support, asked once per connection), which are not per row.
    smo_client.get(url)
    small = _count(smo_client, url)
    _make(495, smo_user)
    large = _count(smo_client, url)
    assert small == large


def test_dashboard_and_list_stay_under_a_fixed_budget(
    smo_client, smo_user, django_assert_max_num_queries
):
    _make(50, smo_user)
    services.case_open(actor=smo_user, source="phone", summary="one more")
    with django_assert_max_num_queries(14):
        smo_client.get(reverse("cases:dashboard"))
    with django_assert_max_num_queries(15):
        smo_client.get(reverse("cases:list") + "?q=Bulk&status=open")


def _busy(smo_user, n):
    """n of each thing the SMO's home lists: reports waiting with a photo, an
    open case of theirs, failed and pending e-mails, a deadline due this week,
    one overdue, a fine past due."""
    from deadlines.selectors import today
    from tests.deadlines.conftest import deadline_on
    from tests.enforcement.conftest import draft
    from tests.outbox.factories import OutgoingMessageFactory

    from .test_evidence_in_view import _report

    for i in range(n):
        _report()
        case = services.case_open(
            actor=smo_user, source="phone", summary="Busy", assigned_officer=smo_user
        )
        OutgoingMessageFactory(failed=True)
        OutgoingMessageFactory()
        deadline_on(today(), case=case, purpose=f"due{i}")
        deadline_on(today() - dt.timedelta(days=40), case=case, purpose=f"late{i}")
        confirmed = _confirmed(case)
        notice_services.notice_issue(
            notice=draft(
                confirmed,
                smo_user,
                requirements=[(RequirementKind.FINE, "Pay the fine.")],
                remediation_days=None,
                proposed_fine=Decimal("250.00"),
            ),
            actor=smo_user,
            issued_on=dt.date(2026, 3, 3),
        )


def _confirmed(case):
    owner = Party.objects.create(name="Pat Owner", mailing_address="12 Shore Road")
    CaseParty.objects.create(case=case, party=owner, role=CaseParty.Role.OWNER)
    from .factories import PremisesFactory

    Case.objects.filter(pk=case.pk).update(
        premises=PremisesFactory(),
        responsible_party=owner,
        status=CaseStatus.VIOLATION_CONFIRMED,
        violation_confirmed_on=dt.date(2026, 3, 2),
        violation_finding="Pool water pumped to the catch basin.",
    )
    return Case.objects.get(pk=case.pk)


def test_a_busy_dashboard_reads_14_queries_whatever_it_lists(
    smo_client, smo_user, django_assert_max_num_queries
):
    url = reverse("cases:dashboard")
    _busy(smo_user, 1)
    one = _count(smo_client, url)
    _busy(smo_user, 3)
    with django_assert_max_num_queries(14):
        page = smo_client.get(url).content.decode()
    assert _count(smo_client, url) == one
    waiting = Report.objects.filter(case__isnull=True).count()
    assert f'data-testid="triage-count">{waiting}<' in page
    assert page.count('data-testid="dashboard-report"') == 5  # the newest five
    assert page.count("Refer to the Justice Court: NOV-") == 4  # each fine past due
    assert 'data-testid="outbox-dashboard-failed">4 failed' in page
