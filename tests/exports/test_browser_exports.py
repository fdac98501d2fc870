"""Issue 17 in a real browser: the SMO filters the case list, clicks "Export CSV"
and "Export XLSX", and the downloaded files hold the filtered cases with the
formula text neutralised."""

import csv
import io
from pathlib import Path

import openpyxl
import pytest

from cases.models import CaseKind
from cases.services import case_open
from tests.conftest import browser_sign_in


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_smo_downloads_the_filtered_case_list(browser_page, smo_user):
    hostile = case_open(
        actor=smo_user,
        source="phone",
        summary='=HYPERLINK("http://evil")',
        kind=CaseKind.ILLICIT_CONNECTION,
    )
    other = case_open(
        actor=smo_user, source="phone", summary="Sheen", kind=CaseKind.SPILL
    )
    page = browser_page
    browser_sign_in(page, "smo")
    page.get_by_role("link", name="Cases").first.click()
    page.get_by_label("Kind").select_option(label=CaseKind.ILLICIT_CONNECTION.label)
    page.get_by_role("button", name="Search").click()
    page.wait_for_url("**kind=illicit_connection**")

    with page.expect_download() as csv_download:
        page.get_by_role("link", name="Export CSV").click()
    data = Path(csv_download.value.path()).read_bytes()
    assert data.startswith(b"\xef\xbb\xbf")
    rows = list(csv.DictReader(io.StringIO(data.decode("utf-8-sig"), newline="")))
    assert [r["Case number"] for r in rows] == [hostile.number]
    assert rows[0]["Summary"] == '\'=HYPERLINK("http://evil")'
    assert csv_download.value.suggested_filename.startswith("cases-")

    with page.expect_download() as xlsx_download:
        page.get_by_role("link", name="Export XLSX").click()
    assert xlsx_download.value.suggested_filename.endswith(".xlsx")
    saved = Path(xlsx_download.value.path()).read_bytes()
    sheet = openpyxl.load_workbook(io.BytesIO(saved)).worksheets[0]
    cells = list(sheet.iter_rows())
    values = [[c.value for c in row] for row in cells]
    assert [row[0] for row in values[1:]] == [hostile.number]
    # as typed, in a text cell: shown, never run (issue 29)
    assert values[1][2] == '=HYPERLINK("http://evil")'
    assert cells[1][2].data_type == "s"
    assert other.number not in {row[0] for row in values}
