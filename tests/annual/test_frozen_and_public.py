"""Issue 17: the frozen report (counts and records as of a moment), recomputing
it, its PDF through the document pipeline, the draft published for comment on
the public site without personal data, the comments and the final version."""

import csv
import datetime as dt
import io
import re

import pytest
from django.urls import reverse
from django.utils import timezone
from pypdf import PdfReader

from cases.models import CaseKind
from cases.services import case_update_details
from documents.models import IssuedDocument
from documents.services import document_render
from reporting.annual import services
from reporting.annual.models import AnnualReport
from reporting.annual.year import ReportingYear
from tests.steps import confirmed

from .conftest import REPORTER, RESPONDENT

pytestmark = pytest.mark.django_db

PERSONAL = [
    REPORTER["reporter_name"],
    REPORTER["reporter_email"],
    REPORTER["reporter_phone"],
    RESPONDENT,
    "Pat Quinn",
    "pat.quinn@example.org",
    "7 Shore Road",
]


def rendered(report) -> IssuedDocument:
    """Render the report's latest document as the worker does."""
    document = IssuedDocument.objects.filter(
        object_id=report.pk, kind="annual_report"
    ).latest("version")
    return document_render(document_id=document.pk)


def pdf_text(document) -> str:
    with document.pdf.open("rb") as handle:
        text = " ".join(page.extract_text() for page in PdfReader(handle).pages)
    return " ".join(text.split())


def freeze(smo):
    return services.annual_freeze(year=ReportingYear(2026), actor=smo)


def text_of(response) -> str:
    return re.sub(r"\s+", " ", response.content.decode())


def test_freezing_stores_the_counts_and_their_records_and_recomputing_is_the_same(
    a_year, smo_user, smo_client
):
    report = freeze(smo_user)
    assert report.version == 1
    assert report.counts["reports_received"] is None  # the number of its records
    assert len(report.record_ids["reports_received"]) == 5
    assert report.counts["median_days_to_elimination"] == 76.0
    assert services.annual_differences(report) == []
    page = smo_client.get(report.get_absolute_url())
    assert "every count is the same" in text_of(page)
    again = freeze(smo_user)
    assert again.version == 2 and again.record_ids == report.record_ids


def test_a_corrected_record_is_listed_as_a_difference(a_year, smo_user, smo_client):
    report = freeze(smo_user)
    connection = a_year.cases["open_connection"]
    connection.refresh_from_db()
    # the "illicit connection" was in fact a discharge: the case is corrected
    case_update_details(
        case=connection, actor=smo_user, kind=CaseKind.ILLICIT_DISCHARGE
    )
    differences = {d.key: d for d in services.annual_differences(report)}
    assert differences["connection_suspected"].removed == [connection.pk]
    assert differences["connection_suspected"].was == 1
    assert differences["connection_suspected"].now == 0
    assert differences["discharge_suspected"].added == [connection.pk]
    page = text_of(smo_client.get(report.get_absolute_url()))
    assert "These counts differ from the frozen version" in page
    assert 'data-difference="connection_suspected"' in page


def test_the_pdf_has_the_counts_and_no_personal_data(a_year, smo_user):
    report = freeze(smo_user)
    document = rendered(report)
    assert document.is_issued and len(document.sha256) == 64
    text = pdf_text(document)
    assert "ANNUAL MS4 REPORT" in text.upper()
    assert "Reports received" in text
    assert "Median days from report to elimination" in text
    assert "76 days" in text
    assert "$300.00" in text
    assert "Time from report to elimination" in text  # a chart's title
    for value in PERSONAL:
        assert value not in text
        assert value not in document.html
    assert "<svg" in document.html


def on_day(monkeypatch, day: dt.date) -> None:
    """The annual report's today (whether it may be made final) is `day`."""
    monkeypatch.setattr("reporting.annual.models.today", lambda: day)


