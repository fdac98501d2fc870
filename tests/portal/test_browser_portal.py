"""The respondent's page in a browser, at phone size (issue 18): the address and
the code read off the rendered notice, the code entered with the keyboard only,
the deadlines with how they were computed, and no axe-core violations on the
way (axe served from our own static files)."""

import datetime as dt
import io

import pytest
from django.utils import timezone
from pypdf import PdfReader

from cases.documents.contracts import DocumentKind
from cases.documents.selectors import latest_document
from cases.documents.services import document_render
from enforcement.services import notices as notice_svc
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
    document = latest_document(notice, DocumentKind.NOTICE_OF_VIOLATION)
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
    assert " ".join(deadline.explanation.split())[:60] in " ".join(
        opened.inner_text().split()
    )

    # Leave: the page is closed, the code form is back.
    _tab_to(page, "el => el.textContent.trim() === 'Leave this page'")
    page.keyboard.press("Enter")
    page.wait_for_selector("#code")
    assert "You have left your case page" in page.get_by_role("main").inner_text()
