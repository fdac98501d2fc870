"""A resident at the storm drain with one bar of signal (issue 31): the report
stays on the phone until the site has it, is sent again by itself, and is
stored once (static/js/report-outbox.js; kernel.idempotency). Headless Chromium
at phone size."""

import pytest
from playwright.sync_api import expect

from intake.models import Report
from tests.conftest import background_sync, eventually

from .helpers import png_bytes

SAVED = "Saved on this phone"


def _fill(page, tmp_path, *, photo=True):
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto("/report/")
    page.get_by_label("Describe it in your own words").fill(
        "Grey water from a hose into the catch basin."
    )
    page.get_by_label("Street address or nearest corner").fill("Sound Road")
    if photo:
        path = tmp_path / "drain.png"
        path.write_bytes(png_bytes())
        page.locator('input[name="photos"]').set_input_files(str(path))


def _tracking_code(page) -> str:
    page.wait_for_url("**/report/done/")
    return page.locator("#tracking-code").inner_text().strip()


@pytest.mark.browser
def test_a_report_sent_offline_waits_on_the_phone_and_goes_once_back_online(
    browser_page, tmp_path
):
    page = browser_page
    _fill(page, tmp_path)
    page.context.set_offline(True)
    page.get_by_role("button", name="Send report").click()
    status = page.locator("#outbox-status")
    status.get_by_text(SAVED).wait_for()
    assert status.get_by_role("button", name="Send now").is_visible()
    assert Report.objects.count() == 0

    page.context.set_offline(False)  # the phone's "online" event sends it
    code = _tracking_code(page)
    report = Report.objects.get()
    assert report.tracking_code == code
    assert report.photos.count() == 1
    assert report.description.startswith("Grey water")


@pytest.mark.browser
def test_a_report_the_site_could_not_take_is_kept_and_sent_with_send_now(
    browser_page, tmp_path
):
    page = browser_page
    _fill(page, tmp_path)
    page.route(
        "**/report/",
        lambda route: (
            route.fulfill(status=503, body="Service Unavailable")
            if route.request.method == "POST"
            else route.continue_()
        ),
    )
    page.get_by_role("button", name="Send report").click()
    page.locator("#outbox-status").get_by_text(SAVED).wait_for()
    assert Report.objects.count() == 0

    page.unroute("**/report/")
    page.get_by_role("button", name="Send now").click()
    code = _tracking_code(page)
    assert Report.objects.get().tracking_code == code


@pytest.mark.browser
def test_a_report_whose_answer_was_lost_is_stored_once_when_sent_again(
    browser_page, tmp_path
):
    """The site stored the report; the answer never reached the phone."""
    page = browser_page
    # No photo: Playwright's route.fetch() does not pass a file on intact.
    _fill(page, tmp_path, photo=False)
    lost = []

    def lose_the_answer(route):
        if route.request.method != "POST" or lost:
            route.continue_()
            return
        route.fetch()  # the site stores the report and answers...
        lost.append(True)
        route.abort("internetdisconnected")  # ...the phone never hears it

    page.route("**/report/", lose_the_answer)
    page.get_by_role("button", name="Send report").click()
    page.locator("#outbox-status").get_by_text(SAVED).wait_for()
    assert Report.objects.count() == 1

    page.get_by_role("button", name="Send now").click()
    code = _tracking_code(page)
    assert [r.tracking_code for r in Report.objects.all()] == [code]


@pytest.mark.browser
def test_a_report_with_something_to_correct_shows_the_sites_message(
    browser_page, tmp_path
):
    """The site answers (no place given): the form comes back with its message,
    nothing is kept on the phone."""
    page = browser_page
    _fill(page, tmp_path)
    page.get_by_label("Street address or nearest corner").fill("")
    page.get_by_role("button", name="Send report").click()
    page.wait_for_load_state()
    page.get_by_text("Your answers have been kept").wait_for()
    assert Report.objects.count() == 0
    kept = page.evaluate(
        """() => new Promise((done) => {
             const open = indexedDB.open("poquott-reports-waiting");
             open.onsuccess = () => {
               const count = open.result.transaction("reports").objectStore("reports").count();
               count.onsuccess = () => done(count.result);
             };
           })"""
    )
    assert kept == 0


