"""HTML from a Django template, PDF from WeasyPrint, with fetching locked down.

`render_html(kind, facts)` renders the kind's template with autoescape on: every
fact (a resident's name, a finding) is text, never markup. `render_pdf(html)`
turns that HTML into a tagged PDF/A file with one module-level FontConfiguration (the
worker reuses it across renders) and a fetcher that serves only our own static
files and `data:` URIs: no `file://` outside the static folders, no network.
"""

from __future__ import annotations

import hashlib
import logging
import mimetypes
import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit

from django.conf import settings
from django.contrib.staticfiles import finders
from django.core.exceptions import SuspiciousFileOperation
from django.template.loader import get_template, render_to_string
from weasyprint import HTML
from weasyprint.text.fonts import FontConfiguration
from weasyprint.urls import URLFetcher, URLFetcherResponse

from kernel.citations import citations as load_citations

from . import qr
from .contracts import DocumentFacts, validate_facts
from .registry import document_type

logger = logging.getLogger(__name__)

# PDF/A-3a: archival, with Unicode text, and tagged (level A: a structure tree of
# headings, paragraphs, tables and figures with their alt text, in reading order,
# with the document's language and title), so a screen reader reads a notice as
# it reads a web page (issue 29: PDF/UA, WCAG). Inline SVGs (the QR code, the
# annual report's charts) are Figures whose alt text is their <title>.
DEFAULT_PDF_VARIANT = "pdf/a-3a"
BASE_TEMPLATE = "documents/base.html"
PRINT_CSS = "css/print.css"
# Relative URLs in the documents ("/static/css/print.css") resolve against this
# root; the fetcher maps /static/… to the static files and refuses the rest.
BASE_URL = "file:///"

# One font configuration for the whole process: building it scans the system
# fonts (DejaVu, Liberation), which costs more than rendering a letter.
FONT_CONFIG = FontConfiguration()


class FetchRefused(ValueError):
    """The document asked for a resource outside our static files / data: URIs."""


def _static_roots() -> list[Path]:
    roots = [Path(d) for d in settings.STATICFILES_DIRS]
    if settings.STATIC_ROOT:
        roots.append(Path(settings.STATIC_ROOT))
    return [r.resolve() for r in roots]


def static_file_for(path: str) -> Path | None:
    """The file behind a `/static/…` path or an absolute path inside a static
    folder; None for anything else (including `..` escapes and symlinks out)."""
    prefix = "/" + settings.STATIC_URL.strip("/") + "/"
    candidate: Path | None = None
    if path.startswith(prefix):
        try:
            found = finders.find(path[len(prefix) :])
        except SuspiciousFileOperation:
            return None
        if isinstance(found, list):
            found = found[0] if found else None
        if found:
            candidate = Path(found)
    else:
        candidate = Path(path)
    if candidate is None:
        return None
    resolved = candidate.resolve()
    if not resolved.is_file():
        return None
    if any(resolved.is_relative_to(root) for root in _static_roots()):
        return resolved
    return None


class StaticOnlyFetcher(URLFetcher):
    """WeasyPrint's fetcher, locked: `data:` URIs, and `file:` URLs of our static
    files. Anything else raises FetchRefused; WeasyPrint logs it and leaves the
    resource out."""

    def __init__(self):
        super().__init__(timeout=1, allowed_protocols=("data", "file"))
        self.fetched: list[str] = []

    def fetch(self, url, headers=None):
        scheme = urlsplit(url).scheme.lower()
        if scheme == "data":
            self.fetched.append(url[:40])
            return super().fetch(url, headers)  # urllib's DataHandler, no I/O
        if scheme == "file":
            path = unquote(urlsplit(url).path)
            found = static_file_for(path)
            if found is not None:
                self.fetched.append(url)
                content_type = mimetypes.guess_type(found.name)[0]
                return URLFetcherResponse(
                    found.as_uri(),
                    body=found.read_bytes(),
                    headers={
                        "Content-Type": content_type or "application/octet-stream"
                    },
                )
        logger.warning("Document renderer refused to fetch %s", url[:200])
        raise FetchRefused(
            f"Refused to fetch {url[:200]}: only static files and data: URIs"
        )


def citation_snapshot(facts: DocumentFacts) -> dict[str, dict]:
    """The citation rows `facts` relies on, as plain data (frozen with the
    document). Raises kernel.citations.UnknownCitation for a missing row."""
    rows = load_citations(*facts.relied_on())
    return {
        rule_id: {
            "rule_id": rule_id,
            "section": rows[rule_id].section,
            "heading": rows[rule_id].heading,
            "summary": rows[rule_id].summary,
            "notice_text": rows[rule_id].notice_text,
        }
        for rule_id in facts.relied_on()
    }


def _template_key(rule_id: str) -> str:
    # "R-NOV-1(3)" → "R_NOV_1_3": a name Django templates can look up.
    return re.sub(r"[^A-Za-z0-9]+", "_", rule_id).strip("_")


def template_version(kind: str) -> str:
    """A hash of everything the look and words of `kind` come from in code: its
    template, the shared base and the print CSS."""
    digest = hashlib.sha256()
    for name in (document_type(kind).template, BASE_TEMPLATE):
        digest.update(get_template(name).template.source.encode())
    css = static_file_for("/" + settings.STATIC_URL.strip("/") + "/" + PRINT_CSS)
    if css is not None:
        digest.update(css.read_bytes())
    return digest.hexdigest()[:16]


def render_html(kind: str, facts: DocumentFacts, citations: dict | None = None) -> str:
    """The document's HTML. Validates the facts first (FactsInvalid); reads the
    citation rows unless a frozen snapshot is given."""
    validate_facts(kind, facts)
    if citations is None:
        citations = citation_snapshot(facts)
    cite = {_template_key(k): v for k, v in citations.items()}
    cite.update(citations)
    context = {
        "facts": facts,
        "kind": kind,
        "kind_label": type(facts).kind.label,
        "village": settings.VILLAGE,
        "cite": cite,
        "relied_on": [citations[r] for r in facts.relied_on()],
        "print_css": settings.STATIC_URL.rstrip("/") + "/" + PRINT_CSS,
        **facts.extra_context(citations),
    }
    if facts.online is not None:
        context["online_qr"] = qr.qr_svg(facts.online.address)
    if not context["print_css"].startswith("/"):
        context["print_css"] = "/" + context["print_css"]
    return render_to_string(type(facts).template, context)


def render_pdf(html: str, *, pdf_variant: str | None = DEFAULT_PDF_VARIANT) -> bytes:
    """The PDF of `html`. `pdf_variant` None gives a plain PDF."""
    fetcher = StaticOnlyFetcher()
    document = HTML(
        string=html, base_url=BASE_URL, url_fetcher=fetcher, media_type="print"
    )
    return document.write_pdf(
        font_config=FONT_CONFIG,
        pdf_variant=pdf_variant,
        # A stable identifier: the same HTML gives the same file.
        pdf_identifier=hashlib.sha256(html.encode()).hexdigest()[:32].encode(),
    )


@dataclass(frozen=True)
class Rendered:
    html: str
    pdf: bytes


def render(
    kind: str, facts: DocumentFacts, *, pdf_variant: str | None = DEFAULT_PDF_VARIANT
) -> Rendered:
    """Both the HTML and the PDF (tests read the HTML; people read the PDF)."""
    html = render_html(kind, facts)
    return Rendered(html=html, pdf=render_pdf(html, pdf_variant=pdf_variant))
