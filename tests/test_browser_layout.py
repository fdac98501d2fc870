"""Issue 16, "Phone-sized staff pages do not scroll sideways": at phone size (375
wide) and at desktop size no page is wider than the viewport. Long hashes,
article numbers, e-mail addresses and URLs wrap; tables become stacked rows.

The data is the demo data (`manage.py load_demo_data`: cases at every stage, a
notice of violation served by certified mail, an appeal with its hearing,
inspections, outfalls) plus a remedy and an e-mail in the outbox. The pages are
reached as a user would: the public home page and the sign-in page are the only
URLs typed, the rest by clicking the navigation and the first row of each list."""

import pytest
from django.core.management import call_command
from django.utils import timezone
from playwright.sync_api import expect

from cases.models import Case
from documents.models import IssuedDocument
from documents.tasks import render_document
from enforcement import demo as enforcement_demo
from enforcement.services import remedies
from intake.models import Report
from tests.conftest import browser_sign_in
from tests.outbox.factories import OutgoingMessageFactory
from tests.walks.test_notice_and_appeal import _menu

SIZES = {
    "phone": {"width": 375, "height": 740},
    "desktop": {"width": 1280, "height": 800},
}
STAFF_ROLES = ("smo", "clerk")
PUBLIC_NAV = ("Report a discharge", "Check a report", "Deadline calculator")
# Pages the walk must reach (so that a changed link cannot shrink it unseen);
# a name ending in "→ " stands for any first row of that list.
MUST_SEE = {
    "home",
    *PUBLIC_NAV,
    "Check a report, with a report's status",
    "Deadline calculator, with its answer",
    "smo: dashboard",
    "smo: outbox",
    "smo: Triage",
    "smo: a report's own page",
    "smo: Cases",
    "smo: Cases → ",
    "smo: a case's document",
    "smo: a case's remedy",
    "smo: Inspections",
    "smo: Outfalls",
    "smo: Outfalls → ",
    "smo: Notices",
    "smo: Notices → ",
    "smo: Appeals",
    "smo: Appeals → ",
    "smo: Deadlines",
    "smo: today's work offline",
    "smo: field work kept for a decision",
    "clerk: dashboard",
    "clerk: Cases",
    "clerk: Appeals",
    "clerk: Board meetings",
    "clerk: Deadlines",
}

# The page's width against the viewport's; when wider, the elements that stick
# out furthest without a child that does (the ones to fix), widest first.


def unseen(seen) -> list[str]:
    """The pages of MUST_SEE the walk did not reach."""
    return sorted(
        name
        for name in MUST_SEE
        if not any(
            s == name or (name.endswith("→ ") and s.startswith(name)) for s in seen
        )
    )


_OVERFLOW_JS = """() => {
  const vw = window.innerWidth;
  const sw = document.documentElement.scrollWidth;
  if (sw <= vw) return null;
  // An element's right edge, its overflowing content (text too) included.
  const right = el => {
    const r = el.getBoundingClientRect();
    return r.width === 0 ? 0 : Math.max(r.right, r.left + el.scrollWidth);
  };
  const out = [];
  for (const el of document.querySelectorAll('body *')) {
    const edge = right(el);
    if (edge <= vw + 0.5) continue;
    if ([...el.children].some(c => right(c) > vw + 0.5)) continue;
    let name = el.tagName.toLowerCase();
    if (el.id) name += '#' + el.id;
    if (el.classList.length) name += '.' + [...el.classList].join('.');
    const text = (el.innerText || el.value || '').trim().slice(0, 50);
    out.push({name, text, right: Math.round(edge)});
  }
  out.sort((a, b) => b.right - a.right);
  return {scrollWidth: sw, innerWidth: vw, culprits: out.slice(0, 3)};
}"""


def page_overflow(page) -> str | None:
    """None, or what makes the page wider than the viewport, in words."""
    found = page.evaluate(_OVERFLOW_JS)
    if found is None:
        return None
    culprits = "; ".join(
        f"<{c['name']}> {c['text']!r} (right edge at {c['right']}px)"
        for c in found["culprits"]
    )
    return (
        f"{found['scrollWidth']}px wide in a {found['innerWidth']}px viewport; "
        f"widest: {culprits or 'none found'}"
    )


def load_demo_like_data():
    """The demo data, made through the services as `make run` makes it, with a
    nuisance abatement on the enforcement case, the issued documents rendered,
    and a failed e-mail in the outbox with a long address and a long error."""
    call_command("load_demo_data", verbosity=0)
    case = Case.objects.get(summary=enforcement_demo.DEMO_SUMMARY)
    remedies.nuisance_declare(
        case=case,
        actor=case.opened_by,
        condition_description=(
            "Pool water pumped to the catch basin; the basin's grate "
            "(PQ-CB-0000000000000000000000007) is blocked with silt."
        ),
        declared_on=timezone.localdate(),
    )
    # The PDFs, as the worker of `make run` makes them a moment after issue
    # (the task run here, in this process).
    for pk in IssuedDocument.objects.filter(
        status=IssuedDocument.Status.RENDERING
    ).values_list("pk", flat=True):
        render_document(pk)
    OutgoingMessageFactory(
        failed=True,
        recipient="a.very.long.address.of.a.discharger@harbor-auto-detailing.example",
        last_error=(
            "SMTPRecipientsRefused: {'a.very.long.address.of.a.discharger@"
            "harbor-auto-detailing.example': (550, b'5.1.1 mailbox-unavailable')}"
        ),
    )


