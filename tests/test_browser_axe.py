"""Issue 18, "Accessible to everyone who must use it": the public pages and the
staff pages pass axe-core with no violations (WCAG 2.1 A and AA and axe's best
practices). axe-core is served from our own static files (static/vendor/axe-core,
copied by `make vendor` from the npm package), never fetched from elsewhere.

The pages are the ones of the layout walk (tests/test_browser_layout.py): the
public home page, report form, status page and calculator; the dashboard, case
list, a case, triage, notices, appeals, deadlines and the rest of each role's
navigation, as the SMO and as the clerk."""

import json
from pathlib import Path

import pytest
from django.conf import settings

from tests.test_browser_layout import (
    SIZES,
    load_demo_like_data,
    unseen,
    walk_public,
    walk_staff,
)

AXE = Path(settings.BASE_DIR) / "static" / "vendor" / "axe-core" / "axe.min.js"

_RUN_AXE = """async () => {
  const result = await axe.run(document, {resultTypes: ['violations']});
  return result.violations.map(v => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 8).map(n => ({
      target: n.target.join(' '), summary: n.failureSummary,
    })),
    more: Math.max(0, v.nodes.length - 8),
  }));
}"""


def axe_violations(page) -> list[dict]:
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        # By its static URL: the pages' Content-Security-Policy allows only
        # scripts of our own origin.
        page.add_script_tag(url=f"{settings.STATIC_URL}vendor/axe-core/axe.min.js")
    return page.evaluate(_RUN_AXE)


def readable(name, violations) -> str:
    lines = [f"{name}:"]
    for v in violations:
        lines.append(f"  [{v['impact']}] {v['id']}: {v['help']}")
        for node in v["nodes"]:
            summary = " ".join(node["summary"].split())
            lines.append(f"      {node['target']} — {summary}")
        if v["more"]:
            lines.append(f"      … and {v['more']} more")
    return "\n".join(lines)


def test_axe_is_served_from_our_own_static_files():
    assert AXE.is_file()
    assert AXE.stat().st_size > 100_000
    assert (
        "axe-core"
        in json.loads((AXE.parents[3] / "package.json").read_text())["dependencies"]
    )


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("size", sorted(SIZES))
def test_public_and_staff_pages_have_no_axe_violations(browser_page, size):
    load_demo_like_data()
    page = browser_page
    page.set_viewport_size(SIZES[size])
    found, seen = [], []

    def visit(page, name):
        seen.append(name)
        violations = axe_violations(page)
        if violations:
            found.append(readable(f"{name} ({page.url})", violations))

    walk_public(page, visit)
    for role in ("smo", "clerk"):
        walk_staff(page, role, visit)
    assert not unseen(seen), unseen(seen)
    assert not found, "\n".join(found)
