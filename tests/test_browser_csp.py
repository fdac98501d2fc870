"""Issue 26, "The site's own Content Security Policy blocks its styles", in
Chromium: the main pages (home, the report form, the SMO's dashboard, triage, a
case with a report photo, the annual report's charts, a document's draft preview)
cause no CSP violation, neither a `securitypolicyviolation` event nor a console
message about the policy; a report photo's thumbnail is at most 120 px wide
wherever it shows; and at 390 px wide the charts' text is at least 11 px and no
two axis labels overlap."""

import pytest
from django.urls import reverse
from django.utils import timezone

from cases.services import case_open_from_reports
from intake.models import Report
from intake.services import report_submit
from kernel.uploads import process_image_upload
from reporting.annual.year import ReportingYear
from tests.conftest import browser_sign_in
from tests.reports.helpers import category, png_bytes, upload

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {
    "phone": {"width": 390, "height": 844},
    "desktop": {"width": 1280, "height": 900},
}

RECORD_VIOLATIONS = """
window.__csp = [];
document.addEventListener('securitypolicyviolation', e => {
  window.__csp.push(e.violatedDirective + ' ' + e.blockedURI + ' '
                    + (e.sourceFile || '') + ':' + e.lineNumber);
});
"""

# Every <text> of every chart: its size on screen (font size × the svg's scale).
CHART_TEXTS = """
() => [...document.querySelectorAll('svg.chart text')].map(t => ({
  text: t.textContent,
  px: parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a,
}))
"""
# The axis labels of each chart as drawn: [[left, right], ...] per chart.
CHART_TICKS = """
() => [...document.querySelectorAll('svg.chart')].map(svg =>
  [...svg.querySelectorAll('text.chart-tick')].map(t => {
    const r = t.getBoundingClientRect();
    return [r.left, r.right, t.textContent];
  }))
"""


def _report(description, address):
    return report_submit(
        channel=Report.Channel.WEB,
        fields={"description": description, "address": address},
        pollutant_categories=[category("oil-fuel")],
        # a phone-camera-sized photo: without the thumbnail's limit it would
        # fill the page
        photos=[process_image_upload(upload("drain.png", png_bytes((1200, 900))))],
    )


def _visit(page, url, seen):
    """Open `url` and return the violations the page reported."""
    messages = []

    def on_console(message):
        if "Content Security Policy" in message.text:
            messages.append(message.text)

    page.on("console", on_console)
    try:
        response = page.goto(url)
        assert response.status == 200, (url, response.status)
        assert "content-security-policy" in response.headers, url
        page.wait_for_load_state("load")
        page.wait_for_timeout(150)  # a violation is reported asynchronously
    finally:
        page.remove_listener("console", on_console)
    seen.append(url)
    return [f"{url}: {v}" for v in page.evaluate("window.__csp")] + [
        f"{url} (console): {m}" for m in messages
    ]


def _thumbnails_at_most_120(page, url):
    photos = page.get_by_test_id("report-photo")
    assert photos.count() >= 1, url
    for i in range(photos.count()):
        photo = photos.nth(i)
        photo.scroll_into_view_if_needed()
        page.wait_for_function(
            "img => img.complete && img.naturalWidth > 0", arg=photo.element_handle()
        )
        box = photo.bounding_box()
        assert 0 < box["width"] <= 120 and box["height"] <= 120, (url, box)


@pytest.mark.parametrize("size", sorted(SIZES))
def test_the_main_pages_break_no_rule_of_the_csp(browser_page, smo_user, size):
    in_triage = _report(
        "Rainbow sheen at the Washington Street outfall", "Washington Street"
    )
    on_case = _report("Milky water from the pipe on Shore Road", "12 Shore Road")
    case = case_open_from_reports(
        reports=[on_case], actor=smo_user, summary="Milky discharge on Shore Road"
    )
    year = ReportingYear.containing(timezone.localdate())
    page = browser_page
    page.set_viewport_size(SIZES[size])
    page.add_init_script(RECORD_VIOLATIONS)
    violations, seen = [], []

    violations += _visit(page, reverse("public:home"), seen)
    violations += _visit(page, reverse("public:report"), seen)
    browser_sign_in(page, smo_user.username)
    for url in (
        reverse("cases:dashboard"),
        reverse("cases:triage"),
        case.get_absolute_url(),
    ):
        violations += _visit(page, url, seen)
        _thumbnails_at_most_120(page, url)
        if url == reverse("cases:triage"):
            assert in_triage.tracking_code in page.get_by_role("main").inner_text()
    violations += _visit(page, reverse("annual:year", args=[year.start_year]), seen)
    assert page.locator("svg.chart").count() == 3
    violations += _visit(
        page, reverse("documents:sample_preview", args=["annual_report"]), seen
    )
    assert page.get_by_test_id("draft-watermark").count() == 1
    assert violations == []
    assert len(seen) == 7


def test_the_charts_are_readable_on_a_390_px_phone(browser_page, smo_user):
    for n in range(3):
        _report(f"Report {n}", f"{n} Shore Road")
    year = ReportingYear.containing(timezone.localdate())
    page = browser_page
    page.set_viewport_size(SIZES["phone"])
    browser_sign_in(page, smo_user.username)
    page.goto(reverse("annual:year", args=[year.start_year]))
    texts = page.evaluate(CHART_TEXTS)
    assert len(texts) > 20
    small = [t for t in texts if t["px"] < 11]
    assert small == [], small
    for ticks in page.evaluate(CHART_TICKS):
        assert ticks
        for (_, right, a), (left, _, b) in zip(ticks, ticks[1:], strict=False):
            assert right <= left, (a, b)
    # no chart is wider than the phone's page
    widths = page.evaluate(
        "() => [...document.querySelectorAll('svg.chart')]"
        ".map(s => s.getBoundingClientRect().right)"
    )
    assert max(widths) <= 390
