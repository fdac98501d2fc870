"""The Justice Court packet of one referral (issue 27): one PDF like the Board's
hearing packet (enforcement.packet, whose parts and page footers it reuses):
the notice of violation, the proof of its service, the photos and sample
results, the chronology and deadlines, the ledger of the case and the weeks of
continued violation as the clocks count them (R-PEN-4). Built on request from
what is stored; nothing here changes a record, nothing is filed electronically."""

from deadlines.models import Deadline
from documents.packets import Part, bind, packet_work, page_part, stored_pdf
from documents.selectors import latest_document
from enforcement.document_kinds import EnforcementDocument
from enforcement.packet import photos_and_samples
from enforcement.selectors import continued_violation_for
from kernel.roles import CASE_READERS

from .selectors import case_charges


def packet_parts(referral) -> list[Part]:
    charge = referral.charge
    case = referral.case
    notice = charge.notice
    parts = []
    if notice is not None:
        nov = stored_pdf(
            latest_document(notice, EnforcementDocument.NOTICE_OF_VIOLATION)
        )
        if nov:
            parts.append(Part(f"Notice of violation NOV-{notice.pk}", nov))
    parts.append(
        page_part(
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
                "deadlines": Deadline.objects.filter(case=case).order_by(
                    "due_date", "id"
                ),
            },
        )
    )
    return parts


def court_packet(referral, progress=None) -> tuple[bytes, list[tuple[str, int, int]]]:
    """(the packet's PDF, [(part title, first page, pages)]); `progress(done,
    total)` is told as each part is bound (the background job's bar)."""
    case_number = referral.case.number
    return bind(
        packet_parts(referral),
        packet_name="Justice Court packet",
        case_number=case_number,
        title=f"Justice Court packet, {referral.charge.reference}, case {case_number}",
        progress=progress,
    )


def _referral(pk: int):
    from .models import CourtReferral

    return CourtReferral.objects.select_related("case", "charge").filter(pk=pk).first()


def _made(referral, progress) -> tuple[bytes, str]:
    pdf, _ = court_packet(referral, progress)
    return pdf, f"{referral.case.number}-court-{referral.pk}-packet.pdf"


# The packet is bound by the worker (jobs: registered in LedgerConfig.ready).
COURT_PACKET_WORK = packet_work(
    "packet:court",
    roles=CASE_READERS,
    load=_referral,
    make=_made,
    gone="The referral is no longer on file, so no packet was made.",
)
