"""Issue 17, exports: the case list and the reports awaiting triage export what
the list shows, with its filters and every page, as CSV (UTF-8 with BOM) and
XLSX; text a spreadsheet would run as a formula is neutralised; only the list's
own readers get an export."""

import pytest
from django.urls import reverse
from django.utils import timezone

from cases.models import CaseKind
from cases.services import case_open
from intake.models import Report
from intake.services import report_submit

from ..reports.helpers import category, open_case_for
from .helpers import HOSTILE, assert_neutralised, both

pytestmark = pytest.mark.django_db

CASE_HEADINGS = [
    "Case number",
    "Link",
    "Summary",
    "Status",
    "Kind",
    "Where",
    "Tax map number",
    "Officer",
    "Opened (village time)",
    "Closed (village time)",
]


def _case(actor, summary, kind=CaseKind.ILLICIT_DISCHARGE, **fields):
    return case_open(actor=actor, source="phone", summary=summary, kind=kind, **fields)


def test_case_export_has_every_page_of_the_filtered_list_and_neutralises_formulas(
    smo_client, smo_user
):
    hostile = [_case(smo_user, text, assigned_officer=smo_user) for text in HOSTILE]
    plain = [_case(smo_user, f"Sheen at outfall {n}") for n in range(24)]
    other = _case(smo_user, "Laundry line", kind=CaseKind.ILLICIT_CONNECTION)

    csv_rows, xlsx_rows, headings = both(
        smo_client, "cases:export", "kind=illicit_discharge&page=2"
    )

    assert headings == CASE_HEADINGS
    wanted = {c.number for c in hostile + plain}  # 30 cases: two pages of 25
    for rows in (csv_rows, xlsx_rows):
        assert {r["Case number"] for r in rows} == wanted
        assert other.number not in {r["Case number"] for r in rows}
        assert_neutralised(rows, "Summary")
    first = hostile[0]
    row = next(r for r in csv_rows if r["Case number"] == first.number)
    assert row["Link"] == f"http://testserver/staff/cases/{first.number}/"
    assert row["Kind"] == "Illicit discharge"
    assert row["Status"] == first.get_status_display()
    assert row["Officer"] == "Smo Officer"
    opened = timezone.localtime(first.opened_at).replace(microsecond=0)
    # village time without a UTC offset, which spreadsheets would read as text
    assert row["Opened (village time)"] == opened.replace(tzinfo=None).isoformat(" ")
    assert row["Closed (village time)"] == ""
    cell = next(r for r in xlsx_rows if r["Case number"] == first.number)
    assert cell["Opened (village time)"] == opened.replace(tzinfo=None)


def test_case_list_links_its_exports_with_the_filters_it_shows(smo_client, smo_user):
    _case(smo_user, "Sheen")
    html = smo_client.get(
        reverse("cases:list") + "?kind=illicit_discharge&q=Sheen&page=1"
    ).content.decode()
    assert (
        f'href="{reverse("cases:export_csv")}?kind=illicit_discharge&amp;q=Sheen"'
        in html
    )
    assert "Export XLSX" in html


def test_a_malformed_case_filter_exports_nothing_and_the_list_says_why(smo_client):
    url = reverse("cases:export_csv") + "?opened_from=13/45/2026"
    response = smo_client.get(url)
    assert response.status_code == 302
    assert response["Location"] == reverse("cases:list") + "?opened_from=13%2F45%2F2026"
    page = smo_client.get(response["Location"])
    assert page.status_code == 200
    assert "Enter a valid date." in page.content.decode()
    assert 'value="13/45/2026"' in page.content.decode()  # the input kept


@pytest.mark.parametrize(
    "url_name",
    [
        "cases:export",
        "reports:export",
        "deadlines:export",
        "enforcement:notice_export",
        "enforcement:appeal_export",
        "inspections:export",
        "inspections:outfall_export",
    ],
)
@pytest.mark.parametrize("fmt", ["csv", "xlsx"])
def test_the_public_never_gets_an_export(client, url_name, fmt):
    response = client.get(reverse(f"{url_name}_{fmt}"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    assert not response.get("Content-Disposition")


@pytest.mark.parametrize("fmt", ["csv", "xlsx"])
def test_a_signed_in_user_without_a_staff_role_is_refused(client_as, fmt):
    response = client_as("no_role").get(reverse(f"cases:export_{fmt}"))
    assert response.status_code == 403


def test_the_clerk_gets_no_report_export_as_she_gets_no_report_list(client_as):
    clerk = client_as("clerk")
    assert clerk.get(reverse("reports:list")).status_code == 403
    assert clerk.get(reverse("reports:export_csv")).status_code == 403


# --- reports awaiting triage ----------------------------------------------------------
REPORT_HEADINGS = [
    "Received (village time)",
    "Tracking code",
    "Link",
    "Channel",
    "Pollutant categories",
    "Hazardous",
    "Description",
    "Where",
    "Latitude",
    "Longitude",
    "Photos",
    "Entered by",
]


def _report(description, **fields):
    return report_submit(
        channel=Report.Channel.WEB,
        fields={"description": description, "address": "Washington Street", **fields},
        pollutant_categories=[category("oil-fuel")],
    )


def test_report_export_has_the_triage_queue_only_with_formulas_neutralised(
    smo_client, smo_user
):
    waiting = [_report(text) for text in HOSTILE]
    on_a_case = _report("Already triaged")
    open_case_for(on_a_case, smo_user)

    csv_rows, xlsx_rows, headings = both(smo_client, "reports:export")

    assert headings == REPORT_HEADINGS
    codes = {r.tracking_code for r in waiting}
    for rows in (csv_rows, xlsx_rows):
        assert {r["Tracking code"] for r in rows} == codes
        assert_neutralised(rows, "Description")
    row = next(r for r in csv_rows if r["Tracking code"] == waiting[0].tracking_code)
    assert row["Channel"] == "Online form"
    assert row["Hazardous"] == "yes"
    assert row["Link"] == f"http://testserver/staff/reports/{waiting[0].pk}/"
    assert row["Photos"] == "0"
    cell = next(r for r in xlsx_rows if r["Tracking code"] == waiting[0].tracking_code)
    assert cell["Photos"] == 0  # a number, not text


def test_report_list_links_its_exports(smo_client):
    html = smo_client.get(reverse("reports:list")).content.decode()
    assert f'href="{reverse("reports:export_csv")}"' in html
    assert f'href="{reverse("reports:export_xlsx")}"' in html
