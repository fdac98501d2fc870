# ruff: noqa: F401, F811 (the enforcement fixtures, imported for this module)
"""The case page (issue 28): its panels share their reads of the case and skip the
kinds of record it does not have (one EXISTS query), so it reads as many queries
for three notices, appeals, fines, payments, inspections and reports as for one,
and at most 15 for a case with every kind of record: a set of child rows
(reminders, payments, a report's pollutants and photos, the case's pollutants)
comes inside its parents' query (kernel.inline_rows), not in one of its own."""

import datetime as dt
from decimal import Decimal

import pytest
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from cases.services import case_attach_reports
from deadlines.models import Reminder
from deadlines.reminders import sweep_reminders
from enforcement.models import NoticeOfViolation, RequirementKind
from enforcement.services import appeals as appeal_services
from enforcement.services import notices as notice_services
from inspections.models import Inspection
from inspections.services import inspection_record, inspection_schedule
from intake.models import Report
from intake.services import report_submit
from ledger.models import Charge
from ledger.services import payment_record
from portal.services import portal_issue
from tests.enforcement.conftest import (
    agent,
    confirmed_case,
    draft,
    draft_notice,
    issued_notice,
    owner,
)

from ..reports.helpers import category
from .test_evidence_in_view import _report

pytestmark = pytest.mark.django_db

CASE_PAGE_QUERY_BUDGET = 15
FULL_CASE_QUERY_BUDGET = 15  # 20 before kernel.inline_rows (bench/NOTES.md)
ISSUED = dt.date(2026, 3, 3)


def _add_one_of_each(case, smo_user, clerk_user, owner):
    """A notice appealed, a notice with a fine partly paid, an inspection done,
    a report with its photo."""
    notice = notice_services.notice_issue(
        notice=draft(case, smo_user), actor=smo_user, issued_on=ISSUED
    )
    appeal_services.appeal_file(
        notice=notice,
        actor=clerk_user,
        appellant=owner,
        filed_on=dt.date(2026, 3, 10),
        grounds="The water was rain water.",
    )
    fined = notice_services.notice_issue(
        notice=draft(
            case,
            smo_user,
            requirements=[
                (RequirementKind.CEASE_DESIST, "Stop pumping pool water."),
                (RequirementKind.FINE, "Pay the fine."),
            ],
            remediation_days=None,
            proposed_fine=Decimal("250.00"),
        ),
        actor=smo_user,
        issued_on=ISSUED,
    )
    payment_record(
        charge=Charge.objects.get(notice=fined),
        actor=smo_user,
        received_on=ISSUED + dt.timedelta(days=2),
        amount=Decimal("100.00"),
        method="check",
        check_number="1042",
    )
    inspection = inspection_schedule(
        actor=smo_user,
        kind=Inspection.Kind.COMPLAINT,
        premises=None,
        case=case,
        officer=smo_user,
        scheduled_for=timezone.now() - dt.timedelta(days=1),
    )
    inspection_record(
        actor=smo_user,
        inspection=inspection,
        performed_at=timezone.now() - dt.timedelta(hours=1),
        attendees="S. Officer",
        access_outcome="granted",
        access_notes="",
        findings="Floor drain to storm sewer.",
    )
    case_attach_reports(case=case, reports=[_report()], actor=smo_user)


def _case_page(client, case):
    # Once first: on SQLite, Django asks the first time in a process whether it
    # has JSON functions (three queries, then never again).
    client.get(reverse("cases:detail", args=[case.number]))
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(reverse("cases:detail", args=[case.number]))
    assert response.status_code == 200
    return len(ctx.captured_queries), response.content.decode()


def test_a_full_case_page_reads_as_many_queries_for_three_of_each_as_for_one(
    client_as, confirmed_case, smo_user, clerk_user, owner
):
    client = client_as("smo")
    portal_issue(case=confirmed_case, party=owner, actor=smo_user)
    _add_one_of_each(confirmed_case, smo_user, clerk_user, owner)
    sweep_reminders()  # the notices' dates are past: overdue reminders
    one, _ = _case_page(client, confirmed_case)
    for _ in range(2):
        _add_one_of_each(confirmed_case, smo_user, clerk_user, owner)
    sweep_reminders()
    three, page = _case_page(client, confirmed_case)
    assert NoticeOfViolation.objects.filter(case=confirmed_case).count() == 6
    assert Reminder.objects.filter(deadline__case=confirmed_case).exists()
    assert page.count('data-testid="report-photo"') == 3
    assert three == one
    # One query per kind of record with rows of its own (notices, appeals,
    # charges, reports, deadlines, documents...); reminders, payments, photos
    # and pollutants ride with their parents.
    assert three <= FULL_CASE_QUERY_BUDGET


def test_a_case_with_notices_appeals_reports_and_deadlines_reads_15_queries(
    client_as, confirmed_case, smo_user, clerk_user, owner
):
    """The bench's long case has these: notices, an appeal, reports (no photo),
    deadlines and events."""
    client = client_as("smo")
    for _ in range(2):
        notice = notice_services.notice_issue(
            notice=draft(confirmed_case, smo_user), actor=smo_user, issued_on=ISSUED
        )
    appeal_services.appeal_file(
        notice=notice,
        actor=clerk_user,
        appellant=owner,
        filed_on=dt.date(2026, 3, 10),
        grounds="The water was rain water.",
    )
    report = report_submit(
        channel=Report.Channel.PHONE,
        fields={"description": "Sheen at the outfall", "address": "Shore Road"},
        pollutant_categories=[category("oil-fuel")],
        entered_by=smo_user,
    )
    case_attach_reports(case=confirmed_case, reports=[report], actor=smo_user)
    count, page = _case_page(client, confirmed_case)
    assert report.tracking_code in page and f"NOV-{notice.pk}" in page
    assert count <= CASE_PAGE_QUERY_BUDGET


def test_children_read_inline_are_the_rows_the_orm_reads(
    confirmed_case, smo_user, clerk_user, owner
):
    """kernel.inline_rows gives each child every field as the ORM does (dates,
    aware datetimes, money at its places, files), in the prefetch's order."""
    from deadlines.models import Deadline
    from kernel.inline_rows import Inline, with_inline
    from ledger.models import Payment

    for _ in range(2):
        _add_one_of_each(confirmed_case, smo_user, clerk_user, owner)
    sweep_reminders()

    def fields(row):
        return {f.attname: getattr(row, f.attname) for f in row._meta.concrete_fields}

    checked = 0
    for parents, spec, orm in (
        (
            Deadline.objects.filter(case=confirmed_case),
            Inline("reminders", ("created_at",)),
            lambda d: Reminder.objects.filter(deadline=d).order_by("created_at"),
        ),
        (
            Charge.objects.filter(case=confirmed_case),
            Inline("payments", ("received_on", "id")),
            lambda c: Payment.objects.filter(charge=c),
        ),
        (
            Report.objects.filter(case=confirmed_case),
            Inline("photos", ("id",)),
            lambda r: r.photos.order_by("id"),
        ),
        (
            Report.objects.filter(case=confirmed_case),
            Inline("pollutant_categories", ("sort_order", "name")),
            lambda r: r.pollutant_categories.all(),
        ),
    ):
        for parent in with_inline(parents, spec):
            inline = list(getattr(parent, spec.accessor).all())
            read = list(orm(parent))
            assert [fields(c) for c in inline] == [fields(c) for c in read]
            checked += len(read)
    assert checked >= 9
