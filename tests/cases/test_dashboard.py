"""The dashboard: every role sees it; the content follows the role."""

import pytest
from django.urls import reverse

from cases import services

from .factories import ReportFactory

pytestmark = pytest.mark.django_db


def test_smo_sees_triage_count_newest_reports_my_cases_and_activity(client_as):
    client = client_as("smo")
    from django.contrib.auth import get_user_model

    smo = get_user_model().objects.get(username="smo")
    waiting = ReportFactory(address="5 Shore Road")
    case = services.case_open(
        actor=smo, source="phone", summary="Mine", assigned_officer=smo
    )
    html = client.get(reverse("cases:dashboard")).content.decode()
    assert 'data-testid="triage-count">1<' in html
    assert waiting.tracking_code in html
    assert "My open cases" in html and case.number in html
    assert "Recent activity" in html and "Case opened" in html


def test_clerk_reads_recent_activity_but_has_no_triage(client_as, smo_user):
    services.case_open(actor=smo_user, source="phone", summary="Something")
    ReportFactory()
    html = client_as("clerk").get(reverse("cases:dashboard")).content.decode()
    assert "Recent activity" in html and "Case opened" in html
    assert "Waiting for triage" not in html and "Open a case directly" not in html


@pytest.mark.parametrize("role", ["attorney", "inspector"])
def test_attorney_and_inspector_see_no_case_content(client_as, smo_user, role):
    services.case_open(actor=smo_user, source="phone", summary="Secret matter")
    html = client_as(role).get(reverse("cases:dashboard")).content.decode()
    assert "Dashboard" in html
    assert "Secret matter" not in html and "Recent activity" not in html