@pytest.mark.browser
def test_a_kept_report_is_still_waiting_after_a_reload_and_is_then_sent(
    browser_page, tmp_path
):
    """The answers and the photo are in the phone's own store, not the page."""
    page = browser_page
    _fill(page, tmp_path)
    page.route(
        "**/report/",
        lambda route: (
            route.abort("internetdisconnected")
            if route.request.method == "POST"
            else route.continue_()
        ),
    )
    page.get_by_role("button", name="Send report").click()
    page.locator("#outbox-status").get_by_text(SAVED).wait_for()

    page.reload()  # the form opens empty; the kept report is tried again, in vain
    page.locator("#outbox-status").get_by_text(SAVED).wait_for()
    assert page.get_by_label("Describe it in your own words").input_value() == ""
    assert Report.objects.count() == 0

    page.unroute("**/report/")
    page.get_by_role("button", name="Send now").click()
    code = _tracking_code(page)
    report = Report.objects.get()
    assert report.tracking_code == code
    assert report.description.startswith("Grey water")
    assert report.photos.count() == 1


@pytest.mark.browser
def test_a_kept_report_sent_while_another_is_typed_leaves_the_typing_alone(
    browser_page, tmp_path
):
    page = browser_page
    _fill(page, tmp_path)
    page.route(
        "**/report/",
        lambda route: (
            route.abort("internetdisconnected")
            if route.request.method == "POST"
            else route.continue_()
        ),
    )
    page.get_by_role("button", name="Send report").click()
    page.locator("#outbox-status").get_by_text(SAVED).wait_for()
    page.reload()
    page.locator("#outbox-status").get_by_text(SAVED).wait_for()
    second = page.get_by_label("Describe it in your own words")
    second.fill("Oil sheen at the beach stairs.")

    page.unroute("**/report/")
    page.get_by_role("button", name="Send now").click()
    status = page.locator("#outbox-status")
    status.get_by_text("saved on this phone earlier has been sent").wait_for()
    assert status.get_by_role("link", name="See its tracking code").is_visible()
    assert second.input_value() == "Oil sheen at the beach stairs."
    assert [r.description[:10] for r in Report.objects.all()] == ["Grey water"]


@pytest.mark.browser
def test_a_report_saved_offline_is_sent_with_the_form_closed(browser_page, tmp_path):
    page = browser_page
    context = page.context
    _fill(page, tmp_path)
    # The form was opened with signal: its service worker is installed (on a
    # busy machine that can take longer than filling in the form).
    assert page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    context.set_offline(True)
    page.get_by_role("button", name="Send report").click()
    page.locator("#outbox-status").get_by_text("even if you close this page").wait_for()

    # The resident puts the phone away; the signal comes back later.
    page.close()
    context.set_offline(False)
    background_sync(context, "/report/", "report-send")
    eventually(lambda: Report.objects.count() == 1)
    report = Report.objects.get()
    assert report.photos.count() == 1

    # Opening the form again says it went, with its code, and sends nothing twice.
    page = context.new_page()
    page.goto("/report/")
    sent = page.get_by_test_id("sent-meanwhile")
    expect(sent).to_contain_text(f"Its tracking code is {report.tracking_code}")
    sent.get_by_role("link", name="Check its status").click()
    expect(page.locator("#public-status")).to_be_visible()
    expect(page.get_by_role("main")).to_contain_text("Sound Road")
    assert Report.objects.count() == 1


@pytest.mark.browser
def test_without_its_service_worker_the_form_says_to_keep_the_page_open(
    browser_page, tmp_path
):
    """The signal went before the form's service worker was installed: nothing
    would send the report with the page closed, so the page does not say so."""
    page = browser_page
    page.context.route("**/report/sw.js", lambda route: route.abort())
    _fill(page, tmp_path)
    page.context.set_offline(True)
    page.get_by_role("button", name="Send report").click()
    status = page.locator("#outbox-status")
    expect(status).to_contain_text("keep this page open")
    expect(status).not_to_contain_text("even if you close this page")

    page.context.set_offline(False)  # still open: it goes
    code = _tracking_code(page)
    assert Report.objects.get().tracking_code == code
