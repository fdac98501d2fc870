"""The annual MS4 report in a browser (issue 17), by clicking only: the SMO
freezes the current year's report, publishes the draft for comment, a resident
comments on the public page, the SMO sees the comment and makes the report
final; its PDF is issued and the public page prints the summary."""

import datetime as dt

import pytest
from django.utils import timezone

from reporting.annual.year import ReportingYear
from tests.conftest import browser_sign_in
from tests.enforcement.test_browser_hearing import render_pending
from tests.enforcement.test_browser_remedies import (
    confirmed_case,
    iso,
    nav,
    take_step,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

COMMENT = "Please screen the outfall at the foot of Shore Road more often."
SUMMARY = "One comment asked for more frequent screening at Shore Road."


def test_the_smo_freezes_publishes_and_finishes_the_annual_report(
    browser_page, live_server, smo_user, monkeypatch
):
    confirmed_case(smo_user)  # a case opened and confirmed in this year
    year = ReportingYear.containing(timezone.localdate())
    today = timezone.localdate()
    page = browser_page
    browser_sign_in(page, smo_user.username)
    nav(page, "Annual report")
    main = page.get_by_role("main")
    assert year.label in main.inner_text()
    page.get_by_role("button", name="Freeze this report (PDF and CSV)").click()
    heading = page.get_by_role("heading", level=1).inner_text()
    assert heading == f"Annual MS4 report {year.label} — version 1"
    assert "Frozen, not published." in page.get_by_role("main").inner_text()
    render_pending()  # what the document worker does (the freeze's PDF)
    page.reload()

    take_step(
        page,
        "Publish the draft for public comment",
        **{
            "Comment period begins on": iso(today),
            "Comment period ends on": iso(today + dt.timedelta(days=30)),
        },
    )
    assert (
        "Draft published for public comment." in page.get_by_role("main").inner_text()
    )

    # A resident on the public page, from the link the office shows.
    render_pending()
    page.get_by_role("link", name="The public page").click()
    page.get_by_label("Your comment on the draft report").fill(COMMENT)
    page.get_by_role("button", name="Send the comment").click()
    assert "comment" in page.get_by_role("main").inner_text().lower()

    # The SMO again, from the navigation: the year's frozen version.
    nav(page, "Annual report")
    page.get_by_role("link", name="Version 1").click()
    comments = page.get_by_role("region", name="Comments received")
    assert COMMENT in comments.inner_text()
    # made final once the comment period has closed and the reporting year ended
    final_day = max(
        today + dt.timedelta(days=31), ReportingYear(year.start_year + 1).first_day
    )
    monkeypatch.setattr("reporting.annual.models.today", lambda: final_day)
    page.reload()
    take_step(
        page,
        "Make the report final",
        **{"Summary of the comments received": SUMMARY},
    )
    render_pending()
    page.reload()
    main = page.get_by_role("main")
    assert "Final. Computed from the records" in main.inner_text()
    assert main.get_by_role("link", name="PDF").count() >= 1
    page.get_by_role("link", name="The public page").click()
    public = page.get_by_role("main").inner_text()
    assert SUMMARY in public and "Your comment on the draft report" not in public
