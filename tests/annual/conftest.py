"""A year of records for the annual report, made through the services (never by
setting a status): reports by every channel, cases triaged, discharges confirmed
and eliminated, an illicit connection left open, notices issued and complied
with, an appeal decided, outfalls screened, a spill, deadlines met and missed.

The reporting year is the current one (it began on March 10, 2026; these tests
run later in it): chronology events are dated when the services run, so every
step falls in the year; the records' own dates (received, opened, confirmed,
eliminated, issued…) are chosen in it."""

import datetime as dt
from dataclasses import dataclass, field
from decimal import Decimal

import pytest
from django.utils import timezone

from cases.models import CaseKind, CaseParty, Premises
from cases.services import (
    case_add_party,
    case_open,
    case_open_from_reports,
    case_run_transition,
)
from enforcement.models import RequirementKind
from enforcement.services import appeals as appeal_services
from enforcement.services import notices as notice_services
from inspections import services as fieldwork
from intake.models import Report
from intake.services import report_submit
from ledger import services as ledger_services
from ledger.models import Charge
from reporting.annual.year import ReportingYear
from tests.api_keys import known_key
from tests.enforcement.conftest import schedule_hearing, village_day

REPORTER = {
    "reporter_name": "Robin Reporterson",
    "reporter_email": "robin.reporter@example.org",
    "reporter_phone": "631-555-0142",
}
RESPONDENT = "Pat Respondentia"


def local(y, m, d, h=0, minute=0):
    return dt.datetime(y, m, d, h, minute, tzinfo=timezone.get_current_timezone())


@pytest.fixture(autouse=True)
def private_media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


def submit(channel, at, smo, *, address="12 Harbor Road", **extra):
    api = None
    if channel == Report.Channel.OPEN311:
        api = known_key("k" * 32, "Validator")
    return report_submit(
        channel=channel,
        fields={
            "description": "Soapy water running into the storm drain.",
            "address": address,
            "received_at": at,
            **REPORTER,
            **extra,
        },
        entered_by=smo if channel in ("phone", "walk_in", "email") else None,
        api_client=api,
    )


def confirm(case, smo, on: dt.date, name=RESPONDENT):
    case_run_transition(case=case, transition="start_investigation", actor=smo)
    party = case_add_party(
        case=case,
        actor=smo,
        role=CaseParty.Role.OWNER,
        new_party={"name": name, "mailing_address": "7 Shore Road\nPoquott, NY"},
    ).party
    case.refresh_from_db()
    return case_run_transition(
        case=case,
        transition="confirm_violation",
        actor=smo,
        responsible_party=party,
        violation_confirmed_on=on,
        violation_finding="Wash water piped to the catch basin.",
    )


def eliminate(case, smo, on: dt.date):
    return case_run_transition(
        case=case,
        transition="resolve",
        actor=smo,
        eliminated_on=on,
        verification="Dye test negative.",
    )


@dataclass
class Year:
    year: ReportingYear
    reports: dict = field(default_factory=dict)
    cases: dict = field(default_factory=dict)
    notices: dict = field(default_factory=dict)
    other: dict = field(default_factory=dict)


