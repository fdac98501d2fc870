"""Every kind of document is a tagged PDF/A (issue 29: PDF/UA, WCAG): a screen
reader finds its language, its title, its headings in the order the letter has
them, and alt text for every figure (the QR code, the annual report's charts).
The printed web address of the respondent's page is also a link."""

import html as html_lib
import io
import re
from html.parser import HTMLParser

import pytest
from pypdf import PdfReader

from documents.contracts import OnlineAccess
from documents.registry import registered_kinds, sample_facts
from documents.render import render
from enforcement.document_kinds import EnforcementDocument
from reporting.document_kinds import ReportingDocument

pytestmark = pytest.mark.django_db

HEADING = re.compile(r"^/H([1-6])$")


class _Headings(HTMLParser):
    """The levels and texts of the HTML's headings, in document order."""

    def __init__(self):
        super().__init__()
        self.headings: list[tuple[int, str]] = []
        self._level = None

    def handle_starttag(self, tag, attrs):
        if re.fullmatch(r"h[1-6]", tag):
            self._level, self._text = int(tag[1]), ""

    def handle_data(self, data):
        if self._level is not None:
            self._text += data

    def handle_endtag(self, tag):
        if self._level is not None and tag == f"h{self._level}":
            self.headings.append((self._level, " ".join(self._text.split())))
            self._level = None


def html_headings(html: str) -> list[int]:
    parser = _Headings()
    parser.feed(html)
    return [level for level, _text in parser.headings]


def structure(pdf: bytes):
    """(catalog, [(structure type, alt text)] in the tree's order)."""
    reader = PdfReader(io.BytesIO(pdf))
    catalog = reader.trailer["/Root"]
    elements = []

    def walk(node):
        node = node.get_object()
        if "/S" in node:
            elements.append((str(node["/S"]), str(node.get("/Alt") or "")))
        kids = node.get("/K")
        if kids is None:
            return
        for kid in kids if isinstance(kids, list) else [kids]:
            kid = kid.get_object() if hasattr(kid, "get_object") else kid
            if hasattr(kid, "get") and kid.get("/Type") != "/MCR":
                walk(kid)

    if "/StructTreeRoot" in catalog:
        walk(catalog["/StructTreeRoot"])
    return reader, catalog, elements


@pytest.mark.parametrize("kind", sorted(registered_kinds()))
def test_each_kind_is_tagged_in_reading_order_with_language_title_and_alt_text(kind):
    rendered = render(kind, sample_facts(kind))
    reader, catalog, elements = structure(rendered.pdf)

    assert bool(catalog["/MarkInfo"]["/Marked"])
    assert str(catalog["/Lang"]) == "en"
    assert bool(catalog["/ViewerPreferences"]["/DisplayDocTitle"])
    title = re.search(r"<title>(.*?)</title>", rendered.html, re.S).group(1)
    assert reader.metadata.title == html_lib.unescape(" ".join(title.split()))
    # PDF/A-3 at level A (accessible), as the document row claims
    xmp = catalog["/Metadata"].get_object().get_data()
    assert re.search(rb"pdfaid:part(>|=\")3", xmp)
    assert re.search(rb"pdfaid:conformance(>|=\")A", xmp)

    assert elements and elements[0][0] == "/Document"
    levels = [int(m.group(1)) for s, _ in elements if (m := HEADING.match(s))]
    # the same headings, at the same levels, in the same order as the letter
    assert levels == html_headings(rendered.html)
    assert levels[0] == 1 or "<h1" not in rendered.html
    figures = [alt for s, alt in elements if s == "/Figure"]
    assert all(alt.strip() for alt in figures), f"a figure without alt text in {kind}"
    # text is inside the tree, not beside it: paragraphs and table cells are tagged
    assert any(s in ("/P", "/TD", "/TH", "/LI") for s, _ in elements)


def test_the_annual_reports_charts_are_figures_named_by_their_titles():
    rendered = render(
        ReportingDocument.ANNUAL_REPORT, sample_facts(ReportingDocument.ANNUAL_REPORT)
    )
    _reader, _catalog, elements = structure(rendered.pdf)
    alts = [alt for s, alt in elements if s == "/Figure"]
    assert "Reports received and discharges confirmed, per month" in alts
    assert "Time from report to elimination" in alts
    assert "Legal deadlines due in the year: met and missed" in alts


def test_the_printed_address_of_the_respondents_page_is_a_link_and_its_qr_has_alt():
    facts = sample_facts(EnforcementDocument.NOTICE_OF_VIOLATION)
    address = "https://stormwater.example/respond/"
    online = facts.__class__(
        **{**facts.__dict__, "online": OnlineAccess(address=address, code="ABCD-EFGH")}
    )
    rendered = render(EnforcementDocument.NOTICE_OF_VIOLATION, online)
    reader, _catalog, elements = structure(rendered.pdf)
    uris = [
        annotation.get_object()["/A"]["/URI"]
        for page in reader.pages
        for annotation in page.get("/Annots") or []
        if annotation.get_object().get("/Subtype") == "/Link"
    ]
    assert address in uris
    assert any(s == "/Link" for s, _ in elements)
    assert "QR code: " + address in [alt for s, alt in elements if s == "/Figure"]
