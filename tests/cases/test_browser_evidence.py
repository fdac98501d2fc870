# ruff: noqa: F811 (the enforcement fixtures, imported for this file)
"""Issue 16, at phone and desktop size in a real browser: triage shows the photo and
the hazardous flag of a hazardous report; a binding action without the
confirmation does nothing (the server refuses it, whatever the browser does)."""

import pytest

from enforcement.models import NoticeOfViolation
from enforcement.models.notices import NoticeStatus
from intake.models import Report
from intake.services import report_submit
from kernel.uploads import process_image_upload
from tests.conftest import browser_sign_in
from tests.enforcement.conftest import (  # noqa: F401 (fixtures)
    agent,
    confirmed_case,
    draft_notice,
    owner,
)
from tests.reports.helpers import category, upload

SIZES = {
    "phone": {"width": 390, "height": 844},
    "desktop": {"width": 1280, "height": 900},
}


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("size", sorted(SIZES))
def test_triage_shows_the_photo_and_the_hazardous_flag(browser_page, smo_user, size):
    report = report_submit(
        channel=Report.Channel.WEB,
        fields={
            "description": "Rainbow sheen at the Washington Street outfall",
            "address": "Washington Street",
            "odour": "like gasoline",
        },
        pollutant_categories=[category("oil-fuel")],
        photos=[process_image_upload(upload("drain.png"))],
    )
    page = browser_page
    page.set_viewport_size(SIZES[size])
    browser_sign_in(page, "smo")
    page.get_by_role("link", name="Triage").first.click()
    card = page.locator(".card").filter(has_text=report.tracking_code)
    flag = card.get_by_test_id("hazardous-flag")
    assert flag.is_visible()
    assert "Hazardous: Oil, petroleum products" in flag.inner_text()
    # the flag comes first in the report's card
    assert (
        flag.bounding_box()["y"]
        <= card.get_by_text(report.tracking_code).first.bounding_box()["y"]
    )
    photo = card.get_by_test_id("report-photo")
    photo.scroll_into_view_if_needed()
    assert photo.is_visible()
    page.wait_for_function(
        "img => img.complete && img.naturalWidth > 0", arg=photo.element_handle()
    )
    link = card.get_by_test_id("report-photo-link")
    large = page.request.get(link.get_attribute("href"))
    assert large.status == 200 and large.headers["content-type"] == "image/jpeg"
    assert "like gasoline" in card.inner_text()
    card.get_by_test_id("report-page-link").click()
    assert f"Report {report.tracking_code}" in page.locator("h1").inner_text()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("size", sorted(SIZES))
def test_a_binding_action_without_the_confirmation_does_nothing(
    browser_page, smo_user, draft_notice, size
):
    page = browser_page
    page.set_viewport_size(SIZES[size])
    browser_sign_in(page, "smo")
    page.goto(draft_notice.get_absolute_url())
    form = page.locator("#step-issue")
    box = form.locator('input[name="issue-confirm"]')
    assert "I confirm: Issuing" in form.inner_text()
    assert "the last day to appeal will be" in form.inner_text()
    assert not box.is_checked()
    # The browser would refuse the unticked box; the server must refuse it too.
    box.evaluate("e => e.removeAttribute('required')")
    form.get_by_role("button", name="Issue the notice").click()
    page.wait_for_load_state()
    assert "nothing was done" in page.content()
    notice = NoticeOfViolation.objects.get(pk=draft_notice.pk)
    assert notice.status == NoticeStatus.DRAFT
    # Ticked, it issues and says so in words.
    page.locator('input[name="issue-confirm"]').check()
    page.locator("#step-issue").get_by_role("button", name="Issue the notice").click()
    page.wait_for_load_state()
    assert (
        "issued; the last day to appeal is"
        in page.locator(".alert-success").first.inner_text()
    )
    notice.refresh_from_db()
    assert notice.status == NoticeStatus.ISSUED