def _title(page) -> str:
    heading = page.locator("main h1").first
    name = heading.inner_text().strip() if heading.count() else ""
    return f"{name or page.title()} ({page.url.split('//', 1)[-1].split('/', 1)[-1]})"


def _nav(page, label):
    _menu(page)
    page.locator("#mainnav").get_by_role("link", name=label, exact=True).first.click()
    page.wait_for_load_state("domcontentloaded")


def _first_row_link(page):
    """The first link of a list's first row (a table row or a list item)."""
    for selector in ("main table tbody tr", "main .list-group-item", "main li"):
        links = page.locator(selector).locator("a[href]:not([href^='#'])")
        if links.count():
            return links.first
    return None


_DOCUMENT = "section[aria-labelledby='documents-heading'] a[href*='/documents/']"
_REMEDY = "main a[href*='/remedies/']"
_REPORT = "main [data-testid='report-page-link']"


_KEPT = "[data-testid=fieldwork-queue] a[href$='/fieldwork/kept/']"


def _follow(page, visit, name, selector):
    """Open the first link of `selector` on this page, look, and come back."""
    link = page.locator(selector)
    if link.count():
        link.first.click()
        page.wait_for_load_state("domcontentloaded")
        visit(page, name)
        page.go_back()
        page.wait_for_load_state("domcontentloaded")


def walk_public(page, visit):
    """The public pages: home, the report form, the status page with a report's
    status on it, the calculator with an answer on it."""
    page.goto("/")
    visit(page, "home")
    for label in PUBLIC_NAV:
        _nav(page, label)
        visit(page, label)
        if label == "Check a report":
            code = Report.objects.order_by("pk").first().tracking_code
            page.get_by_label("Tracking code").fill(code)
            page.get_by_role("button", name="Check").click()
            page.locator("#status-result").wait_for()
            visit(page, "Check a report, with a report's status")
    page.get_by_label("Date of the event it counts from").fill("2026-12-10")
    page.get_by_role("button", name="Compute the due date").click()
    page.wait_for_load_state("domcontentloaded")
    visit(page, "Deadline calculator, with its answer")


def walk_staff(page, role, visit, *, rows=True):
    """Signed in as `role`: the dashboard, every page of the navigation and the
    first row of each (a case, a notice, an appeal, …), and the outbox."""
    browser_sign_in(page, role)
    page.wait_for_url("**/staff/")
    visit(page, f"{role}: dashboard")
    if role == "smo":
        _follow(page, visit, "smo: field work kept for a decision", _KEPT)
        offline = page.get_by_role("link", name="Take today's work offline")
        offline.click()
        page.get_by_role("button", name="Take today's work offline").click()
        page.get_by_test_id("fw-downloaded").get_by_text("Downloaded").wait_for()
        visit(page, "smo: today's work offline")
        page.go_back()
    outbox = page.get_by_role("main").get_by_role("link", name="Outbox")
    if outbox.count():
        outbox.first.click()
        visit(page, f"{role}: outbox")
    links = page.locator("#mainnav .navbar-nav.me-auto a.nav-link")
    labels = [text.strip() for text in links.all_text_contents()]
    for label in labels:
        _nav(page, label)
        visit(page, f"{role}: {label}")
        if not rows:
            continue
        link = _first_row_link(page)
        if link is not None:
            text = link.inner_text().strip()
            link.click()
            page.wait_for_load_state("domcontentloaded")
            visit(page, f"{role}: {label} → {text}")
        if label == "Cases":
            _follow(page, visit, f"{role}: a case's document", _DOCUMENT)
            _follow(page, visit, f"{role}: a case's remedy", _REMEDY)
        if label == "Triage":
            _follow(page, visit, f"{role}: a report's own page", _REPORT)
    _menu(page)
    page.get_by_role("button", name="Sign out").click()
    # Signing out first clears what the field-work page kept on this browser.
    expect(page.get_by_role("button", name="Sign out")).to_have_count(0)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("size", sorted(SIZES))
def test_no_page_is_wider_than_the_viewport(browser_page, size):
    load_demo_like_data()
    page = browser_page
    page.set_viewport_size(SIZES[size])
    wide, seen = [], []

    def visit(page, name):
        seen.append(name)
        problem = page_overflow(page)
        if problem:
            wide.append(f"{name} — {_title(page)}: {problem}")

    walk_public(page, visit)
    for role in STAFF_ROLES:
        walk_staff(page, role, visit)
    assert not unseen(seen), unseen(seen)
    assert not wide, "\n".join(wide)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_check_names_what_makes_a_page_too_wide(browser_page):
    page = browser_page
    page.set_viewport_size(SIZES["phone"])
    page.goto("/")
    assert page_overflow(page) is None
    page.evaluate(
        """() => {
        const p = document.createElement('p');
        p.id = 'too-wide';
        p.style.whiteSpace = 'nowrap';
        p.textContent = 'x'.repeat(300);
        document.querySelector('main').append(p);
    }"""
    )
    problem = page_overflow(page)
    assert problem is not None
    assert "in a 375px viewport" in problem
    assert "<p#too-wide> 'xxxx" in problem
