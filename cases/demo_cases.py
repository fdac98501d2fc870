"""Demo premises, parties, reports in triage and cases in several states (loaded by
`manage.py load_demo_data`). Idempotent: each record is looked up by a fixed key
before it is made, and every case is driven through the real services."""

import datetime as dt
from decimal import Decimal

from django.utils import timezone

from intake.models import ExemptCategory, PollutantCategory, Report
from kernel.demo_users import load_users

from . import services
from .models import Case, CaseKind, CaseParty, CaseSource, Party, Premises

PREMISES = [
    # address, tax map number, land use, lat, lon
    (
        "12 Van Brunt Manor Road",
        "0200-001.00-01.00-012.000",
        "residential",
        "40.9521",
        "-73.0912",
    ),
    (
        "3 Washington Street",
        "0200-002.00-02.00-003.000",
        "commercial",
        "40.9476",
        "-73.0883",
    ),
    (
        "88 Birchwood Avenue",
        "0200-003.00-01.00-088.000",
        "construction",
        "40.9502",
        "-73.0859",
    ),
]
PARTIES = [
    (
        "Dana Whitfield",
        "person",
        "",
        "12 Van Brunt Manor Road, Poquott NY 11733",
        "631-555-0142",
    ),
    (
        "Harbor Auto Detailing LLC",
        "entity",
        "R. Osei, manager",
        "3 Washington Street, Poquott NY 11733",
        "631-555-0177",
    ),
    (
        "North Shore Builders Inc.",
        "entity",
        "P. Lanza",
        "PO Box 12, Setauket NY 11733",
        "631-555-0199",
    ),
]
TRIAGE_REPORTS = [
    (
        "Grey, soapy water running from a driveway into the storm drain on Washington "
        "Street; it has been going for an hour and it is not raining.",
        "3 Washington Street",
        "40.947650",
        "-73.088250",
        "wash-water",
    ),
    (
        "Muddy water pouring off the building site on Birchwood Avenue into the "
        "catch basin after they hosed the street.",
        "88 Birchwood Avenue",
        "40.950180",
        "-73.085950",
        "sediment",
    ),
]


def _premises():
    out = []
    for address, tmn, use, lat, lon in PREMISES:
        p, _ = Premises.objects.get_or_create(
            address=address,
            defaults={
                "tax_map_number": tmn,
                "land_use": use,
                "latitude": Decimal(lat),
                "longitude": Decimal(lon),
            },
        )
        out.append(p)
    return out


def _parties():
    out = []
    for name, kind, contact, address, phone in PARTIES:
        p, _ = Party.objects.get_or_create(
            name=name,
            defaults={
                "kind": kind,
                "contact_person": contact,
                "mailing_address": address,
                "phone": phone,
            },
        )
        out.append(p)
    return out


def _report(description, address, lat, lon, pollutant, *, hours_ago):
    report = Report.objects.filter(description=description).first()
    if report is None:
        report = Report.objects.create(
            channel=Report.Channel.WEB,
            description=description,
            address=address,
            latitude=Decimal(lat),
            longitude=Decimal(lon),
            received_at=timezone.now() - dt.timedelta(hours=hours_ago),
            flow=Report.Flow.DRY_WEATHER,
        )
        category = PollutantCategory.objects.filter(code=pollutant).first()
        if category:
            report.pollutant_categories.add(category)
    return report


def _go(case, smo, transition, reason="", **fields):
    return services.case_run_transition(
        case=case, transition=transition, actor=smo, reason=reason, **fields
    )


