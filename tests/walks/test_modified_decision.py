"""Click-only walk (issue 19, §§ 132-14, 132-15 A): a notice with a fine is issued
and served; the clerk records the appeal, tries a hearing on a day that has
passed (refused), schedules it, and records a MODIFIED decision saying what the
Board modified; the SMO reads on the notice that no five-business-day clock runs,
issues the superseding notice through "Issue a correction" with the modified
requirements, and the correction clock read on the pages is that notice's own
(R-NOV-2), never R-COR-1. Only links, buttons and fields the pages show are used
(the sign-in page is the one URL typed)."""

import datetime as dt
import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from deadlines.services import compute_due
from enforcement.models import Appeal, NoticeOfViolation
from kernel.humanize import human_date
from tests.conftest import browser_sign_in
from tests.steps import tick_confirmation
from tests.walks.test_notice_and_appeal import (
    _confirmed_case,
    _issue_notice_with_a_fine,
    _open_case,
    _sign_out,
)

MODIFIED = "The fine is struck; the catch basin is to be cleaned within 20 days."


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_modified_decision_is_carried_out_by_a_superseding_notice(
    browser_page, smo_user, clerk_user
):
    today = timezone.localdate()
    case = _confirmed_case()
    page = browser_page
    browser_sign_in(page, "smo")
    _issue_notice_with_a_fine(page, case)
    original = NoticeOfViolation.objects.get(case=case)
    _sign_out(page)

    # The clerk: appeal, hearing (not on a day that has passed), modified decision.
    browser_sign_in(page, "clerk")
    _open_case(page, case)
    page.get_by_role("link", name=f"NOV-{original.pk}").first.click()
    page.get_by_role("link", name="Record an appeal of this notice").click()
    page.get_by_label("Date filed").fill(today.isoformat())
    page.get_by_label("Grounds").fill("The fine is out of proportion.")
    page.get_by_role("button", name="Record the appeal").click()
    yesterday = today - dt.timedelta(days=1)
    page.get_by_label("Hearing date and time").fill(f"{yesterday.isoformat()}T19:00")
    page.get_by_role("button", name="Schedule the hearing").click()
    expect(page.locator("body")).to_contain_text(
        "a hearing cannot be scheduled or moved to a day that has passed"
    )
    page.get_by_label("Hearing date and time").fill(f"{today.isoformat()}T09:00")
    page.get_by_label("Location").fill("Village Hall")
    page.get_by_role("button", name="Schedule the hearing").click()
    assert "Hearing scheduled" in page.locator(".alert").first.inner_text()
    page.get_by_role("combobox", name=re.compile(r"^Decision")).select_option(
        label="Modified"
    )
    page.get_by_label("Date of decision").fill(today.isoformat())
    page.get_by_label("Resolution").fill("The Board modifies the notice.")
    tick_confirmation(page, "decide")
    page.get_by_role("button", name="Record the decision").click()
    # Refused without what was modified; the form comes back with the input.
    expect(page.locator("body")).to_contain_text("say what the Board modified")
    page.get_by_label("What the Board modified").fill(MODIFIED)
    tick_confirmation(page, "decide")
    page.get_by_role("button", name="Record the decision").click()
    expect(page.locator(".alert-success").first).to_contain_text(
        f"The SMO issues a notice superseding NOV-{original.pk}"
    )
    expect(page.locator("body")).to_contain_text(
        f"Modified by the Board on {human_date(today)}:"
    )
    appeal = Appeal.objects.get(notice=original)
    assert appeal.decision == "modified" and appeal.modification == MODIFIED
    _sign_out(page)

    # The SMO: the notice appealed says no correction clock runs on it.
    browser_sign_in(page, "smo")
    _open_case(page, case)
    page.get_by_role("link", name=f"NOV-{original.pk}").first.click()
    body = page.locator("body")
    expect(body).to_contain_text(f"Modified by the Board on {human_date(today)}:")
    expect(body).to_contain_text(
        f"No five-business-day correction clock runs on NOV-{original.pk}"
    )
    no_cor_1 = re.compile(r"due [^()]*\(R-COR-1\)")  # no R-COR-1 key date
    expect(body).not_to_contain_text(no_cor_1)
    page.get_by_role("button", name="Issue a correction").click()
    # The draft names the decision; the SMO makes it say what the Board decided.
    expect(page.get_by_label("Findings")).to_have_value(
        re.compile(r"as modified by the decision of the Board of Trustees")
    )
    page.get_by_label("(5) Payment of a fine").uncheck()
    page.get_by_label("Particulars of (5)").fill("")
    page.get_by_label("Proposed fine ($)").fill("")
    page.get_by_label("Days to complete abatement or restoration (R-NOV-2)").fill("20")
    page.get_by_role("button", name="Save").click()
    tick_confirmation(page, "issue")
    page.get_by_role("button", name="Issue the notice").click()
    assert "issued" in page.locator(".alert-success").first.inner_text()

    superseding = NoticeOfViolation.objects.get(supersedes=original)
    due = compute_due("R-NOV-2", today, days=20).due  # its own terms
    body = page.locator("body")
    # The notice page says its days in words (issue 16), the rule id beside.
    expect(body).to_contain_text(
        "Issued to carry out the decision of the Board of Trustees of "
        f"{human_date(today)}"
    )
    expect(body).to_contain_text(f"due {human_date(due)} R-NOV-2")
    expect(body).not_to_contain_text(no_cor_1)
    # The case page: which notice's requirements stand, and by when.
    _open_case(page, case)
    panel = page.locator("section", has_text="Notices of violation").first
    expect(panel).to_contain_text(
        f"the requirements that stand are those of NOV-{superseding.pk}, issued "
        f"{human_date(today)}"
    )
    expect(panel).to_contain_text(f"by {human_date(due)}")
    assert not superseding.deadlines().filter(rule_id="R-COR-1").exists()
    assert not original.deadlines().filter(rule_id="R-COR-1").exists()