def publish(report, smo, opens=None, closes=None):
    today = timezone.localdate()
    return services.annual_publish(
        report=report,
        actor=smo,
        opens_on=opens or today - dt.timedelta(days=1),
        closes_on=closes or today + dt.timedelta(days=29),
    )


def test_the_public_draft_page_and_pdf_have_counts_and_charts_only(
    a_year, smo_user, client
):
    report = freeze(smo_user)
    assert (
        client.get(reverse("public_annual:detail", args=[report.pk])).status_code == 404
    )
    rendered(report)
    report = publish(report, smo_user)
    listing = text_of(client.get(reverse("public_annual:list")))
    assert "Draft published for public comment" in listing
    page = client.get(reverse("public_annual:detail", args=[report.pk]))
    body = text_of(page)
    assert page.status_code == 200
    assert "Reports received" in body and "<svg" in body
    assert "Comment period" in body
    document = rendered(report)
    pdf = client.get(reverse("public_annual:pdf", args=[report.pk]))
    assert pdf.status_code == 200
    text = pdf_text(document)
    assert "Draft for public comment" in text
    for value in PERSONAL:
        assert value not in body
        assert value not in text
    # no link to the records behind the counts (those are staff pages)
    assert "/staff/" not in body


def test_comments_are_recorded_with_their_date_and_the_final_lists_their_summary(
    a_year, smo_user, smo_client, client, monkeypatch
):
    report = freeze(smo_user)
    rendered(report)
    report = publish(report, smo_user)
    rendered(report)
    today = timezone.localdate()
    response = smo_client.post(
        reverse("annual:comment_add", args=[report.pk]),
        {
            "received_on": today.isoformat(),
            "commenter": "Lee Neighbor",
            "text": "Map more outfalls.",
        },
    )
    assert response.status_code == 302
    # a member of the public through the form
    response = client.post(
        reverse("public_annual:comment", args=[report.pk]), {"text": "Thank you."}
    )
    assert response.status_code == 302
    assert [c.received_on for c in report.comments.all()] == [today, today]
    # bad input: no text → the page again with the message, nothing stored
    response = smo_client.post(
        reverse("annual:comment_add", args=[report.pk]),
        {"received_on": "not a date", "text": ""},
    )
    assert response.status_code == 200
    assert "Please correct the errors below" in text_of(response)
    assert report.comments.count() == 2
    # the comment period closed and the reporting year ended
    on_day(
        monkeypatch,
        max(report.comment_closes_on + dt.timedelta(days=1), dt.date(2027, 3, 10)),
    )
    # finalizing without a summary is refused, with the user's input kept
    step = reverse("annual:step", args=[report.pk, "finalize"])
    response = smo_client.post(
        step, confirmed("finalize", {"finalize-comment_summary": ""})
    )
    assert response.status_code == 200
    report.refresh_from_db()
    assert not report.is_final
    response = smo_client.post(
        step,
        confirmed(
            "finalize",
            {"finalize-comment_summary": "Two comments: map more outfalls; thanks."},
        ),
    )
    assert response.status_code == 302
    report.refresh_from_db()
    assert report.is_final
    text = pdf_text(rendered(report))
    assert "Final report" in text
    assert "Two comments: map more outfalls; thanks." in text
    assert "Lee Neighbor" not in text
    public = text_of(client.get(reverse("public_annual:detail", args=[report.pk])))
    assert "Two comments: map more outfalls; thanks." in public
    assert "Lee Neighbor" not in public


