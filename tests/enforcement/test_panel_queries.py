"""The enforcement panel of the case page costs the same number of queries for
one notice as for three (each with its deadlines and an appeal): the compliance
deadline and the transition conditions read what the panel loaded."""

import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from enforcement.models import NoticeOfViolation
from enforcement.services import appeals as appeal_services
from enforcement.services import notices as notice_services

from .conftest import draft

pytestmark = pytest.mark.django_db


def _issue_with_appeal(case, smo_user, clerk_user, owner):
    notice = notice_services.notice_issue(
        notice=draft(case, smo_user), actor=smo_user, issued_on=dt.date(2026, 3, 3)
    )
    appeal_services.appeal_file(
        notice=notice,
        actor=clerk_user,
        appellant=owner,
        filed_on=dt.date(2026, 3, 10),
        grounds="The water was rain water.",
    )
    return notice


def _case_page_queries(client, case):
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(reverse("cases:detail", args=[case.number]))
    assert response.status_code == 200
    return len(ctx.captured_queries), response.content.decode()


def test_case_page_costs_the_same_for_one_and_three_notices(
    client_as, confirmed_case, smo_user, clerk_user, owner
):
    client = client_as("smo")
    _issue_with_appeal(confirmed_case, smo_user, clerk_user, owner)
    one, _ = _case_page_queries(client, confirmed_case)
    for _ in range(2):
        _issue_with_appeal(confirmed_case, smo_user, clerk_user, owner)
    three, page = _case_page_queries(client, confirmed_case)
    assert NoticeOfViolation.objects.filter(case=confirmed_case).count() == 3
    assert one == three
    for notice in NoticeOfViolation.objects.filter(case=confirmed_case):
        assert f"NOV-{notice.pk}" in page
        assert notice.compliance_deadline().label in page


def test_a_draft_offers_issue_only_with_its_requirements(
    client_as, confirmed_case, smo_user
):
    """Requirements are read for drafts only (issuing needs one, R-NOV-1)."""
    client = client_as("smo")
    with_requirements = draft(confirmed_case, smo_user)
    without = draft(confirmed_case, smo_user)
    without.requirements.all().delete()  # a draft's requirements may change
    _, page = _case_page_queries(client, confirmed_case)

    def line_of(notice):
        start = page.index(f">NOV-{notice.pk}<")
        return page[start : page.index("</li>", start)]

    assert "Issue the notice" in line_of(with_requirements)
    assert "Issue the notice" not in line_of(without)
