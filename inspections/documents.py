"""The documents of inspections: an inspection → its report (R-ACC-1, R-ACC-3),
a warrant application → its cover sheet (R-ACC-4), as the typed contracts of
cases.documents. Registered with cases.documents.builders by
InspectionsConfig.ready(); issued through enforcement.documents.issue_for."""

from __future__ import annotations

from django.utils import timezone

from cases.documents.builders import register_facts_builder
from cases.documents.contracts import (
    AccessOutcome,
    DocumentKind,
    FactsInvalid,
    InspectionReportFacts,
    Recipient,
    Signatory,
    WarrantCoverSheetFacts,
    WarrantGround,
    village_contact,
)

SMO_TITLE = "Stormwater Management Officer"


def _person(user) -> str:
    return (user.get_full_name() or user.get_username()) if user else ""


def _lines(text: str) -> tuple[str, ...]:
    return tuple(line.strip() for line in (text or "").splitlines() if line.strip())


def case_of(record):
    """The case a record's document is filed on (an inspection's own, or for a
    warrant application its own or its inspection's)."""
    case = getattr(record, "case", None)
    if case is None and hasattr(record, "inspection"):
        case = record.inspection.case
    return case


def _case_number(record, kind) -> str:
    case = case_of(record)
    if case is None:
        raise FactsInvalid(
            kind,
            [
                "no case is linked: open or link a case first (documents are filed "
                "on a case)"
            ],
        )
    return case.number


def _addressee(inspection) -> Recipient:
    """The person responsible for the premises: the case's responsible party,
    else the facility's operator, else the owner or occupant at the address."""
    address = str(inspection.premises)
    case = inspection.case
    party = case.responsible_party if case and case.responsible_party_id else None
    if party is None and inspection.facility_id and inspection.facility.operator_id:
        party = inspection.facility.operator
    if party is not None:
        return Recipient(
            name=party.name,
            address_lines=_lines(getattr(party, "mailing_address", "")) or (address,),
        )
    name = inspection.facility.name if inspection.facility_id else ""
    return Recipient(
        name=name or "Owner or occupant",
        address_lines=(address,),
        attention="Owner or occupant" if name else "",
    )


@register_facts_builder(DocumentKind.INSPECTION_REPORT, "inspections.inspection")
def inspection_report_contract(inspection) -> InspectionReportFacts:
    """The report of a recorded (or finalized) inspection (R-ACC-1); a delayed
    or refused access also cites R-ACC-3."""
    kind = DocumentKind.INSPECTION_REPORT
    if inspection.performed_at is None or not inspection.access_outcome:
        raise FactsInvalid(kind, ["the visit has not been recorded yet"])
    observations = "\n".join(
        part
        for part in (
            f"Who went: {inspection.attendees}" if inspection.attendees else "",
            f"Purpose: {inspection.purpose}" if inspection.purpose else "",
            inspection.access_notes,
        )
        if part.strip()
    )
    corrections = [
        f"Correction of {c.created_at:%Y-%m-%d}: {c}"
        for c in inspection.corrections.all()
    ]
    return InspectionReportFacts(
        case_number=_case_number(inspection, kind),
        document_number=f"INS-{inspection.pk}",
        issued_on=timezone.localdate(inspection.finalized_at)
        if inspection.finalized_at
        else timezone.localdate(),
        recipient=_addressee(inspection),
        contact=village_contact(),
        signatory=Signatory(name=_person(inspection.officer), title=SMO_TITLE),
        premises_address=str(inspection.premises),
        inspected_at=inspection.performed_at,
        inspector=_person(inspection.officer),
        access_outcome=AccessOutcome(inspection.access_outcome),
        observations=observations,
        samples=tuple(
            f"{s} — sampled {s.sampled_on:%Y-%m-%d}" + (f", {s.lab}" if s.lab else "")
            for s in inspection.samples.all()
        ),
        findings=inspection.findings,
        follow_up="\n".join(corrections),
    )


@register_facts_builder(
    DocumentKind.WARRANT_COVER_SHEET, "inspections.warrantapplication"
)
def warrant_cover_sheet_contract(warrant) -> WarrantCoverSheetFacts:
    """The cover sheet of the application to the court (R-ACC-4), after the
    recorded refusal of access on the inspection."""
    kind = DocumentKind.WARRANT_COVER_SHEET
    inspection = warrant.inspection
    problems = []
    if not inspection.access_refused or inspection.performed_at is None:
        problems.append("the inspection does not record a refusal of access")
    if not warrant.court.strip():
        problems.append("the court is missing")
    if problems:
        raise FactsInvalid(kind, problems)
    refused_on = timezone.localtime(inspection.performed_at).date()
    attachments = [f"Inspection report INS-{inspection.pk}"]
    photos = inspection.photos.count()
    if photos:
        attachments.append(f"Photographs ({photos})")
    attachments += [f"Sample {s}" for s in inspection.samples.all()]
    ground = (
        WarrantGround.ROUTINE_PROGRAM
        if inspection.kind == inspection.Kind.ROUTINE
        else WarrantGround.SUSPECTED_VIOLATION
    )
    return WarrantCoverSheetFacts(
        case_number=_case_number(warrant, kind),
        document_number=f"WAR-{warrant.pk}",
        issued_on=warrant.filed_on or timezone.localdate(),
        recipient=Recipient(name=warrant.court),
        contact=village_contact(),
        signatory=Signatory(name=_person(warrant.prepared_by), title=SMO_TITLE),
        premises_address=str(inspection.premises),
        applicant=f"{_person(warrant.prepared_by)}, {SMO_TITLE}",
        access_refused_on=refused_on,
        refused_by=inspection.access_notes.strip() or "The owner or occupant",
        ground=ground,
        probable_cause=warrant.probable_cause,
        attachments=tuple(attachments),
    )


BUILDERS = {
    ("inspections.inspection", DocumentKind.INSPECTION_REPORT): (
        inspection_report_contract
    ),
    ("inspections.warrantapplication", DocumentKind.WARRANT_COVER_SHEET): (
        warrant_cover_sheet_contract
    ),
}

KINDS_BY_MODEL = {
    "inspections.inspection": (DocumentKind.INSPECTION_REPORT,),
    "inspections.warrantapplication": (DocumentKind.WARRANT_COVER_SHEET,),
}