def test_publishing_asks_for_a_comment_period_in_order_and_a_confirmation(
    a_year, smo_user, smo_client
):
    report = freeze(smo_user)
    rendered(report)
    step = reverse("annual:step", args=[report.pk, "publish"])
    data = {
        "publish-comment_opens_on": "2026-12-10",
        "publish-comment_closes_on": "2026-12-01",
    }
    response = smo_client.post(step, confirmed("publish", data))
    assert response.status_code == 200
    assert "must end on or after" in text_of(response)
    response = smo_client.post(
        step, {**data, "publish-comment_closes_on": "2027-01-10"}
    )
    assert response.status_code == 200  # the confirmation box was not ticked
    report.refresh_from_db()
    assert not report.is_public
    response = smo_client.post(
        step, confirmed("publish", {**data, "publish-comment_closes_on": "2027-01-10"})
    )
    assert response.status_code == 302
    report.refresh_from_db()
    assert report.is_public
    assert report.comment_closes_on == dt.date(2027, 1, 10)


def test_the_staff_page_links_each_count_to_its_records(a_year, smo_client):
    page = smo_client.get(reverse("annual:index"))
    body = text_of(page)
    assert page.status_code == 200
    assert "March 10, 2026 – March 9, 2027" in body
    assert "<svg" in body
    drill = reverse("annual:count", args=[2026, "discharge_eliminated"])
    assert drill in body
    listing = smo_client.get(drill)
    text = text_of(listing)
    for case in (a_year.cases["eliminated"], a_year.cases["eliminated_after_notice"]):
        assert case.get_absolute_url() in text
    assert "eliminated Jun 1, 2026" in text
    assert (
        smo_client.get(reverse("annual:count", args=[2026, "nonsense"])).status_code
        == 404
    )


def test_the_csv_has_every_count_with_its_definition(a_year, smo_user, smo_client):
    response = smo_client.get(reverse("annual:year_csv", args=[2026]))
    content = response.content.decode("utf-8")
    assert content.startswith("\ufeff")
    reader = csv.DictReader(io.StringIO(content.lstrip("\ufeff")))
    assert reader.fieldnames == ["section", "metric", "value", "definition"]
    rows = {r["metric"]: r for r in reader}
    assert rows["Reports received"]["value"] == "5"
    assert rows["Median days from report to elimination"]["value"] == "76.0"
    assert all(r["definition"] for r in rows.values())
    report = freeze(smo_user)
    frozen = smo_client.get(reverse("annual:frozen_csv", args=[report.pk]))
    frozen_rows = {
        r["metric"]: r
        for r in csv.DictReader(io.StringIO(frozen.content.decode().lstrip("\ufeff")))
    }
    assert frozen_rows["Reports received"]["value"] == "5"


@pytest.mark.parametrize("year", ["abcd", "2099", "1999", "0001", "2026x"])
def test_an_unknown_or_malformed_year_is_a_clear_message(smo_client, year):
    response = smo_client.get(f"/staff/annual/{year}/")
    assert response.status_code == 400
    assert "reporting year" in text_of(response)
    response = smo_client.get(reverse("annual:index"), {"year": year})
    assert response.status_code == 400


def test_a_year_without_records_shows_zeros(smo_client):
    response = smo_client.get(reverse("annual:year", args=[2012]))
    assert response.status_code == 200
    assert "every count is zero" in text_of(response)


def test_the_clerk_reads_the_smo_writes(a_year, clerk_client, client, smo_user):
    assert clerk_client.get(reverse("annual:index")).status_code == 200
    body = text_of(clerk_client.get(reverse("annual:index")))
    assert "Freeze this report" not in body
    assert clerk_client.post(reverse("annual:freeze", args=[2026])).status_code == 403
    client.logout()
    assert client.get(reverse("annual:index")).status_code == 302
    assert AnnualReport.objects.count() == 0


def test_the_navigation_links_the_report_for_smo_and_clerk(
    smo_user, clerk_user, inspector_user
):
    from cases.navigation import nav_for

    url = reverse("annual:index")
    assert url in [i["url"] for i in nav_for(smo_user)["staff"]]
    assert url in [i["url"] for i in nav_for(clerk_user)["staff"]]
    assert url not in [i["url"] for i in nav_for(inspector_user)["staff"]]


