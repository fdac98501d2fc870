"""A resident on a phone-sized screen files a report with a photo and a map pin,
gets the code, and opens the status page (headless Chromium, no map tiles)."""

import re

import pytest

from intake.models import PollutantCategory, Report
from kernel.models import SubmissionKey

from .helpers import png_bytes


@pytest.mark.browser
def test_file_a_report_on_a_phone_and_check_its_status(browser_page, tmp_path):
    page = browser_page
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto("/report/")
    assert page.locator(".hazard-banner").first.is_visible()
    # The phone makes the report's key (a resend is one report: issue 31).
    key = page.locator('input[name="client_key"]').input_value()
    assert re.fullmatch(r"[0-9a-f-]{32,36}", key)

    # Ticking a hazardous category repeats the 911 warning; unticking hides it.
    oil = page.get_by_label(PollutantCategory.objects.get(code="oil-fuel").plain_name)
    repeat = page.locator("#hazard-repeat")
    assert not repeat.is_visible()
    oil.check()
    assert repeat.is_visible()
    oil.uncheck()
    assert not repeat.is_visible()

    page.get_by_label(
        PollutantCategory.objects.get(code="wash-water").plain_name
    ).check()
    page.get_by_label("Describe it in your own words").fill(
        "Soapy water from a pipe into the storm drain."
    )
    page.get_by_label("Suds or foam").check()

    # Drop a pin: the map is there even without tiles.
    map_box = page.locator("#report-map")
    map_box.scroll_into_view_if_needed()
    assert map_box.is_visible()
    box = map_box.bounding_box()
    assert box["width"] <= 390
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.wait_for_function(
        "document.querySelector('input[name=latitude]').value !== ''"
    )
    assert "Pin set at" in page.locator("#pin-status").inner_text()

    photo = tmp_path / "drain.png"
    photo.write_bytes(png_bytes())
    page.locator('input[name="photos"]').set_input_files(str(photo))
    assert "1 photo chosen" in page.locator("#photo-count").inner_text()

    page.get_by_role("button", name="Send report").click()
    page.wait_for_url("**/report/done/")
    code = page.locator("#tracking-code").inner_text().strip()
    report = Report.objects.get(tracking_code=code)
    assert report.latitude is not None and report.longitude is not None
    assert report.photos.count() == 1
    assert report.address == ""
    assert SubmissionKey.objects.get(scope="report", key=key).record == report

    # Nothing overflows sideways on a phone.
    wide = page.evaluate(
        "Array.from(document.querySelectorAll('body *')).filter(e => "
        "e.getBoundingClientRect().right > 391).map(e => e.tagName + '.' + "
        "e.className + ':' + e.textContent.slice(0, 40))"
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, wide

    page.get_by_role("link", name="Check the status of this report").click()
    assert page.locator("#public-status").inner_text() == "Received"
    assert "Soapy water" not in page.content()


@pytest.mark.browser
def test_the_description_counts_the_characters_left(browser_page):
    page = browser_page
    page.goto("/report/")
    counter = page.locator('[data-counter-for="description"]')
    assert counter.inner_text() == "4,000 characters left (of 4,000)"
    field = page.get_by_label("Describe it in your own words")
    field.fill("Soapy water")
    assert counter.inner_text() == "3,989 characters left (of 4,000)"
    # a line break is sent as two characters, and the server counts it so
    field.fill("Soapy\nwater")
    assert counter.inner_text() == "3,988 characters left (of 4,000)"
    described = field.get_attribute("aria-describedby") or ""
    assert counter.get_attribute("id") in described.split()
