"""The respondent's page in a browser, at phone size (issue 18): the address and
the code read off the rendered notice, the code entered with the keyboard only,
the deadlines with how they were computed, and no axe-core violations on the
way (axe served from our own static files)."""

import datetime as dt
import io

import pytest
from django.utils import timezone
from PIL import Image
from pypdf import PdfReader

from documents.selectors import latest_document
from documents.services import document_render
from enforcement.document_kinds import EnforcementDocument
from enforcement.models import Appeal
from enforcement.services import notices as notice_svc
from enforcement.services.appeals import hearing_by
from kernel.humanize import human_date, human_datetime
from tests.conftest import browser_sign_in
from tests.enforcement.conftest import draft
from tests.enforcement.test_browser_remedies import confirmed_case
from tests.test_browser_axe import axe_violations, readable
from tests.test_browser_layout import SIZES, page_overflow

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _notice_pdf_text(smo_user):
    """A notice issued today to the case's owner, rendered; its PDF's text."""
    today = timezone.localdate()
    case = confirmed_case(smo_user)
    notice = notice_svc.notice_issue(
        notice=draft(case, smo_user, violation_date=today - dt.timedelta(days=3)),
        actor=smo_user,
        issued_on=today,
    )
    document = latest_document(notice, EnforcementDocument.NOTICE_OF_VIOLATION)
    document_render(document_id=document.pk)
    document.refresh_from_db()
    pages = PdfReader(io.BytesIO(document.pdf.open("rb").read())).pages
    return notice, " ".join(" ".join(p.extract_text().split()) for p in pages)