def finalize_step(smo_client, report):
    return smo_client.post(
        reverse("annual:step", args=[report.pk, "finalize"]),
        confirmed(
            "finalize",
            {"expected_status": "published", "finalize-comment_summary": "None."},
        ),
    )


def test_a_draft_is_made_final_only_after_its_comment_period_and_its_year(
    a_year, smo_user, smo_client, monkeypatch
):
    report = freeze(smo_user)
    rendered(report)
    report = publish(
        report, smo_user, opens=dt.date(2026, 12, 1), closes=dt.date(2026, 12, 31)
    )
    rendered(report)
    # during the comment period: both reasons, and the first day it is possible
    on_day(monkeypatch, dt.date(2026, 12, 4))
    page = text_of(smo_client.get(report.get_absolute_url()))
    assert "The report can be made final from" in page
    assert "Mar 10, 2027" in page
    assert "Not yet: wait until the comment period has closed" in page
    assert "Not yet: wait until the reporting year has ended" in page
    body = text_of(finalize_step(smo_client, report))
    assert "wait until the comment period has closed" in body
    assert "it can be made final from Wednesday, March 10, 2027" in body
    report.refresh_from_db()
    assert not report.is_final
    # the comment period closed, the reporting year (to March 9) not yet ended
    on_day(monkeypatch, dt.date(2027, 3, 9))
    body = text_of(finalize_step(smo_client, report))
    assert "wait until the comment period has closed" not in body
    assert "wait until the reporting year has ended" in body
    assert "it can be made final from Wednesday, March 10, 2027" in body
    report.refresh_from_db()
    assert not report.is_final
    # the first day of the next reporting year: made final
    on_day(monkeypatch, dt.date(2027, 3, 10))
    page = text_of(smo_client.get(report.get_absolute_url()))
    assert "The report can be made final from" not in page
    response = finalize_step(smo_client, report)
    assert response.status_code == 302
    report.refresh_from_db()
    assert report.is_final


def test_a_comment_period_ending_after_the_year_is_waited_for(
    a_year, smo_user, smo_client, monkeypatch
):
    report = freeze(smo_user)
    rendered(report)
    report = publish(
        report, smo_user, opens=dt.date(2027, 3, 1), closes=dt.date(2027, 3, 20)
    )
    on_day(monkeypatch, dt.date(2027, 3, 12))
    body = text_of(finalize_step(smo_client, report))
    assert "wait until the comment period has closed" in body
    assert "wait until the reporting year has ended" not in body
    assert "it can be made final from Sunday, March 21, 2027" in body


def test_freeze_is_not_offered_once_the_year_is_final(
    a_year, smo_user, smo_client, monkeypatch
):
    report = freeze(smo_user)
    rendered(report)
    year_page = reverse("annual:year", args=[2026])
    assert "Freeze this report" in text_of(smo_client.get(year_page))
    report = publish(
        report, smo_user, opens=dt.date(2026, 12, 1), closes=dt.date(2026, 12, 31)
    )
    rendered(report)
    on_day(monkeypatch, dt.date(2027, 3, 10))
    assert finalize_step(smo_client, report).status_code == 302
    page = text_of(smo_client.get(year_page))
    assert "Freeze this report" not in page
    assert "The report of this year is final" in page
    assert report.get_absolute_url() in page
    # a forged POST is refused with the reason, and nothing is frozen
    response = smo_client.post(reverse("annual:freeze", args=[2026]), follow=True)
    assert "is final: it is not frozen again" in text_of(response)
    assert AnnualReport.objects.filter(year=2026).count() == 1


def test_the_annual_reports_document_page_links_back_to_the_report(
    a_year, smo_user, smo_client
):
    report = freeze(smo_user)
    document = rendered(report)
    page = smo_client.get(reverse("documents:detail", args=[document.pk]))
    body = text_of(page)
    assert (
        f'<a href="{report.get_absolute_url()}">Annual report {report.number}</a>'
        in body
    )
    assert "Case " not in body.split("<main", 1)[-1].split("Status")[0]
