"""Demo records of the ledger (loaded by `manage.py load_demo_data`, issue 27): a
notice of violation with a fine partly paid, and the invoice of corrective
measures paid in full, so a newcomer sees the ledger, the respondent's balance
and the annual report's money lines at once. Built through the services;
idempotent (a second run finds the demo case and changes nothing)."""

import datetime as dt
from decimal import Decimal

from django.contrib.auth import get_user_model
from django.utils import timezone

from cases.models import Case, CaseParty, CaseSource, Party, Premises
from cases.services import case_add_party, case_open, case_run_transition
from enforcement.models import RequirementKind
from enforcement.services import notices as notice_services
from enforcement.services import remedies

from . import services
from .models import Charge, ChargeKind

DEMO_SUMMARY = "Demo: wash water to the storm drain (fines and costs)"


def load(stdout):
    if Case.objects.filter(summary=DEMO_SUMMARY).exists():
        return
    smo = get_user_model().objects.filter(username="smo").first()
    if smo is None:
        return
    today = timezone.localdate()
    payer, _ = Party.objects.get_or_create(
        name="Casey Demo-Payer",
        defaults={
            "mailing_address": "9 Ledger Lane\nPoquott, NY 11733",
            "email": "casey.payer@example.com",
        },
    )
    premises, _ = Premises.objects.get_or_create(address="9 Ledger Lane, Poquott")
    case = case_open(
        actor=smo,
        source=CaseSource.OBSERVATION,
        summary=DEMO_SUMMARY,
        premises=premises,
    )
    case = case_run_transition(case=case, transition="start_investigation", actor=smo)
    case = case_run_transition(
        case=case,
        transition="confirm_violation",
        actor=smo,
        responsible_party=payer,
        violation_finding="Car-wash water with detergent run to the catch basin.",
    )
    case_add_party(case=case, actor=smo, role=CaseParty.Role.OWNER, party=payer)
    # Issued 40 days ago: the time to appeal and the remediation period are over.
    issued_on = today - dt.timedelta(days=40)
    notice = notice_services.notice_draft(
        case=case,
        actor=smo,
        recipient=payer,
        violation_date=issued_on - dt.timedelta(days=2),
        findings="Wash water with detergent was discharged to the MS4 (§ 132-6 A).",
        requirements=[
            (RequirementKind.ABATEMENT, "Clean the catch basin in front of no. 9."),
            (RequirementKind.FINE, "Pay the fine."),
        ],
        remediation_days=10,
        proposed_fine=Decimal("250.00"),
    )
    notice = notice_services.notice_issue(notice=notice, actor=smo, issued_on=issued_on)
    fine = Charge.objects.get(notice=notice, kind=ChargeKind.NOV_FINE)
    services.payment_record(
        charge=fine,
        actor=smo,
        received_on=issued_on + dt.timedelta(days=7),
        amount=Decimal("100.00"),
        method="check",
        check_number="2051",
    )
    # Not corrected: the Village did the work at the discharger's expense.
    notice = notice_services.notice_record_noncompliance(notice=notice, actor=smo)
    action = remedies.corrective_request_access(
        notice=notice, actor=smo, request_letter_on=today - dt.timedelta(days=20)
    )
    action = remedies.remedy_step(
        obj=action,
        transition="record_access_granted",
        actor=smo,
        response_on=today - dt.timedelta(days=15),
    )
    action = remedies.remedy_step(
        obj=action,
        transition="record_work",
        actor=smo,
        performed_by="contractor",
        performer_name="North Shore Vac",
        work_description="Catch basin vacuumed and flushed",
        work_completed_on=today - dt.timedelta(days=3),
    )
    for description, amount in (("Vacuum truck", "350.00"), ("Disposal", "125.50")):
        remedies.cost_item_add(
            remedy=action,
            actor=smo,
            description=description,
            amount=Decimal(amount),
            incurred_on=today - dt.timedelta(days=3),
        )
    action = remedies.remedy_invoice(remedy=action, actor=smo)
    invoice = Charge.objects.get(corrective_action=action)
    services.payment_record(
        charge=invoice,
        actor=smo,
        received_on=today,
        amount=invoice.amount,
        method="money_order",
    )
    stdout.write(
        f"Ledger demo: case {case.number}, fine {fine.reference} partly paid, "
        f"invoice {invoice.reference} paid in full."
    )
