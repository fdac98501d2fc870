"""The Board's hearing packet of one appeal: one PDF, with a bookmark per part,
assembled with pypdf from the frozen documents (the notice of violation, the
appeal's PDF attachments, the notice of hearing, the inspection reports issued)
and pages rendered by WeasyPrint (the appeal, the photos and sample results, the
chronology and the deadlines), every page footed with the case number and
"page x of y" (a WeasyPrint overlay merged with pypdf). No PDF is written by
hand. Built on request from what is stored: nothing here changes a record."""

from __future__ import annotations

import base64
import io
import logging
from dataclasses import dataclass

from django.conf import settings
from django.template.loader import render_to_string
from pypdf import PdfReader, PdfWriter
from pypdf.errors import PdfReadError

from cases.deadlines.services import office_calendar
from cases.documents.contracts import DocumentKind
from cases.documents.render import render_pdf
from cases.documents.selectors import latest_document
from cases.models import Deadline, IssuedDocument

logger = logging.getLogger(__name__)


@dataclass
class Part:
    title: str
    pdf: bytes

    @property
    def pages(self) -> int:
        return len(PdfReader(io.BytesIO(self.pdf)).pages)


def _page(title: str, template: str, context: dict) -> Part:
    html = render_to_string(
        template,
        {
            "title": title,
            "village": settings.VILLAGE,
            "print_css": "/" + settings.STATIC_URL.strip("/") + "/css/print.css",
            **context,
        },
    )
    return Part(title, render_pdf(html, pdf_variant=None))


def _stored_pdf(document: IssuedDocument | None) -> bytes | None:
    if document is None or not document.is_issued or not document.pdf:
        return None
    with document.pdf.open("rb") as handle:
        return handle.read()


def _data_uri(field, content_type="image/jpeg") -> str:
    with field.open("rb") as handle:
        return f"data:{content_type};base64," + base64.b64encode(handle.read()).decode()


def _photos_and_samples(case):
    from cases.models import ReportPhoto
    from inspections.models import Inspection

    photos = []
    for photo in ReportPhoto.objects.filter(report__case=case).order_by("id"):
        photos.append(
            {
                "src": _data_uri(photo.display),
                "caption": f"Report photo {photo.pk}",
                "sha256": photo.original_sha256,
            }
        )
    inspections = Inspection.objects.filter(case=case).order_by("id")
    samples = []
    for inspection in inspections:
        for photo in inspection.photos.order_by("id"):
            photos.append(
                {
                    "src": _data_uri(photo.display),
                    "caption": photo.caption or f"Inspection {inspection.pk} photo",
                    "sha256": photo.original_sha256,
                }
            )
        samples += list(inspection.samples.order_by("sampled_on", "id"))
    return photos, samples


def packet_parts(appeal) -> list[Part]:
    """The parts of the packet, in order, each a complete PDF."""
    notice = appeal.notice
    case = notice.case
    parts = []
    nov = _stored_pdf(latest_document(notice, DocumentKind.NOTICE_OF_VIOLATION))
    if nov:
        parts.append(Part(f"Notice of violation NOV-{notice.pk}", nov))
    parts.append(
        _page(
            f"Appeal {appeal.pk}",
            "documents/packet_appeal.html",
            {"appeal": appeal, "case": case, "attachments": appeal.documents.all()},
        )
    )
    for attachment in appeal.documents.all():
        with attachment.file.open("rb") as handle:
            data = handle.read()
        try:
            PdfReader(io.BytesIO(data))
        except (PdfReadError, ValueError, OSError):
            continue  # not a PDF: listed on the appeal's page, not merged
        parts.append(Part(f"Attachment: {attachment.original_name}", data))
    hearing = _stored_pdf(appeal.hearing_notice())
    if hearing:
        parts.append(Part("Notice of hearing", hearing))
    reports = IssuedDocument.objects.filter(
        case=case,
        kind=DocumentKind.INSPECTION_REPORT,
        status=IssuedDocument.Status.ISSUED,
        superseded_by__isnull=True,
    ).order_by("created_at", "id")
    for report in reports:
        parts.append(
            Part(f"Inspection report {report.document_number}", _stored_pdf(report))
        )
    photos, samples = _photos_and_samples(case)
    if photos or samples:
        parts.append(
            _page(
                "Photos and sample results",
                "documents/packet_evidence.html",
                {"case": case, "photos": photos, "samples": samples},
            )
        )
    parts.append(
        _page(
            "Chronology and deadlines",
            "documents/packet_chronology.html",
            {
                "case": case,
                "events": case.events.select_related("actor").order_by("at", "id"),
                "deadlines": _deadlines_in_words(case),
            },
        )
    )
    return parts


def _deadlines_in_words(case) -> list[dict]:
    """The case's deadlines as the packet prints them: how each date was
    counted in words and its legal basis in words (no rule id, no ISO date:
    the packet goes to the Board and the appellant, issue 26)."""
    calendar = office_calendar()
    return [
        {
            "due_date": d.due_date,
            "label": d.label,
            "status": d.get_status_display(),
            "words": d.explained_to_people(calendar),
            "basis": d.legal_basis,
        }
        for d in Deadline.objects.filter(case=case).order_by("due_date", "id")
    ]


def _footers(case_number: str, total: int) -> PdfReader:
    html = render_to_string(
        "documents/packet_footer.html",
        {"case_number": case_number, "numbers": range(1, total + 1), "total": total},
    )
    return PdfReader(io.BytesIO(render_pdf(html, pdf_variant=None)))


def hearing_packet(appeal) -> tuple[bytes, list[tuple[str, int, int]]]:
    """(the packet's PDF, [(part title, first page, pages)])."""
    parts = packet_parts(appeal)
    writer = PdfWriter()
    index = []
    for part in parts:
        first = len(writer.pages)
        reader = PdfReader(io.BytesIO(part.pdf))
        for page in reader.pages:
            writer.add_page(page)
        index.append((part.title, first, len(reader.pages)))
    total = len(writer.pages)
    footers = _footers(appeal.notice.case.number, total)
    for number, page in enumerate(writer.pages):
        page.merge_page(footers.pages[number])
    for title, first, _ in index:
        writer.add_outline_item(title=title, page_number=first)
    writer.add_metadata(
        {
            "/Title": f"Hearing packet, appeal {appeal.pk}, case "
            f"{appeal.notice.case.number}",
            "/Author": settings.VILLAGE["name"],
        }
    )
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue(), index
