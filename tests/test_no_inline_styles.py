"""Issue 26, "The site's own Content Security Policy blocks its styles": the policy
is `style-src 'self'` and `script-src 'self'` (settings CONTENT_SECURITY_POLICY),
so a browser refuses every inline `style=` attribute, `<style>` block and inline
`<script>`. No template may have one: styles are classes in our own stylesheets
(static/css/site.css for pages, static/css/print.css for documents).

The allow-list holds only templates that no browser is ever sent: the hearing
packet's parts and page footers (enforcement/packet.py renders them with
`render_to_string` straight to a PDF through WeasyPrint; no view returns them as
HTML). Every other document template (templates/documents/*.html extending
documents/base.html, the annual report) is also served as HTML, the staff's
preview and the stored HTML (documents/views.py), so it is checked."""

import re
from pathlib import Path

from django.conf import settings

from documents import services as document_services
from tests.project import templates

# Rendered only to PDF by WeasyPrint (the packets: documents/packets.py),
# never served as HTML.
PDF_ONLY = {
    "documents/_packet_head.html",  # head of packet_appeal/_evidence/_chronology
    "documents/packet_footer.html",
}

STYLE_ATTRIBUTE = re.compile(r"""\sstyle\s*=""", re.IGNORECASE)
STYLE_BLOCK = re.compile(r"<style\b", re.IGNORECASE)
SCRIPT_TAG = re.compile(r"<script\b[^>]*>", re.IGNORECASE)


def _templates():
    for name, path in templates(".html", ".txt", ".svg", ".xml"):
        yield name, path.read_text()


def _lines(text, pattern):
    return [
        n for n, line in enumerate(text.splitlines(), start=1) if pattern.search(line)
    ]


def _offenders(pattern):
    return [
        f"templates/{name}:{n}"
        for name, text in _templates()
        if name not in PDF_ONLY
        for n in _lines(text, pattern)
    ]


def test_templates_exist():
    assert len(list(_templates())) > 50


def test_no_inline_style_attribute():
    assert _offenders(STYLE_ATTRIBUTE) == []


def test_no_style_block_in_pages_served_under_the_csp():
    assert _offenders(STYLE_BLOCK) == []


def test_no_inline_script():
    offenders = [
        f"templates/{name}: {tag}"
        for name, text in _templates()
        for tag in SCRIPT_TAG.findall(text)
        if not re.search(r"\ssrc\s*=", tag, re.IGNORECASE)
    ]
    assert offenders == []


def test_pdf_only_templates_are_not_rendered_by_any_view():
    """The allow-list stays honest: its templates are named only by the packet's
    PDF builder."""
    base = Path(settings.BASE_DIR)
    for name in PDF_ONLY:
        users = sorted(
            str(p.relative_to(base))
            for p in base.rglob("*.py")
            if ".venv" not in p.parts
            and "tests" not in p.parts
            and name in p.read_text()
        )
        # The Board's hearing packet and the Justice Court packet (issue 27),
        # bound by the packet binder of the document pipeline (issue 29).
        assert set(users) <= {
            "enforcement/packet.py",
            "ledger/packet.py",
            "documents/packets.py",
        }, (
            name,
            users,
        )
    included = [
        name
        for name, text in _templates()
        if name not in PDF_ONLY and '"documents/_packet_head.html"' in text
    ]
    assert sorted(included) == [
        "documents/packet_appeal.html",
        "documents/packet_chronology.html",
        "documents/packet_evidence.html",
        "ledger/packet_referral.html",  # the Justice Court packet (issue 27)
    ]


def test_the_draft_preview_marks_itself_with_a_stylesheet_not_inline_styles():
    """The preview (served as HTML) adds its DRAFT mark from static/css/draft.css."""
    marked = document_services.mark_draft(
        "<html><head></head><body><p>x</p></body></html>"
    )
    assert "/static/css/draft.css" in marked
    assert not STYLE_BLOCK.search(marked)
    assert not STYLE_ATTRIBUTE.search(marked)