def _tab_to(page, predicate_js: str, limit: int = 60):
    """Press Tab until the focused element satisfies `predicate_js` (el => …)."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate(
            f"() => {{ const el = document.activeElement; return ({predicate_js})(el); }}"
        ):
            return
    raise AssertionError(f"Tab never reached {predicate_js}")


def _no_axe_violations(page, name):
    found = axe_violations(page)
    assert not found, readable(name, found)
    assert page_overflow(page) is None, page_overflow(page)


def test_the_respondent_opens_their_page_from_the_paper_with_the_keyboard(
    browser_page, live_server, settings, smo_user
):
    settings.SITE_URL = live_server.url
    notice, text = _notice_pdf_text(smo_user)
    # What the paper says: "go to <address> and enter your access code <code>."
    after = text.split("go to ", 1)[1]
    address = after.split(" ", 1)[0]
    code = after.split("access code ", 1)[1].split(" ", 1)[0].rstrip(".")
    assert address == f"{live_server.url}/respond/" and len(code) == 19

    page = browser_page
    page.set_viewport_size(SIZES["phone"])
    page.goto(address)
    _no_axe_violations(page, "the code form")

    # A mistyped code: one answer, the field empty again, nothing opened.
    _tab_to(page, "el => el.id === 'code'")
    page.keyboard.type(code[:-1] + ("2" if code[-1] != "2" else "3"))
    page.keyboard.press("Enter")
    page.wait_for_selector("#portal-wrong")
    _no_axe_violations(page, "a wrong code")

    _tab_to(page, "el => el.id === 'code'")
    page.keyboard.type(code.lower().replace("-", " "))  # as anyone might type it
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-testid=portal-notice]")
    main = page.get_by_role("main")
    assert f"Notice of violation NOV-{notice.pk}" in main.inner_text()
    _no_axe_violations(page, "the respondent's case page")

    # The dates, each with how it was computed, opened from the keyboard.
    deadline = (
        notice.deadlines().filter(responsible="discharger").order_by("due_date")[0]
    )
    assert deadline.label in main.inner_text()
    _tab_to(page, "el => el.tagName === 'SUMMARY'")
    page.keyboard.press("Enter")
    opened = page.locator("details[open]").first
    assert " ".join(deadline.people_explanation.split())[:60] in " ".join(
        opened.inner_text().split()
    )

    # Leave: the page is closed, the code form is back.
    _tab_to(page, "el => el.textContent.trim() === 'Leave this page'")
    page.keyboard.press("Enter")
    page.wait_for_selector("#code")
    assert "You have left your case page" in page.get_by_role("main").inner_text()


def test_the_respondent_sends_proof_and_appeals_and_the_office_sees_both(
    browser_page, live_server, settings, smo_user, clerk_user, tmp_path
):
    """At phone size: the code read off the paper, a photo sent as proof, an
    appeal filed; the clerk finds it in the appeals list, filed online, with the
    day received and the R-APL-2 hearing-by date; the SMO finds the proof on the
    dashboard and accepts it; the respondent's page says so."""
    settings.SITE_URL = live_server.url
    notice, text = _notice_pdf_text(smo_user)
    after = text.split("go to ", 1)[1]
    address = after.split(" ", 1)[0]
    code = after.split("access code ", 1)[1].split(" ", 1)[0].rstrip(".")
    photo = tmp_path / "drain-now.jpg"
    Image.new("RGB", (320, 240), "gray").save(photo, format="JPEG")

    page = browser_page
    page.set_viewport_size(SIZES["phone"])
    page.goto(address)
    page.get_by_label("Access code").fill(code)
    page.get_by_role("button", name="Open my case page").click()
    page.get_by_role("link", name="Send proof the work is done").click()
    _no_axe_violations(page, "the proof form")
    page.get_by_label("What was done, and when").fill(
        "The hose to the storm drain was removed yesterday."
    )
    page.get_by_label("Photos or PDF documents").set_input_files(str(photo))
    page.get_by_role("button", name="Send the proof").click()
    main = page.get_by_role("main")
    assert "your proof is sent" in main.inner_text()
    assert (
        "with 1 file: Waiting for the Stormwater Management Officer's review"
        in main.inner_text()
    )

    page.get_by_role("link", name="Appeal to the Board of Trustees").click()
    _no_axe_violations(page, "the appeal form")
    page.get_by_label("Why you appeal (the grounds)").fill(
        "The water was from a burst garden hose, not a connection."
    )
    page.get_by_label("I appeal notice").check()
    page.get_by_role("button", name="File the appeal").click()
    page.wait_for_selector("#appeal-receipt-number")
    _no_axe_violations(page, "the appeal receipt")
    appeal = Appeal.objects.get(notice=notice)
    assert appeal.receipt_number in page.get_by_role("main").inner_text()

    # The clerk, from the navigation: the appeal, filed online, its dates.
    clerk = page.context.browser.new_context(base_url=live_server.url)
    office = clerk.new_page()
    browser_sign_in(office, clerk_user.username)
    office.get_by_role("link", name="Appeals", exact=True).first.click()
    row = office.locator("li", has=office.get_by_test_id("filed-online")).first
    words = " ".join(row.inner_text().split())
    assert f"Appeal {appeal.pk}" in words
    assert f"received {human_datetime(appeal.received_at)}" in words
    assert f"hear by {human_date(hearing_by(appeal))}" in words
    clerk.close()

    # The SMO, from the dashboard: the proof, accepted.
    smo = page.context.browser.new_context(base_url=live_server.url)
    office = smo.new_page()
    browser_sign_in(office, smo_user.username)
    office.get_by_role("link", name=f"Review the proof: NOV-{notice.pk}").click()
    review = office.get_by_test_id("portal-correction-review")
    found = axe_violations(office)
    assert not found, readable("the case page with a proof to review", found)
    assert "The hose to the storm drain was removed yesterday." in review.inner_text()
    assert review.get_by_role("img").count() == 1
    review.get_by_label(f"and record NOV-{notice.pk} complied on").uncheck()
    review.get_by_role("button", name="Accept the proof").click()
    assert "is accepted" in office.get_by_role("main").inner_text()
    smo.close()

    page.get_by_role("link", name="Back to my case page").click()
    assert "with 1 file: Accepted" in page.get_by_role("main").inner_text()
