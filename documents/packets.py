"""A packet: several papers bound into one PDF (the Board's hearing packet,
enforcement.packet; the Justice Court packet, ledger.packet).

The app that owns a packet says which papers go in it and in what order (a list
of :class:`Part`); this module binds them: the pages in order, a bookmark per
part, "<packet> · case <number> · page x of n" at the foot of every page, and the
document's title and author. Papers are rendered when the binder reaches them,
so the worker can report its progress part by part (issue 29: packets are
background jobs)."""

from __future__ import annotations

import io
from collections.abc import Callable
from functools import cached_property

from django.conf import settings
from django.http import QueryDict
from django.template.loader import render_to_string
from pypdf import PdfReader, PdfWriter

from jobs.registry import JobRefused, Work
from jobs.views import queue_and_show
from kernel.roles import has_role

from .models import IssuedDocument
from .render import render_pdf


class Part:
    """One paper of a packet: its bookmark title and its PDF, given as bytes or
    as a function that renders them when first needed."""

    def __init__(self, title: str, pdf: bytes | Callable[[], bytes]):
        self.title = title
        self._pdf = pdf

    @cached_property
    def pdf(self) -> bytes:
        return self._pdf() if callable(self._pdf) else self._pdf

    @property
    def pages(self) -> int:
        return len(PdfReader(io.BytesIO(self.pdf)).pages)


def page_part(title: str, template: str, context: dict) -> Part:
    """A part rendered from one of our print templates (rendered when bound)."""

    def render() -> bytes:
        html = render_to_string(
            template,
            {
                "title": title,
                "village": settings.VILLAGE,
                "print_css": "/" + settings.STATIC_URL.strip("/") + "/css/print.css",
                **context,
            },
        )
        return render_pdf(html, pdf_variant=None)

    return Part(title, render)


def stored_pdf(document: IssuedDocument | None) -> bytes | None:
    """The issued document's frozen PDF, or None while it is not issued."""
    if document is None or not document.is_issued or not document.pdf:
        return None
    with document.pdf.open("rb") as handle:
        return handle.read()


def _footers(packet_name: str, case_number: str, total: int) -> PdfReader:
    html = render_to_string(
        "documents/packet_footer.html",
        {
            "packet_name": packet_name,
            "case_number": case_number,
            "numbers": range(1, total + 1),
            "total": total,
        },
    )
    return PdfReader(io.BytesIO(render_pdf(html, pdf_variant=None)))


def bind(
    parts: list[Part],
    *,
    packet_name: str,
    case_number: str,
    title: str,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[bytes, list[tuple[str, int, int]]]:
    """Bind `parts` into one PDF: (the PDF, [(part title, first page, pages)]).
    `progress(done, total)` is told at the start and after each part is bound
    (total = the number of parts)."""
    steps = len(parts)
    if progress:
        progress(0, steps)
    writer = PdfWriter()
    index = []
    for done, part in enumerate(parts, start=1):
        first = len(writer.pages)
        reader = PdfReader(io.BytesIO(part.pdf))
        for page in reader.pages:
            writer.add_page(page)
        index.append((part.title, first, len(reader.pages)))
        if progress:
            progress(done, steps)
    footers = _footers(packet_name, case_number, len(writer.pages))
    for number, page in enumerate(writer.pages):
        page.merge_page(footers.pages[number])
    for part_title, first, _ in index:
        writer.add_outline_item(title=part_title, page_number=first)
    writer.add_metadata({"/Title": title, "/Author": settings.VILLAGE["name"]})
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue(), index


# --- a packet as a background job (issue 29) ----------------------------------------
def packet_work(
    name: str,
    *,
    roles: tuple,
    load: Callable[[int], object | None],
    make: Callable[[object, Callable[[int, int], None]], tuple[bytes, str]],
    gone: str,
) -> Work:
    """The background job (jobs.registry) that binds one packet. The job's query
    names the object (``pk=…``); `load(pk)` gives it, or None when it may have no
    packet now (then the job fails saying `gone`); `make(obj, progress)` gives
    (the PDF, its file name). Only `roles` may have it made and download it."""

    def may_read(user, job=None) -> bool:
        return user.is_active and has_role(user, *roles)

    def run(job, out, progress) -> str:
        if not may_read(job.owner):
            raise JobRefused(
                "Your role no longer gives access to this packet, so it was not made."
            )
        pk = QueryDict(job.query).get("pk", "")
        found = load(int(pk)) if pk.isdigit() else None
        if found is None:
            raise JobRefused(gone)
        pdf, filename = make(found, progress)
        out.write(pdf)
        return filename

    return Work(name=name, run=run, may_read=may_read, unit="parts", done="bound")


def packet_job(request, work: Work, *, pk: int, title: str):
    """The packet's link: queue its job (one per staff member while it waits)
    and show the job's page, where the download appears when it is bound."""
    return queue_and_show(request, kind=work.name, title=title, query=f"pk={pk}")
