"""Click-only walk (issue 29): a large export runs in the background. The SMO
clicks "Export XLSX" on a case list larger than EXPORT_BACKGROUND_ROWS (set to
two here), lands on the job's page with its progress bar, which a real Celery
worker moves to the end without a reload; the download link appears, and the
file holds the list's rows. "My exports" lists it. Only the sign-in page is
typed; the cases are opened through the services beforehand."""

import io
from pathlib import Path

import openpyxl
import pytest
from playwright.sync_api import expect

from cases.models import CaseKind
from cases.services import case_open
from tests.conftest import browser_sign_in
from tests.walks.test_notice_and_appeal import _menu

PHONE = {"width": 390, "height": 844}


@pytest.mark.browser
@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("size", [None, PHONE], ids=["desktop", "phone"])
def test_a_large_export_shows_its_progress_then_the_download(
    celery_worker_on_redis, browser_page, smo_user, settings, tmp_path, size
):
    celery_worker_on_redis.control.purge()
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.EXPORT_BACKGROUND_ROWS = 2
    numbers = {
        case_open(
            actor=smo_user, source="phone", summary=f"Sheen {n}", kind=CaseKind.SPILL
        ).number
        for n in range(3)
    }
    page = browser_page
    if size:
        page.set_viewport_size(size)
    browser_sign_in(page, "smo")
    _menu(page)
    page.get_by_role("link", name="Cases").first.click()
    page.get_by_role("link", name="Export XLSX").click()

    expect(page.get_by_role("heading", level=1)).to_contain_text("Cases (XLSX, 3 rows)")
    expect(page.get_by_role("progressbar")).to_be_visible()
    download_link = page.get_by_test_id("job-download")
    expect(download_link).to_be_visible(timeout=60000)  # the worker, no reload
    expect(page.get_by_test_id("job-text")).to_have_text("Ready: 3 rows.")
    expect(page.get_by_role("progressbar")).to_have_attribute("value", "100")

    with page.expect_download() as download:
        download_link.click()
    assert download.value.suggested_filename.startswith("cases-")
    assert download.value.suggested_filename.endswith(".xlsx")
    book = openpyxl.load_workbook(io.BytesIO(Path(download.value.path()).read_bytes()))
    rows = [[c.value for c in row] for row in book.worksheets[0].iter_rows()]
    assert rows[0][0] == "Case number"
    assert {row[0] for row in rows[1:]} == numbers

    page.get_by_role("link", name="My exports").click()
    expect(page.get_by_test_id("job-list")).to_contain_text("Cases (XLSX, 3 rows)")
    expect(page.get_by_test_id("job-list")).to_contain_text("Ready to download")
    celery_worker_on_redis.control.purge()
