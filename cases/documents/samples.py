"""Sample facts for every kind: the staff's template preview, the demo and tests.

The dates here are examples typed by hand, not computed: a real document gets its
dates from stored deadlines (cases.deadlines)."""

import datetime as dt
from decimal import Decimal

from django.utils import timezone

from .contracts import (
    AccessOutcome,
    AccessRequestBasis,
    AccessRequestFacts,
    AppealDecisionFacts,
    AppealOutcome,
    Contact,
    CorrectiveInvoiceFacts,
    DocumentKind,
    EmergencySuspensionFacts,
    Fine,
    InspectionReportFacts,
    InvoiceLine,
    NoticeOfViolationFacts,
    PetitionOutcome,
    ProposedTerminationFacts,
    Recipient,
    Requirement,
    Signatory,
    TerminationDecisionFacts,
    WarrantCoverSheetFacts,
    WarrantGround,
    clerk_office,
    village_contact,
)

ISSUED_ON = dt.date(2026, 3, 2)
RECIPIENT = Recipient(
    name="Pat Example", address_lines=("12 Sample Lane", "Poquott, NY 11733")
)
PREMISES = "12 Sample Lane, Poquott, NY 11733"
SMO = Signatory(name="Sam Officer", title="Stormwater Management Officer")


def _common(case_number="MS4-2026-0001", number="", **extra):
    return {
        "case_number": case_number,
        "document_number": number,
        "issued_on": ISSUED_ON,
        "recipient": RECIPIENT,
        "contact": village_contact(),
        "signatory": SMO,
        **extra,
    }


def sample_notice_of_violation(**changes) -> NoticeOfViolationFacts:
    facts = {
        **_common(number="NOV-2026-0001"),
        "premises_address": PREMISES,
        "violation_rule_ids": ("R-PRO-1",),
        "finding": "On February 24, 2026 the SMO observed grey wash water flowing "
        "from a pipe at the rear of the premises into the catch basin on Sample Lane.",
        "requirements": (
            Requirement(
                number=2, particulars="Stop discharging wash water to the street."
            ),
            Requirement(
                number=3,
                particulars="Clean the catch basin and the gutter of sediment and suds.",
            ),
            Requirement(number=5, particulars="Pay the fine to the Village Clerk."),
        ),
        "remediation_deadline": dt.date(2026, 3, 16),
        "fine": Fine(amount=Decimal("250.00"), tier=1),
        "last_day_to_appeal": dt.date(2026, 3, 17),
        "appeal_deadline_explanation": "15 days from Monday 2026-03-02 (R-APL-1, "
        "§ 132-14): counted from the day after, last day Tuesday 2026-03-17.",
        "appeal_filing_office": clerk_office(),
    }
    facts.update(changes)
    return NoticeOfViolationFacts(**facts)