@pytest.fixture
def a_year(db, smo_user, clerk_user):
    """The year's records (see the module docstring); returns what was made."""
    smo = smo_user
    y = Year(ReportingYear(2026))
    d = dt.date
    # Reports: one per channel, plus two on the boundary of the year.
    y.reports["web"] = submit("web", local(2026, 4, 1, 9), smo)
    y.reports["open311"] = submit("open311", local(2026, 5, 2, 10), smo)
    y.reports["phone"] = submit("phone", local(2026, 6, 3, 11), smo)
    y.reports["walk_in"] = submit("walk_in", local(2026, 7, 4, 12), smo)
    y.reports["last_minute"] = submit("email", local(2026, 3, 9, 23, 59), smo)
    y.reports["first_minute"] = submit("email", local(2026, 3, 10, 0, 0), smo)

    # A discharge reported on the web, confirmed and eliminated: 61 days.
    discharge = case_open_from_reports(
        reports=[y.reports["web"]],
        actor=smo,
        summary="Car-wash suds",
        kind=CaseKind.ILLICIT_DISCHARGE,
        opened_at=local(2026, 4, 1, 10),
        new_premises={"address": "12 Harbor Road"},
    )
    confirm(discharge, smo, d(2026, 4, 20))
    eliminate(discharge, smo, d(2026, 6, 1))
    y.cases["eliminated"] = discharge

    # A second discharge (Open311 report), confirmed, a notice issued and complied
    # with, then eliminated: 91 days from the report.
    second = case_open_from_reports(
        reports=[y.reports["open311"]],
        actor=smo,
        summary="Oil sheen at the outfall",
        kind=CaseKind.ILLICIT_DISCHARGE,
        opened_at=local(2026, 5, 2, 11),
        new_premises={"address": "40 Washington Street"},
    )
    second = confirm(second, smo, d(2026, 5, 10))
    notice = notice_services.notice_draft(
        case=second,
        actor=smo,
        recipient=second.responsible_party,
        violation_date=d(2026, 5, 10),
        findings="Oil discharged to the MS4.",
        requirements=[
            (RequirementKind.ELIMINATION, "Remove the connection."),
            (RequirementKind.ABATEMENT, "Clean the outfall."),
            (RequirementKind.FINE, "Pay the fine."),
        ],
        remediation_days=10,
        proposed_fine=Decimal("300"),
    )
    notice = notice_services.notice_issue(
        notice=notice, actor=smo, issued_on=d(2026, 5, 12)
    )
    notice = notice_services.notice_record_compliance(
        notice=notice, actor=smo, complied_on=d(2026, 5, 20)
    )
    y.notices["complied"] = notice
    # The fine is paid in two parts (issue 27: a case is resolved only with its
    # balance settled; the annual report's money lines come from the ledger).
    fine = Charge.objects.get(notice=notice)
    for on, amount in ((d(2026, 5, 20), "100.00"), (d(2026, 7, 15), "200.00")):
        ledger_services.payment_record(
            charge=fine, actor=smo, received_on=on, amount=amount, method="cash"
        )
    second.refresh_from_db()
    eliminate(second, smo, d(2026, 8, 1))
    y.cases["eliminated_after_notice"] = second

    # An illicit connection (phone report), confirmed, still open at year end.
    connection = case_open_from_reports(
        reports=[y.reports["phone"]],
        actor=smo,
        summary="Laundry drain to the storm sewer",
        kind=CaseKind.ILLICIT_CONNECTION,
        connection_type="indoor_drain",
        opened_at=local(2026, 6, 3, 12),
        new_premises={"address": "3 Washington Street"},
    )
    y.cases["open_connection"] = confirm(connection, smo, d(2026, 6, 10))

    # Triage: the walk-in report was rain water.
    unfounded = case_open_from_reports(
        reports=[y.reports["walk_in"]],
        actor=smo,
        summary="Puddle",
        opened_at=local(2026, 7, 4, 13),
    )
    y.cases["unfounded"] = case_run_transition(
        case=unfounded,
        transition="close_unfounded",
        actor=smo,
        closing_reason="Rain water.",
    )
    # Two cases on the boundary of the year (opened from the boundary reports).
    y.cases["last_minute"] = case_open(
        actor=smo,
        source="email",
        summary="Last minute of the 2025 year",
        opened_at=local(2026, 3, 9, 23, 59),
    )
    y.cases["first_minute"] = case_open(
        actor=smo,
        source="email",
        summary="First minute of the 2026 year",
        opened_at=local(2026, 3, 10, 0, 0),
    )

    # Outfalls: two mapped this year, both screened in dry weather; one with flow
    # and an obvious discharge, one screened only 24 hours after rain (not dry).
    out_a = fieldwork.outfall_save(
        actor=smo,
        code="OF-101",
        location_description="Foot of Harbor Road",
        receiving_water="Port Jefferson Harbor",
    )
    out_b = fieldwork.outfall_save(
        actor=smo,
        code="OF-102",
        location_description="Shore Road beach",
        receiving_water="Port Jefferson Harbor",
    )
    fieldwork.screening_record(
        actor=smo,
        outfall=out_a,
        screened_at=local(2026, 6, 15, 9),
        hours_since_rain=96,
        flow_present=True,
        flow_rate="trickle",
        colour="clear",
        severity="obvious",
    )
    fieldwork.screening_record(
        actor=smo,
        outfall=out_b,
        screened_at=local(2026, 6, 15, 10),
        hours_since_rain=24,
        severity="none",
    )
    y.other["outfalls"] = (out_a, out_b)

    # Field work at the connection's premises: access refused, a warrant filed,
    # a second visit with a sample.
    premises = y.cases["open_connection"].premises
    refused = fieldwork.inspection_schedule(
        actor=smo,
        kind="complaint",
        premises=premises,
        officer=smo,
        scheduled_for=local(2026, 6, 12, 9),
        case=y.cases["open_connection"],
    )
    refused = fieldwork.inspection_record(
        actor=smo,
        inspection=refused,
        performed_at=local(2026, 6, 12, 9, 30),
        attendees="SMO",
        access_outcome="refused",
        access_notes="Owner refused.",
    )
    warrant = fieldwork.warrant_start(
        actor=smo,
        inspection=refused,
        probable_cause="Dye seen at the outfall.",
        court="Suffolk County District Court",
    )
    fieldwork.warrant_advance(
        actor=smo, warrant=warrant, transition="file", on=d(2026, 6, 15)
    )
    granted = fieldwork.inspection_schedule(
        actor=smo,
        kind="follow_up",
        premises=premises,
        officer=smo,
        scheduled_for=local(2026, 6, 20, 9),
        case=y.cases["open_connection"],
    )
    granted = fieldwork.inspection_record(
        actor=smo,
        inspection=granted,
        performed_at=local(2026, 6, 20, 9, 15),
        attendees="SMO",
        access_outcome="granted",
        findings="Laundry drain found.",
    )
    fieldwork.sample_add(
        actor=smo,
        inspection=granted,
        parameter="E. coli",
        sampled_on=d(2026, 6, 20),
        chain_of_custody_number="COC-1",
    )
    y.other["inspections"] = (refused, granted)

    # A spill told by telephone, its written confirmation mailed in time.
    yard = Premises.objects.create(address="40 Main Street", land_use="industrial")
    spill = fieldwork.spill_record(
        actor=smo,
        premises=yard,
        reported_by="Pat Quinn",
        reporter_email="pat.quinn@example.org",
        known_at=local(2026, 9, 1, 8),
        material="Wash water",
        hazardous=False,
        containment_steps="Boom",
        cleanup_steps="Vacuum truck",
        notice_method="telephone",
        notice_at=local(2026, 9, 1, 10),
    )
    y.other["spill"] = fieldwork.spill_record_confirmation(
        actor=smo, spill=spill, mailed_on=d(2026, 9, 2)
    )
    # Another, whose confirmation was mailed late (its deadline missed).
    late = fieldwork.spill_record(
        actor=smo,
        premises=yard,
        reported_by="Pat Quinn",
        known_at=local(2026, 10, 1, 8),
        material="Paint water",
        hazardous=False,
        containment_steps="Boom",
        cleanup_steps="Vacuum truck",
        notice_method="telephone",
        notice_at=local(2026, 10, 1, 9),
    )
    y.other["late_spill"] = fieldwork.spill_record_confirmation(
        actor=smo, spill=late, mailed_on=d(2026, 10, 20)
    )

    # A notice on the connection, appealed and upheld by the Board.
    connection = y.cases["open_connection"]
    connection.refresh_from_db()
    appealed = notice_services.notice_draft(
        case=connection,
        actor=smo,
        recipient=connection.responsible_party,
        violation_date=d(2026, 6, 10),
        findings="Laundry drain connected to the storm sewer.",
        requirements=[(RequirementKind.CEASE_DESIST, "Stop using the drain.")],
    )
    appealed = notice_services.notice_issue(
        notice=appealed, actor=smo, issued_on=d(2026, 6, 12)
    )
    appeal = appeal_services.appeal_file(
        notice=appealed,
        actor=clerk_user,
        appellant=connection.responsible_party,
        filed_on=d(2026, 6, 20),
        grounds="It is a rain leader.",
    )
    appeal, _ = schedule_hearing(
        appeal, clerk_user, local(2026, 7, 7, 19), location="Village Hall"
    )
    with village_day(d(2026, 7, 8)):
        appeal = appeal_services.appeal_decide(
            appeal=appeal,
            actor=clerk_user,
            decision="upheld",
            decided_on=d(2026, 7, 8),
            resolution="The drain carries laundry water.",
        )
    y.notices["appealed"] = appealed
    y.other["appeal"] = appeal
    return y
