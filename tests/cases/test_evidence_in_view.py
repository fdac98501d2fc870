"""Issue 16, evidence in view: triage and the case page show each report's photos
(thumbnails opening the private display copy), its colour, smell, flow and contact,
and link to the report's own page; triage shows the hazardous flag first. The pages
cost the same number of queries for 2 reports as for 12."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from intake.models import Report
from intake.services import report_submit
from kernel.uploads import process_image_upload
from tests.visible import visible_text

from ..reports.helpers import category, open_case_for, upload

pytestmark = pytest.mark.django_db


def _report(code="oil-fuel", **fields):
    values = {
        "description": "Rainbow sheen at the outfall",
        "address": "Washington Street",
        "colour": "brown",
        "odour": "like gasoline",
        "flow": Report.Flow.DRY_WEATHER,
        "reporter_name": "Pat Resident",
        "reporter_email": "pat@example.org",
    }
    values.update(fields)
    return report_submit(
        channel=Report.Channel.WEB,
        fields=values,
        pollutant_categories=[category(code)],
        photos=[process_image_upload(upload("drain.png"))],
    )


def test_triage_shows_the_hazardous_flag_first_then_photo_and_details(smo_client):
    report = _report()
    html = smo_client.get(reverse("cases:triage")).content.decode()
    photo = report.photos.get()
    flag = html.index('data-testid="hazardous-flag"')
    assert flag < html.index(report.tracking_code)
    assert "Hazardous: Oil, petroleum products" in html
    assert f'href="{reverse("reports:photo", args=[photo.pk])}"' in html
    assert f'src="{reverse("reports:photo", args=[photo.pk])}"' in html
    assert "brown" in html and "like gasoline" in html
    assert "Flowing in dry weather" in html
    assert "Pat Resident" in html and "pat@example.org" in html
    assert reverse("reports:detail", args=[report.pk]) in html


def test_triage_shows_no_hazardous_flag_for_wash_water(smo_client):
    _report("wash-water")
    html = smo_client.get(reverse("cases:triage")).content.decode()
    assert 'data-testid="hazardous-flag"' not in html
    assert 'data-testid="report-photo"' in html


def test_case_page_shows_each_reports_evidence_and_links_to_it(smo_client, smo_user):
    report = _report()
    case = open_case_for(report, smo_user)
    html = smo_client.get(reverse("cases:detail", args=[case.number])).content.decode()
    photo = report.photos.get()
    assert 'data-testid="hazardous-flag"' in html
    assert reverse("reports:photo", args=[photo.pk]) in html
    assert "like gasoline" in html and "Pat Resident" in html
    assert reverse("reports:detail", args=[report.pk]) in html


def test_the_thumbnail_opens_for_a_case_reader(smo_client):
    report = _report()
    photo = report.photos.get()
    response = smo_client.get(reverse("reports:photo", args=[photo.pk]))
    assert response.status_code == 200
    assert response["Content-Type"] == "image/jpeg"


def _count(client, url):
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200
    return len(ctx.captured_queries)


def test_triage_costs_the_same_for_2_and_12_reports_with_photos(smo_client):
    for _ in range(2):
        _report()
    small = _count(smo_client, reverse("cases:triage"))
    for _ in range(10):
        _report()
    assert _count(smo_client, reverse("cases:triage")) == small


def test_case_page_costs_the_same_for_1_and_6_reports(smo_client, smo_user):
    from cases.services import case_attach_reports

    first = _report()
    case = open_case_for(first, smo_user)
    url = reverse("cases:detail", args=[case.number])
    small = _count(smo_client, url)
    case_attach_reports(
        case=case, reports=[_report() for _ in range(5)], actor=smo_user
    )
    assert _count(smo_client, url) == small


def test_staff_dates_read_as_words_and_names_are_plain(smo_client, smo_user):
    import datetime as dt

    from kernel.humanize import human_date, human_datetime, human_time

    assert human_date(dt.date(2026, 12, 3)) == "Thu, Dec 3, 2026"
    assert human_time(dt.time(14, 4)) == "2:04 PM"
    report = _report()
    case = open_case_for(report, smo_user)
    html = smo_client.get(reverse("cases:detail", args=[case.number])).content.decode()
    assert f"opened {human_datetime(case.opened_at)}" in visible_text(html)
    assert human_datetime(report.received_at) in visible_text(html)
    assert "(R-PRO-1)" not in html
    waiting = _report("wash-water")
    triage = smo_client.get(reverse("cases:triage")).content.decode()
    assert f"received {human_datetime(waiting.received_at)}" in visible_text(triage)