def sample_facts(kind: str):
    """Complete, valid example facts of `kind`."""
    now = timezone.make_aware(dt.datetime(2026, 3, 1, 14, 30))
    if kind == DocumentKind.NOTICE_OF_VIOLATION:
        return sample_notice_of_violation()
    if kind == DocumentKind.EMERGENCY_SUSPENSION:
        return EmergencySuspensionFacts(
            **_common(number="SUS-2026-0001"),
            premises_address=PREMISES,
            suspended_at=now,
            reasons="Heating oil was discharging from a basement drain to the MS4.",
            actions_required="Keep the drain plugged until the SMO approves reconnection.",
        )
    if kind == DocumentKind.PROPOSED_TERMINATION:
        return ProposedTerminationFacts(
            **_common(number="TRM-2026-0001"),
            premises_address=PREMISES,
            reasons="A laundry drain remains connected to the storm sewer.",
            proposed_effective_on=dt.date(2026, 3, 20),
            petition_to=f"{village_contact().name}, {clerk_office()}",
        )
    if kind == DocumentKind.TERMINATION_DECISION:
        return TerminationDecisionFacts(
            **_common(number="TRD-2026-0001"),
            premises_address=PREMISES,
            proposed_notice_number="TRM-2026-0001",
            proposed_notice_issued_on=dt.date(2026, 2, 2),
            petition_received_on=dt.date(2026, 2, 9),
            hearing_held_on=dt.date(2026, 2, 20),
            outcome=PetitionOutcome.ACCESS_DENIED,
            determination="The illicit discharge has not ceased: dye testing on "
            "February 19 showed the laundry drain still reaching the catch basin.",
        )
    if kind == DocumentKind.ACCESS_REQUEST:
        return AccessRequestFacts(
            **_common(number="ACC-2026-0001"),
            premises_address=PREMISES,
            notice_number="NOV-2026-0001",
            notice_issued_on=dt.date(2026, 1, 5),
            basis=AccessRequestBasis.APPEAL_UPHELD,
            correction_due_on=dt.date(2026, 2, 23),
            appeal_decided_on=dt.date(2026, 2, 16),
            measures="Clean the catch basin; cap the laundry connection at the lot line.",
            reply_by=dt.date(2026, 3, 9),
        )
    if kind == DocumentKind.APPEAL_DECISION:
        return AppealDecisionFacts(
            **_common(
                number="APL-2026-0001",
                signatory=Signatory(
                    name="Casey Clerk", title="Village Clerk, for the Board of Trustees"
                ),
                contact=Contact(name="Village Clerk", phone="(631) 476-4043"),
            ),
            notice_number="NOV-2026-0001",
            notice_issued_on=dt.date(2026, 1, 5),
            appeal_filed_on=dt.date(2026, 1, 15),
            hearing_held_on=dt.date(2026, 2, 10),
            decided_on=dt.date(2026, 2, 26),
            outcome=AppealOutcome.UPHELD,
            decision="The Board finds that the discharge was wash water, not exempt.",
            certified_mail_article="9407 1000 0000 0000 0000 00",
        )
    if kind == DocumentKind.CORRECTIVE_INVOICE:
        return CorrectiveInvoiceFacts(
            **_common(number="INV-2026-0001"),
            premises_address=PREMISES,
            authority="Order of the Suffolk County District Court of February 2, 2026",
            lines=(
                InvoiceLine(
                    description="Vacuum truck: catch basin cleaning",
                    amount=Decimal("640.00"),
                    performed_on=dt.date(2026, 2, 12),
                ),
                InvoiceLine(
                    description="Pipe cap at lot line", amount=Decimal("185.50")
                ),
            ),
            total=Decimal("825.50"),
            payment_due_on=dt.date(2026, 4, 1),
            payment_instructions="Pay by check to the Incorporated Village of Poquott "
            "at the Village Clerk's office, quoting the invoice number.",
        )
    if kind == DocumentKind.INSPECTION_REPORT:
        return InspectionReportFacts(
            **_common(number="INS-2026-0001"),
            premises_address=PREMISES,
            inspected_at=now,
            inspector="Sam Officer",
            access_outcome=AccessOutcome.GRANTED,
            observations="Grey water at the outfall; a pipe from the laundry room.",
            samples=("S-1 outfall grab sample, 14:40",),
            findings="Illicit connection of a laundry drain.",
            follow_up="Notice of violation to be issued.",
        )
    if kind == DocumentKind.WARRANT_COVER_SHEET:
        return WarrantCoverSheetFacts(
            **_common(
                number="WAR-2026-0001",
                recipient=Recipient(
                    name="Suffolk County District Court",
                    address_lines=(
                        "3105-1 Veterans Memorial Highway",
                        "Ronkonkoma, NY 11779",
                    ),
                ),
            ),
            premises_address=PREMISES,
            applicant="Sam Officer, Stormwater Management Officer",
            access_refused_on=dt.date(2026, 2, 25),
            refused_by="The owner, in person",
            ground=WarrantGround.SUSPECTED_VIOLATION,
            probable_cause="Dye introduced in the laundry sink appeared at the outfall.",
            attachments=("Inspection report INS-2026-0001", "Photographs 1–4"),
        )
    raise KeyError(kind)
