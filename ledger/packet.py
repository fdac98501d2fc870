"""The Justice Court packet of one referral (issue 27): one PDF like the Board's
hearing packet (enforcement.packet, whose parts and page footers it reuses):
the notice of violation, the proof of its service, the photos and sample
results, the chronology and deadlines, the ledger of the case and the weeks of
continued violation as the clocks count them (R-PEN-4). Built on request from
what is stored; nothing here changes a record, nothing is filed electronically."""

import io

from django.conf import settings
from django.template.loader import render_to_string
from pypdf import PdfReader, PdfWriter

from cases.documents.contracts import DocumentKind
from cases.documents.render import render_pdf
from cases.documents.selectors import latest_document
from cases.models import Deadline
from enforcement.packet import Part, _page, _photos_and_samples, _stored_pdf
from enforcement.selectors import continued_violation_for

from .selectors import case_charges


def packet_parts(referral) -> list[Part]:
    charge = referral.charge
    case = referral.case
    notice = charge.notice
    parts = []
    if notice is not None:
        nov = _stored_pdf(latest_document(notice, DocumentKind.NOTICE_OF_VIOLATION))
        if nov:
            parts.append(Part(f"Notice of violation NOV-{notice.pk}", nov))
    parts.append(
        _page(
            "Referral to the Justice Court",
            "ledger/packet_referral.html",
            {
                "referral": referral,
                "case": case,
                "notice": notice,
                "services": list(notice.service_records.order_by("served_on", "pk"))
                if notice is not None
                else [],
                "continued": continued_violation_for(notice)
                if notice is not None
                else None,
                "charges": case_charges(case),
            },
        )
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
                "deadlines": Deadline.objects.filter(case=case).order_by(
                    "due_date", "id"
                ),
            },
        )
    )
    return parts


def _footers(case_number: str, total: int) -> PdfReader:
    html = render_to_string(
        "documents/packet_footer.html",
        {
            "packet_name": "Justice Court packet",
            "case_number": case_number,
            "numbers": range(1, total + 1),
            "total": total,
        },
    )
    return PdfReader(io.BytesIO(render_pdf(html, pdf_variant=None)))


def court_packet(referral) -> tuple[bytes, list[tuple[str, int, int]]]:
    """(the packet's PDF, [(part title, first page, pages)])."""
    writer = PdfWriter()
    index = []
    for part in packet_parts(referral):
        first = len(writer.pages)
        reader = PdfReader(io.BytesIO(part.pdf))
        for page in reader.pages:
            writer.add_page(page)
        index.append((part.title, first, len(reader.pages)))
    footers = _footers(referral.case.number, len(writer.pages))
    for number, page in enumerate(writer.pages):
        page.merge_page(footers.pages[number])
    for title, first, _ in index:
        writer.add_outline_item(title=title, page_number=first)
    writer.add_metadata(
        {
            "/Title": f"Justice Court packet, {referral.charge.reference}, case "
            f"{referral.case.number}",
            "/Author": settings.VILLAGE["name"],
        }
    )
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue(), index
