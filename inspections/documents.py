"""The documents of inspections, owned here: the facts (contracts) of an
inspection report (R-ACC-1, R-ACC-3) and of a warrant application's cover sheet
(R-ACC-4) with their legal checks, the builders that make them from an
inspection or a warrant application, and sample facts; registered with the one
registry of documents (documents.registry) by InspectionsConfig.ready().
Issued through documents.services.issue_for."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import ClassVar

from django.db import models
from django.utils import timezone

from documents.contracts import (
    DocumentFacts,
    FactsInvalid,
    Recipient,
    Signatory,
    blank,
    village_contact,
)
from documents.registry import register
from documents.samples import SAMPLE_PREMISES, SAMPLE_SMO, sample_common, sample_moment
from kernel.humanize import human_long_date

from .document_kinds import InspectionDocument

SMO_TITLE = "Stormwater Management Officer"


# --- inspection and warrant (R-ACC-1, R-ACC-3, R-ACC-4) --------------------------


class AccessOutcome(models.TextChoices):
    GRANTED = "granted", "Access granted"
    DELAYED = "delayed", "Access delayed"
    REFUSED = "refused", "Access refused"


@dataclass(frozen=True, kw_only=True)
class InspectionReportFacts(DocumentFacts):
    """Report of an inspection under § 132-11 B (R-ACC-1)."""

    kind: ClassVar[str] = InspectionDocument.INSPECTION_REPORT
    template: ClassVar[str] = "documents/inspection_report.html"
    rule_id: ClassVar[str] = "R-ACC-1"

    premises_address: str
    inspected_at: dt.datetime
    inspector: str
    access_outcome: str  # AccessOutcome
    observations: str
    samples: tuple[str, ...] = ()
    findings: str = ""
    follow_up: str = ""

    def relied_on(self) -> tuple[str, ...]:
        if self.access_outcome in (AccessOutcome.DELAYED, AccessOutcome.REFUSED):
            return ("R-ACC-1", "R-ACC-3")
        return ("R-ACC-1",)

    def problems(self) -> list[str]:
        found = super().problems()
        if self.access_outcome not in AccessOutcome.values:
            found.append("the access outcome is not granted, delayed or refused")
        if blank(self.inspector):
            found.append("the inspector is missing")
        if blank(self.observations):
            found.append("the observations are missing")
        if blank(self.premises_address):
            found.append("the premises address is missing")
        return found

    @property
    def access_outcome_label(self) -> str:
        return AccessOutcome(self.access_outcome).label


class WarrantGround(models.TextChoices):
    SUSPECTED_VIOLATION = (
        "suspected_violation",
        "Probable cause to believe that there may be a violation of the article",
    )
    ROUTINE_PROGRAM = (
        "routine_program",
        "A need to inspect and/or sample as part of a routine inspection and "
        "sampling program designed to verify compliance",
    )


@dataclass(frozen=True, kw_only=True)
class WarrantCoverSheetFacts(DocumentFacts):
    """Cover sheet of the SMO's application for a search warrant after access was
    refused, § 132-11 B(6) (R-ACC-4). The recipient is the court."""

    kind: ClassVar[str] = InspectionDocument.WARRANT_COVER_SHEET
    template: ClassVar[str] = "documents/warrant_cover_sheet.html"
    rule_id: ClassVar[str] = "R-ACC-4"
    base_rules: ClassVar[tuple[str, ...]] = ("R-ACC-4", "R-ACC-1", "R-ACC-3")

    premises_address: str
    applicant: str
    access_refused_on: dt.date
    refused_by: str
    ground: str  # WarrantGround
    probable_cause: str
    attachments: tuple[str, ...] = ()

    def problems(self) -> list[str]:
        found = super().problems()
        if self.ground not in WarrantGround.values:
            found.append("the ground for the warrant is not known")
        if blank(self.probable_cause):
            found.append("the statement of probable cause is missing (R-ACC-4)")
        if blank(self.applicant):
            found.append("the applicant is missing")
        if (
            isinstance(self.access_refused_on, dt.date)
            and isinstance(self.issued_on, dt.date)
            and self.access_refused_on > self.issued_on
        ):
            found.append("access is recorded as refused after the application date")
        return found

    @property
    def ground_label(self) -> str:
        return WarrantGround(self.ground).label


# --- sample facts (the template preview, the demo and tests) --------------------


def sample_inspection_report() -> InspectionReportFacts:
    return InspectionReportFacts(
        **sample_common(number="INS-2026-0001"),
        premises_address=SAMPLE_PREMISES,
        inspected_at=sample_moment(),
        inspector=SAMPLE_SMO.name,
        access_outcome=AccessOutcome.GRANTED,
        observations="Grey water at the outfall; a pipe from the laundry room.",
        samples=("S-1 outfall grab sample, 14:40",),
        findings="Illicit connection of a laundry drain.",
        follow_up="Notice of violation to be issued.",
    )


def sample_warrant_cover_sheet() -> WarrantCoverSheetFacts:
    return WarrantCoverSheetFacts(
        **sample_common(
            number="WAR-2026-0001",
            recipient=Recipient(
                name="Suffolk County District Court",
                address_lines=(
                    "3105-1 Veterans Memorial Highway",
                    "Ronkonkoma, NY 11779",
                ),
            ),
        ),
        premises_address=SAMPLE_PREMISES,
        applicant=f"{SAMPLE_SMO.name}, {SMO_TITLE}",
        access_refused_on=dt.date(2026, 2, 25),
        refused_by="The owner, in person",
        ground=WarrantGround.SUSPECTED_VIOLATION,
        probable_cause="Dye introduced in the laundry sink appeared at the outfall.",
        attachments=("Inspection report INS-2026-0001", "Photographs 1–4"),
    )


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


@register(
    InspectionDocument.INSPECTION_REPORT,
    facts=InspectionReportFacts,
    source="inspections.inspection",
    sample=sample_inspection_report,
    case_of=case_of,
)
def inspection_report_contract(inspection) -> InspectionReportFacts:
    """The report of a recorded (or finalized) inspection (R-ACC-1); a delayed
    or refused access also cites R-ACC-3."""
    kind = InspectionDocument.INSPECTION_REPORT
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
        f"Correction of {human_long_date(c.created_at)}: {c}"
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
            f"{s} — sampled {human_long_date(s.sampled_on)}"
            + (f", {s.lab}" if s.lab else "")
            for s in inspection.samples.all()
        ),
        findings=inspection.findings,
        follow_up="\n".join(corrections),
    )


@register(
    InspectionDocument.WARRANT_COVER_SHEET,
    facts=WarrantCoverSheetFacts,
    source="inspections.warrantapplication",
    sample=sample_warrant_cover_sheet,
    case_of=case_of,
)
def warrant_cover_sheet_contract(warrant) -> WarrantCoverSheetFacts:
    """The cover sheet of the application to the court (R-ACC-4), after the
    recorded refusal of access on the inspection."""
    kind = InspectionDocument.WARRANT_COVER_SHEET
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