def load(stdout):
    users = load_users()
    smo = users["smo"]
    home, shop, site = _premises()
    resident, detailer, builder = _parties()
    today = timezone.localdate()

    for i, row in enumerate(TRIAGE_REPORTS):
        _report(*row, hours_ago=3 + i)

    def once(summary, build):
        if not Case.objects.filter(summary=summary).exists():
            build(summary)

    def awaiting(summary):
        services.case_open(
            actor=smo,
            source=CaseSource.PHONE,
            summary=summary,
            kind=CaseKind.ILLICIT_DISCHARGE,
            location_description="Outfall at the foot of Rosewood Lane",
        )

    def investigating(summary):
        case = services.case_open(
            actor=smo,
            source=CaseSource.OUTFALL_SCREENING,
            summary=summary,
            kind=CaseKind.ILLICIT_CONNECTION,
            premises=home,
            assigned_officer=smo,
        )
        _go(case, smo, "start_investigation", "Dry-weather flow at screening.")
        services.case_add_party(
            case=case, actor=smo, role=CaseParty.Role.OWNER, party=resident
        )

    def long_story(summary):
        report = _report(
            "White foamy water coming out of the pipe behind the car wash on "
            "Washington Street every afternoon.",
            "3 Washington Street",
            "40.947610",
            "-73.088310",
            "wash-water",
            hours_ago=72,
        )
        case = services.case_open_from_reports(
            reports=[report],
            actor=smo,
            summary=summary,
            kind=CaseKind.ILLICIT_DISCHARGE,
        )
        services.case_update_details(
            case=case, actor=smo, premises=shop, assigned_officer=smo
        )
        _go(case, smo, "start_investigation", "Site visit scheduled.")
        services.note_add(
            case=case,
            actor=smo,
            text="Visited: floor drain in the wash bay piped to the street drain.",
        )
        services.note_add(
            case=case,
            actor=smo,
            text="We have confirmed the source and are working with the owner.",
            public=True,
        )
        services.case_add_party(
            case=case, actor=smo, role=CaseParty.Role.OPERATOR, party=detailer
        )
        _go(
            case,
            smo,
            "confirm_violation",
            "Dye test positive at outfall PQ-07.",
            responsible_party=detailer,
            violation_finding="Wash-bay floor drain connected to the MS4.",
        )
        _go(
            case,
            smo,
            "resolve",
            "Plumber's invoice and re-inspection.",
            eliminated_on=today - dt.timedelta(days=1),
            verification="Re-inspection: drain capped; dye test negative.",
        )
        _go(case, smo, "reopen", "Suds seen again at the outfall (recurrence).")

    def unfounded(summary):
        case = services.case_open(actor=smo, source=CaseSource.EMAIL, summary=summary)
        _go(
            case,
            smo,
            "close_unfounded",
            closing_reason="Clear water from a lawn sprinkler; no pollutants seen.",
        )

    def exempt(summary):
        case = services.case_open(
            actor=smo, source=CaseSource.WALK_IN, summary=summary, premises=home
        )
        _go(
            case,
            smo,
            "close_exempt",
            "Footing drain, clear water.",
            exemption_basis=Case.ExemptionBasis.CATEGORY,
            exempt_category=ExemptCategory.objects.exclude(
                substantial_contributor=True
            ).first(),
        )

    def referred(summary):
        case = services.case_open(
            actor=smo,
            source=CaseSource.REFERRAL,
            summary=summary,
            kind=CaseKind.PERMIT_NONCOMPLIANCE,
            premises=site,
        )
        services.case_add_party(
            case=case, actor=smo, role=CaseParty.Role.OPERATOR, party=builder
        )
        _go(
            case,
            smo,
            "refer",
            "Construction SPDES permit matter.",
            referred_to="NYS DEC Region 1",
            referred_on=today,
        )

    once("Cloudy flow at the Rosewood Lane outfall (phone call)", awaiting)
    once("Dry-weather flow from a house lateral on Van Brunt Manor Road", investigating)
    once("Car-wash suds piped to the street drain (demo: long timeline)", long_story)
    once("Water on the road near Tyler Avenue (e-mail)", unfounded)
    once("Sump discharge on Van Brunt Manor Road", exempt)
    once("Silt fence failure at the Birchwood Avenue site (DEC referral)", referred)
    stdout.write("Demo cases loaded: 6 cases, 2 reports waiting in triage.")
