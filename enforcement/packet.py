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

from pypdf import PdfReader
from pypdf.errors import PdfReadError

from deadlines.models import Deadline
from deadlines.services import office_calendar
from documents.models import IssuedDocument
from documents.packets import Part, bind, packet_work, page_part, stored_pdf
from documents.selectors import latest_document
from inspections.document_kinds import InspectionDocument

from .document_kinds import EnforcementDocument
from .views.common import APPEAL_RECORDERS


def _data_uri(field, content_type="image/jpeg") -> str:
    with field.open("rb") as handle:
        return f"data:{content_type};base64," + base64.b64encode(handle.read()).decode()


def photos_and_samples(case):
    from inspections.models import Inspection
    from intake.models import ReportPhoto

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
    nov = stored_pdf(latest_document(notice, EnforcementDocument.NOTICE_OF_VIOLATION))
    if nov:
        parts.append(Part(f"Notice of violation NOV-{notice.pk}", nov))
    parts.append(
        page_part(
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
    hearing = stored_pdf(appeal.hearing_notice())
    if hearing:
        parts.append(Part("Notice of hearing", hearing))
    reports = IssuedDocument.objects.filter(
        case=case,
        kind=InspectionDocument.INSPECTION_REPORT,
        status=IssuedDocument.Status.ISSUED,
        superseded_by__isnull=True,
    ).order_by("created_at", "id")
    for report in reports:
        parts.append(
            Part(f"Inspection report {report.document_number}", stored_pdf(report))
        )
    photos, samples = photos_and_samples(case)
    if photos or samples:
        parts.append(
            page_part(
                "Photos and sample results",
                "documents/packet_evidence.html",
                {"case": case, "photos": photos, "samples": samples},
            )
        )
    parts.append(
        page_part(
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


def hearing_packet(appeal, progress=None) -> tuple[bytes, list[tuple[str, int, int]]]:
    """(the packet's PDF, [(part title, first page, pages)]); `progress(done,
    total)` is told as each part is bound (the background job's bar)."""
    case_number = appeal.notice.case.number
    return bind(
        packet_parts(appeal),
        packet_name="Hearing packet",
        case_number=case_number,
        title=f"Hearing packet, appeal {appeal.pk}, case {case_number}",
        progress=progress,
    )


def _scheduled_appeal(pk: int):
    from .models import Appeal

    appeal = Appeal.objects.select_related("notice__case", "appellant").filter(pk=pk)
    appeal = appeal.first()
    return appeal if appeal is not None and appeal.may_have_a_packet() else None


def _made(appeal, progress) -> tuple[bytes, str]:
    pdf, _ = hearing_packet(appeal, progress)
    return pdf, f"{appeal.notice.case.number}-appeal-{appeal.pk}-packet.pdf"


# The packet is bound by the worker (jobs: registered in EnforcementConfig.ready).
HEARING_PACKET_WORK = packet_work(
    "packet:hearing",
    roles=APPEAL_RECORDERS,
    load=_scheduled_appeal,
    make=_made,
    gone="The appeal has no hearing scheduled any more, so no packet was made.",
)
