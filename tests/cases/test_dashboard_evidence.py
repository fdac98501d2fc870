"""The dashboard shows each new report's evidence (issue 16): the hazardous flag
first (as the report list and triage show it), the photos as thumbnails opening
large, colour, smell, flow and contact, and a link to the report's own page —
in a fixed number of queries however many reports are waiting."""

import pytest
from django.urls import reverse

from tests.visible import visible_text

from .test_evidence_in_view import _report

pytestmark = pytest.mark.django_db

DASHBOARD = reverse("cases:dashboard")


def test_dashboard_shows_the_hazardous_flag_first_then_photo_details_and_link(
    smo_client,
):
    report = _report()
    html = smo_client.get(DASHBOARD).content.decode()
    photo = report.photos.get()
    row = html[html.index('data-testid="dashboard-report"') :]
    assert row.index('data-testid="hazardous-flag"') < row.index(report.tracking_code)
    assert "Hazardous: Oil, petroleum products" in visible_text(row)
    assert f'href="{reverse("reports:photo", args=[photo.pk])}"' in row
    assert f'src="{reverse("reports:photo", args=[photo.pk])}"' in row
    text = visible_text(row)
    assert "Colour brown" in text and "Smell like gasoline" in text
    assert "Pat Resident" in text
    assert f'href="{reverse("reports:detail", args=[report.pk])}"' in row
    # The flag is shown once, first: the evidence block does not repeat it.
    assert html.count('data-testid="hazardous-flag"') == 1


def test_dashboard_shows_no_hazardous_flag_for_wash_water(smo_client):
    _report("wash-water")
    html = smo_client.get(DASHBOARD).content.decode()
    assert 'data-testid="hazardous-flag"' not in html
    assert 'data-testid="report-photo"' in html
    assert 'data-testid="report-page-link"' in html


def test_the_dashboard_costs_the_same_queries_for_one_report_or_five(
    smo_client, django_assert_max_num_queries
):
    _report()
    smo_client.get(DASHBOARD)  # warm the session and the caches
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as one:
        smo_client.get(DASHBOARD)
    for code in ("oil-fuel", "wash-water", "oil-fuel", "wash-water"):
        _report(code)
    with django_assert_max_num_queries(len(one.captured_queries)):
        html = smo_client.get(DASHBOARD).content.decode()
    assert html.count('data-testid="dashboard-report"') == 5
    assert html.count('data-testid="report-photo"') == 5
