"""Issue 26, "a crawl of every staff URL as every role must answer no 5xx".

One data-rich database is built once for the module, through the project's own
code: the demo data (`manage.py load_demo_data`), the year of records of the
annual-report tests (tests/annual/conftest.py), and, through the services, a
record of every kind that has a page of its own (remedies of every flow, a
frozen and a published annual report, a respondent's contact request and proof
of correction, photos, attachments, a delegation, an office closure, ...).

Every URL pattern of the project is then filled from those records and GET as
every role of tests/conftest.py and anonymously: no answer may be a 5xx. No
redirect is followed, nothing is POSTed (a POST-only view answers the GET with
405), and each GET runs in a savepoint rolled back after it, so what one GET
wrote no later GET sees.

A pattern with arguments is crawled when FILL says how to fill them, or named in
SKIPPED with the reason; a new pattern in neither fails
`test_every_url_pattern_is_crawled_or_skipped`, and so does a filled pattern
for which the data gave no URL: the crawl cannot shrink unseen. The admin
(Django's own pages of the models) is left out as a whole."""

from __future__ import annotations

import datetime as dt
import io
import logging
import traceback
from dataclasses import dataclass, field
from decimal import Decimal

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.contrib.contenttypes.models import ContentType
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.db import transaction
from django.test import Client, override_settings
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from PIL import Image
from pypdf import PdfWriter

from cases import services as case_services
from cases.forms import TRANSITION_FORMS
from cases.models import (
    Attachment,
    Case,
    CaseParty,
    CaseStatus,
    Outfall,
    Party,
    Premises,
)
from deadlines import ical
from deadlines.models import CalendarFeedToken, Deadline, OfficeClosure
from deadlines.services import add_office_closure
from documents.contracts import document_kind_values
from documents.models import IssuedDocument
from documents.registry import document_type, registered_kinds
from documents.tasks import render_document
from enforcement import demo as enforcement_demo
from enforcement.document_kinds import EnforcementDocument
from enforcement.models import (
    AccessTermination,
    AlternativeKind,
    AlternativeRemedyItem,
    Appeal,
    AppealDocument,
    BoardMeeting,
    NoticeOfViolation,
    NuisanceAbatement,
    RequirementKind,
    ServiceRecord,
)
from enforcement.selectors import REMEDY_MODELS
from enforcement.services import appeals as appeal_services
from enforcement.services import notices as notice_services
from enforcement.services import remedies
from fieldwork.models import FieldPhoto, FieldRecord
from inspections import services as fieldwork
from inspections.models import (
    BMPRequirement,
    ComplianceProofRequest,
    Facility,
    Inspection,
    InspectionPhoto,
    MonitoringEquipment,
    OutfallScreening,
    ScreeningPhoto,
    SpillNotification,
    WarrantApplication,
)
from intake.models import PollutantCategory, Report, ReportPhoto
from intake.services import report_submit
from jobs import services as job_services
from jobs.models import Job
from kernel.delegations import delegation_grant
from kernel.models import Delegation
from kernel.roles import Role
from kernel.uploads import process_image_upload
from ledger import court
from ledger.models import Charge, CourtReferral, Payment
from outbox.models import OutgoingMessage
from portal.corrections import correction_submit
from portal.models import (
    ContactChangeRequest,
    CorrectionFile,
    CorrectionSubmission,
    PortalAccess,
)
from portal.services import contact_request_submit
from reporting.annual import services as annual_services
from reporting.annual.models import AnnualReport
from reporting.annual.selectors import annual_counts
from reporting.annual.year import ReportingYear
from tests.annual import conftest as annual_conftest
from tests.conftest import make_user
from tests.enforcement.conftest import hearing_notice_sent, issued_notice_of_hearing
from tests.outbox.factories import OutgoingMessageFactory

ROLES = ("anonymous", "no_role", "smo", "clerk", "attorney", "inspector", "superuser")


# --- the data ------------------------------------------------------------------------


def _png(name="photo.png"):
    out = io.BytesIO()
    Image.new("RGB", (40, 30), (200, 30, 30)).save(out, format="PNG")
    return SimpleUploadedFile(name, out.getvalue(), content_type="image/png")


def _jpeg(name="site.jpg"):
    out = io.BytesIO()
    Image.new("RGB", (32, 32), (10, 120, 200)).save(out, format="JPEG")
    return SimpleUploadedFile(name, out.getvalue(), content_type="image/jpeg")


def _pdf(name="letter.pdf"):
    writer = PdfWriter()
    writer.add_blank_page(width=612, height=792)
    out = io.BytesIO()
    writer.write(out)
    return SimpleUploadedFile(name, out.getvalue(), content_type="application/pdf")


def _render_pending():
    """The PDFs of the documents issued, as the document worker makes them."""
    for pk in IssuedDocument.objects.filter(
        status=IssuedDocument.Status.RENDERING
    ).values_list("pk", flat=True):
        render_document(pk)


@dataclass
class World:
    users: dict = field(default_factory=dict)  # role → user (None: anonymous)
    urls: list = field(default_factory=list)  # (pattern name, URL) to GET


def build_world() -> World:
    call_command("load_demo_data", stdout=io.StringIO())
    User = get_user_model()
    smo = User.objects.get(username="smo")
    clerk = User.objects.get(username="clerk")
    today = timezone.localdate()
    now = timezone.now()

    # The annual-report tests' year of records: reports of every channel, cases
    # confirmed, eliminated and closed, a notice complied with, an appeal
    # decided, outfalls screened, inspections, a warrant, spills (the fixture's
    # body, given the demo's SMO and clerk).
    year = annual_conftest.a_year.__wrapped__(None, smo, clerk)

    # The ledger's demo fine, past due, referred to the Justice Court (issue 27).
    court.court_refer(
        charge=Charge.objects.filter(kind="nov_fine").order_by("pk").first(),
        actor=smo,
        referred_on=today,
    )

    # Remedies of every flow, on the demo's enforcement case.
    case = Case.objects.get(summary=enforcement_demo.DEMO_SUMMARY)
    owner = case.responsible_party
    nuisance = remedies.nuisance_declare(
        case=case,
        actor=smo,
        condition_description="Pool water pumped to the catch basin.",
        declared_on=today,
    )
    remedies.cost_item_add(
        remedy=nuisance,
        actor=smo,
        description="Vacuum truck",
        amount=Decimal("250"),
        incurred_on=today,
    )
    remedies.injunction_refer(
        case=case,
        actor=smo,
        kind="permanent",
        relief="restrain",
        referred_on=today,
        grounds="Repeated discharges.",
    )
    remedies.suspension_start(
        case=case,
        actor=smo,
        party=owner,
        suspended_at=now - dt.timedelta(hours=2),
        reasons="Oil sheen at the outfall.",
    )
    termination = remedies.termination_propose(
        case=case,
        actor=smo,
        party=owner,
        notice_on=today - dt.timedelta(days=3),
        reasons="Illicit connection.",
    )
    termination = remedies.remedy_step(
        obj=termination,
        transition="terminate",
        actor=smo,
        terminated_on=today - dt.timedelta(days=2),
    )
    remedies.termination_record_unauthorized_reinstatement(
        termination=termination,
        actor=smo,
        observed_on=today - dt.timedelta(days=1),
        description="Plug removed from the lateral.",
    )
    remedies.alternative_propose(
        case=case,
        actor=smo,
        party=owner,
        violation_date=today - dt.timedelta(days=7),
        unintentional=True,
        minimal_damage=True,
        acted_quickly=True,
        cooperated=True,
        findings="First time; cleaned at once.",
        kinds=[
            (AlternativeKind.WORKSHOP, "May workshop"),
            (AlternativeKind.CLEANUP, ""),
        ],
    )
    # Corrective measures follow a notice not complied with that requires a
    # measure the Village can take: one issued in June, never met.
    connection = Case.objects.get(pk=year.cases["open_connection"].pk)
    overdue = notice_services.notice_draft(
        case=connection,
        actor=smo,
        recipient=connection.responsible_party,
        violation_date=dt.date(2026, 6, 10),
        findings="Laundry drain connected to the storm sewer.",
        requirements=[
            (RequirementKind.ELIMINATION, "Remove the connection."),
            (RequirementKind.ABATEMENT, "Clean the storm sewer."),
        ],
        remediation_days=10,
    )
    overdue = notice_services.notice_issue(
        notice=overdue, actor=smo, issued_on=dt.date(2026, 6, 15)
    )
    overdue = notice_services.notice_record_noncompliance(notice=overdue, actor=smo)
    remedies.corrective_request_access(
        notice=overdue, actor=smo, request_letter_on=today
    )

    # The demo appeal: its notice of hearing issued and sent, a document kept.
    appeal = Appeal.objects.get(notice__case=case)
    issued_notice_of_hearing(appeal, clerk)
    hearing_notice_sent(appeal, clerk, today)
    appeal_services.appeal_add_document(
        appeal=Appeal.objects.get(pk=appeal.pk),
        actor=clerk,
        upload=_pdf("survey.pdf"),
        description="Survey of the lot",
    )

    # The respondent's page: a contact change and a proof of correction.
    access = PortalAccess.objects.filter(case=case, revoked_at__isnull=True).first()
    contact_request_submit(access=access, address="127.0.0.1", email="jo@example.org")
    correction_submit(
        access=access,
        notice=NoticeOfViolation.objects.get(case=case),
        statement="The basin was cleaned on Monday.",
        uploads=[_png("basin.png"), _pdf("receipt.pdf")],
        address="127.0.0.1",
    )

    # A report with a photo (its receipt goes to the outbox), an attachment,
    # messages failed and sent.
    report_submit(
        channel="web",
        fields={
            "description": "Oily water at the beach stairs.",
            "address": "Washington Street at the beach stairs",
            "reporter_email": "walker@example.org",
            "received_at": now - dt.timedelta(hours=1),
        },
        photos=[process_image_upload(_png())],
    )
    case_services.attachment_add(
        case=case, actor=smo, upload=_pdf("invoice.pdf"), description="Invoice"
    )
    OutgoingMessageFactory(failed=True)
    OutgoingMessageFactory(sent=True)

    # Background exports of the SMO: one made, one failed (issue 29).
    for kind in ("export:cases", "export:no-longer-made"):
        with transaction.atomic():
            job = job_services.job_queue(
                owner=smo, kind=kind, title="Cases", fmt="csv", base_url="http://t"
            )
        job_services.job_run(job.pk)

    # Field work: a photo, a facility's proof, equipment, a BMP, a dye test, an
    # approval.
    facility = Facility.objects.get(permit_number="NYR00X123")
    fieldwork.photo_add(
        actor=smo,
        inspection=Inspection.objects.filter(facility=facility).first(),
        upload=_jpeg(),
        caption="Catch basin",
    )
    fieldwork.screening_photo_add(
        actor=smo,
        screening=OutfallScreening.objects.order_by("pk").first(),
        upload=_jpeg("outfall.jpg"),
        caption="Pipe end",
    )
    fieldwork.proof_request_create(
        actor=smo,
        facility=facility,
        requested_on=today,
        what_is_required="Annual SWPPP inspection report",
    )
    meter = fieldwork.equipment_create(
        actor=smo,
        facility=facility,
        kind=MonitoringEquipment.Kind.FACILITY_REQUIRED,
        description="Flow meter",
        calibration_interval_months=6,
    )
    fieldwork.calibration_record(
        actor=smo,
        equipment=meter,
        calibrated_on=today - dt.timedelta(days=30),
        calibrated_by="Acme Instruments",
    )
    fieldwork.bmp_require(
        actor=smo,
        premises=facility.premises,
        facility=facility,
        practice_type="structural",
        description="Oil-water separator on the wash pad",
        required_on=today,
        days_to_implement=30,
    )
    fieldwork.dye_test_record(
        actor=smo,
        premises=facility.premises,
        notified_at=now - dt.timedelta(hours=5),
        notified_by="Plumber J. Doe",
        test_at=now - dt.timedelta(hours=3),
    )
    fieldwork.approval_record(
        actor=smo,
        premises=facility.premises,
        reference="A-1",
        harm_prevented="Basement flooding",
        discharge_description="Pumped groundwater",
        starts_on=today,
        ends_on=today + dt.timedelta(days=30),
        conditions="Filter bag on the pump discharge",
        approved_on=today,
    )

    # A delegation (to the demo's inspector, not to a crawling user: their
    # roles stay what they are), an office closure, the calendar feed tokens.
    delegation_grant(
        actor=smo,
        delegate=User.objects.get(username="inspector"),
        powers="Field inspections",
        starts_on=today,
        ends_on=today + dt.timedelta(days=30),
        instrument="SMO letter of delegation",
    )
    add_office_closure(
        day=today + dt.timedelta(days=20), reason="Village holiday", actor=smo
    )
    ical.token_for(smo)
    ical.token_for(clerk)
    _render_pending()

    # The annual report: a version frozen, published, with a comment; a later
    # version whose PDF is still being made (a state of its own).
    current = ReportingYear.current()
    report = annual_services.annual_freeze(year=current, actor=smo)
    _render_pending()
    report = annual_services.annual_publish(
        report=report,
        actor=smo,
        opens_on=today,
        closes_on=today + dt.timedelta(days=30),
    )
    _render_pending()
    annual_services.annual_comment_record(
        report=report, actor=smo, received_on=today, text="Thank you."
    )
    annual_services.annual_freeze(year=current, actor=smo)

    return World(
        users={
            "anonymous": None,
            "no_role": make_user("crawl-visitor"),
            "smo": make_user("crawl-smo", Role.SMO, last_name="Officer"),
            "clerk": make_user("crawl-clerk", Role.CLERK),
            "attorney": make_user("crawl-attorney", Role.ATTORNEY),
            "inspector": make_user("crawl-inspector", Role.BUILDING_INSPECTOR),
            "superuser": make_user("crawl-admin", is_superuser=True, is_staff=True),
        }
    )


# Loggers quietened for the module: the PDFs' font subsetting tells each step at
# INFO, and every 403/404 of the crawl is a WARNING of django.request (a 5xx is
# still logged, with its traceback, at ERROR).
QUIET_LOGGERS = {"fontTools": logging.WARNING, "django.request": logging.ERROR}


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker, tmp_path_factory):
    """The data and the URLs, made once for the module inside a transaction
    rolled back at its end: each test's own transaction (the `db` fixture) is a
    savepoint in it, and nothing is left for the other test modules. Uploads
    and PDFs go to a temporary media folder."""
    levels = {name: logging.getLogger(name).level for name in QUIET_LOGGERS}
    for name, level in QUIET_LOGGERS.items():
        logging.getLogger(name).setLevel(level)
    atomic = transaction.atomic()
    with override_settings(MEDIA_ROOT=tmp_path_factory.mktemp("crawl-media")):
        try:
            with django_db_blocker.unblock():
                atomic.__enter__()
                built = build_world()
                built.urls = crawl_urls()
            yield built
        finally:
            with django_db_blocker.unblock():
                transaction.set_rollback(True)
                atomic.__exit__(None, None, None)
            for name, level in levels.items():
                logging.getLogger(name).setLevel(level)


# --- the URL patterns ---------------------------------------------------------------


@dataclass(frozen=True)
class Pattern:
    name: str  # qualified: "cases:detail"
    route: str  # the whole route
    kwargs: tuple[str, ...]  # its arguments (path converters, regex groups)


# Namespaces left out as a whole, with the reason.
SKIPPED_NAMESPACES = {
    "admin": "Django's admin of the models (django.contrib.admin's own pages)",
}

# Routes defined twice: the project's own view comes first (the sign-in with its
# throttle, the password reset with its limit); Django's is never reached.
SHADOWED = {"accounts/login/", "accounts/password_reset/"}


def url_patterns() -> tuple[list[Pattern], list[str]]:
    """(every pattern of the project outside SKIPPED_NAMESPACES, the routes
    shadowed by an earlier pattern of the same route)."""
    found, seen, shadowed = [], set(), []

    def walk(patterns, prefix, namespace, kwargs):
        for p in patterns:
            route = prefix + str(p.pattern)
            here = (*kwargs, *p.pattern.regex.groupindex)
            if isinstance(p, URLResolver):
                if p.namespace not in SKIPPED_NAMESPACES:
                    inner = ":".join(filter(None, [namespace, p.namespace]))
                    walk(p.url_patterns, route, inner, here)
                continue
            assert isinstance(p, URLPattern), p
            if route in seen:
                shadowed.append(route)
                continue
            seen.add(route)
            name = ":".join(filter(None, [namespace, p.name or route]))
            found.append(Pattern(name=name, route=route, kwargs=here))

    walk(get_resolver().url_patterns, "", "", ())
    return found, shadowed


# --- how the arguments of each pattern are filled from the database -------------------


def _pks(model, *, by=(), limit=None) -> list[int]:
    """The pks of `model`, oldest first: all of them, the first `limit`, or the
    first of each distinct value of the fields `by` (a record of each state)."""
    rows = model.objects.order_by("pk")
    if by:
        firsts = {}
        for pk, *values in rows.values_list("pk", *by):
            firsts.setdefault(tuple(values), pk)
        pks = sorted(firsts.values())
    else:
        pks = list(rows.values_list("pk", flat=True))
    return pks[:limit] if limit else pks


def pk_of(model, key="pk", **options):
    """{key: pk} of the records of `model` (see _pks for the options)."""
    return lambda: [{key: pk} for pk in _pks(model, **options)]


def first_of(model, **kwargs):
    """The first record of `model` and fixed arguments (a step's name)."""
    return lambda: [{"pk": _pks(model)[0], **kwargs}]


def case_number(**options):
    """A case of each status by default (see _pks), by its number."""
    options.setdefault("by", ("status",))

    def fill():
        pks = _pks(Case, **options)
        cases = Case.objects.filter(pk__in=pks).order_by("pk")
        return [{"number": n} for n in cases.values_list("number", flat=True)]

    return fill


def with_case(model, via="case", **kwargs):
    """The first record of `model`, with the number of its case (`via`)."""

    def fill():
        record = model.objects.order_by("pk").first()
        case = record
        for step in via.split("__"):
            case = getattr(case, step)
        return [{"number": case.number, "pk": record.pk, **kwargs}]

    return fill


def case_transitions():
    """Each step of the case's state machine (a GET shows its form), on a case
    where the SMO may take it now, else on the first case (the GET redirects
    with the reasons)."""
    smo = get_user_model().objects.get(username="smo")
    cases = list(Case.objects.order_by("pk"))
    offered = {
        c.pk: {a.name for a in case_services.available_transitions(c, smo) if a.enabled}
        for c in cases
    }
    out = []
    for name in TRANSITION_FORMS:
        case = next((c for c in cases if name in offered[c.pk]), cases[0])
        out.append({"number": case.number, "transition": name})
    return out


def case_parties(limit=2, key="pk"):
    def fill():
        named = CaseParty.objects.select_related("case").order_by("pk")[:limit]
        return [{"number": cp.case.number, key: cp.party_id} for cp in named]

    return fill


def correction_files():
    return [
        {"pk": pk, "which": which}
        for pk in _pks(CorrectionFile)
        for which in ("display", "original")
    ]


def sample_kinds():
    return [{"kind": kind} for kind in document_kind_values()]


def draft_previews():
    """Each kind of document from each kind of record it is made from (the
    first such record)."""
    out = []
    for kind in registered_kinds():
        for label in document_type(kind).builders:
            model = apps.get_model(label)
            first = model.objects.order_by("pk").first()
            if first is not None:
                content_type = ContentType.objects.get_for_model(model)
                out.append(
                    {
                        "kind": kind,
                        "content_type_id": content_type.pk,
                        "object_id": first.pk,
                    }
                )
    return out


def annual_years():
    current = ReportingYear.current().start_year
    return [{"year": str(current)}, {"year": str(current - 1)}]


def annual_metrics():
    """The drill-down of one count of each kind of record (the first that counts
    some) and of one amount of each: the page is the same for the others (all
    71 would cost ten seconds a role that reads them)."""
    current = ReportingYear.current()
    chosen = {}
    for count in annual_counts(current).counts:
        kind = (count.model, count.value is not None)
        if kind not in chosen or (not chosen[kind].number and count.number):
            chosen[kind] = count
    return [
        {"year": str(current.start_year), "metric": count.key}
        for count in chosen.values()
    ]


def remedies_of_each_flow():
    return [
        {"flow": flow, "pk": pk}
        for flow, model in REMEDY_MODELS.items()
        for pk in _pks(model, by=("status",))
    ]


def remedy_creation():
    case = Case.objects.filter(status=CaseStatus.ENFORCEMENT).order_by("pk").first()
    return [{"case_pk": case.pk, "flow": flow} for flow in REMEDY_MODELS]


def nuisance(**kwargs):
    return lambda: [{"flow": "nuisance", "pk": _pks(NuisanceAbatement)[0], **kwargs}]


def feed_tokens():
    tokens = CalendarFeedToken.objects.order_by("pk").values_list("token", flat=True)
    return [{"token": token} for token in tokens]


def in_formats(fill=lambda: [{}]):
    """Each of `fill`'s arguments in both formats of the Open311 API."""
    return lambda: [{**kw, "fmt": fmt} for kw in fill() for fmt in ("json", "xml")]


def open311_services():
    codes = PollutantCategory.objects.order_by("pk").values_list("code", flat=True)
    return [{"code": code} for code in codes[:2]]


def open311_tokens():
    return [{"token": Report.objects.order_by("pk").first().tracking_code}]


def triage_outcomes():
    pk = Report.objects.filter(case__isnull=True).order_by("pk").first().pk
    return [
        {"pk": pk, "outcome": outcome}
        for outcome in ("unfounded", "exempt", "referred", "duplicate")
    ]


def password_reset_links():
    user = get_user_model().objects.get(username="crawl-smo")
    return [
        {
            "uidb64": urlsafe_base64_encode(force_bytes(user.pk)),
            "token": default_token_generator.make_token(user),
        }
    ]


# "# POST" marks a view that takes only a POST: the GET answers 405 before the
# view runs, so one real record and one real step name are enough.
DOCUMENTS = pk_of(IssuedDocument, by=("kind", "status"))
FILL = {
    # the public site
    "public_annual:detail": pk_of(AnnualReport),
    "public_annual:pdf": pk_of(AnnualReport),
    "public_annual:comment": pk_of(AnnualReport, limit=1),  # POST
    # the respondent's pages (without their session: back to the code form)
    "portal_appeal:new": pk_of(NoticeOfViolation, key="notice_pk"),
    "portal_appeal:receipt": pk_of(Appeal),
    "portal:document": DOCUMENTS,
    "portal:correction": pk_of(NoticeOfViolation, key="notice_pk"),
    # reports, documents, the outbox
    "reports:detail": pk_of(Report),
    "reports:photo": pk_of(ReportPhoto),
    "reports:photo_original": pk_of(ReportPhoto),
    "documents:sample_preview": sample_kinds,
    "documents:draft_preview": draft_previews,
    "documents:detail": DOCUMENTS,
    "documents:html": DOCUMENTS,
    "documents:download": DOCUMENTS,
    "documents:verify": DOCUMENTS,
    "documents:retry": pk_of(IssuedDocument, limit=1),  # POST
    "outbox:retry": pk_of(OutgoingMessage, limit=1),  # POST
    "outbox:document_email": pk_of(IssuedDocument, limit=1),  # POST
    "jobs:detail": pk_of(Job),
    "jobs:status": pk_of(Job),
    "jobs:download": pk_of(Job),
    # cases, delegations, the annual report
    "cases:delegation_end": pk_of(Delegation),  # POST
    "annual:frozen": pk_of(AnnualReport),
    "annual:frozen_csv": pk_of(AnnualReport),
    "annual:step": first_of(AnnualReport, transition="publish"),  # POST
    "annual:comment_add": pk_of(AnnualReport, limit=1),  # POST
    "annual:year": annual_years,
    "annual:year_csv": annual_years,
    "annual:freeze": lambda: annual_years()[:1],  # POST
    "annual:count": annual_metrics,
    "cases:detail": case_number(),
    "cases:edit": case_number(),
    "cases:transition": case_transitions,
    "cases:triage_close": triage_outcomes,  # POST
    "cases:party_add": case_number(limit=1),
    "cases:party_edit": case_parties(),
    "cases:note_add": case_number(limit=1),
    "cases:attachment_add": case_number(limit=1),
    "cases:attachment": with_case(Attachment),
    "cases:referral_outcome": case_number(),
    "portal_staff:issue": case_parties(limit=1, key="party_pk"),  # POST
    "portal_staff:revoke": with_case(PortalAccess),  # POST
    "portal_staff:contact_decide": with_case(
        ContactChangeRequest, via="access__case", decision="confirm"
    ),  # POST
    "portal_staff:correction_decide": with_case(
        CorrectionSubmission, via="access__case", decision="accept"
    ),  # POST
    "portal_staff:correction_file": correction_files,
    # Open311 (the report form's API)
    "open311:discovery": in_formats(),
    "open311:services": in_formats(),
    "open311:service_definition": in_formats(open311_services),
    "open311:requests": in_formats(),
    "open311:request": in_formats(pk_of(Report, limit=2)),
    "open311:token": in_formats(open311_tokens),
    "open311:not_found": lambda: [{"path": "no/such/thing.json"}],
    # field work
    "inspections:inspection_detail": pk_of(Inspection),
    "inspections:inspection_step": first_of(Inspection, name="finalize"),  # POST
    "inspections:inspection_action": first_of(Inspection, action="open_case"),  # POST
    "inspections:inspection_photo": pk_of(InspectionPhoto),
    "inspections:warrant_detail": pk_of(WarrantApplication),
    "inspections:warrant_step": first_of(
        WarrantApplication, name="record_issued"
    ),  # POST
    "inspections:premises_detail": pk_of(Premises, limit=4),
    "inspections:facility_detail": pk_of(Facility),
    "inspections:facility_edit": pk_of(Facility),
    "inspections:proof_record": pk_of(ComplianceProofRequest),  # POST
    "inspections:equipment_detail": pk_of(MonitoringEquipment),
    "inspections:bmp_detail": pk_of(BMPRequirement),
    "inspections:outfall_detail": pk_of(Outfall),
    "inspections:outfall_edit": pk_of(Outfall, limit=1),
    "inspections:screening_new": pk_of(Outfall, limit=1),
    "inspections:screening_detail": pk_of(OutfallScreening),
    "inspections:screening_photo": pk_of(ScreeningPhoto),
    "inspections:screening_photo_new": pk_of(OutfallScreening, limit=1),  # POST
    "inspections:spill_detail": pk_of(SpillNotification),
    "inspections:spill_step": first_of(SpillNotification, name="close"),  # POST
    "inspections:spill_open_case": pk_of(SpillNotification, limit=1),  # POST
    # enforcement
    "enforcement:case_enforcement": pk_of(Case, key="case_pk", by=("status",)),
    "enforcement:notice_create": pk_of(Case, key="case_pk", by=("status",)),
    "enforcement:notice_detail": pk_of(NoticeOfViolation),
    "enforcement:notice_edit": pk_of(NoticeOfViolation),
    "enforcement:notice_correct": pk_of(NoticeOfViolation, limit=1),  # POST
    "enforcement:notice_service": pk_of(NoticeOfViolation),
    "enforcement:notice_step": first_of(
        NoticeOfViolation, transition="record_compliance"
    ),  # POST
    "enforcement:service_delivery": pk_of(ServiceRecord),  # POST
    "enforcement:service_correct": pk_of(ServiceRecord),
    "enforcement:party_offenses": pk_of(Party, limit=3),
    "enforcement:hearings_ical": feed_tokens,
    "enforcement:appeal_detail": pk_of(Appeal),
    # the packet is a PDF of every document of the appeal: seconds each
    "enforcement:appeal_packet": pk_of(Appeal, limit=1),
    "enforcement:hearing_notice_status": pk_of(Appeal),
    "enforcement:appeal_step": first_of(Appeal, transition="decide"),  # POST
    "enforcement:appeal_record": first_of(Appeal, record="document"),  # POST
    "enforcement:meeting_detail": pk_of(BoardMeeting),
    "enforcement:meeting_notes": pk_of(BoardMeeting, limit=1),  # POST
    "enforcement:appeal_document": pk_of(AppealDocument),
    "enforcement:document_issue": first_of(
        Appeal, source="appeal", kind=EnforcementDocument.APPEAL_DECISION
    ),  # POST
    "enforcement:remedy_create": remedy_creation,
    "enforcement:remedy_detail": remedies_of_each_flow,
    "enforcement:remedy_step": nuisance(transition="invoice"),  # POST
    "enforcement:cost_add": nuisance(),  # POST
    "enforcement:alternative_item_complete": pk_of(
        AlternativeRemedyItem, limit=1
    ),  # POST
    "enforcement:termination_reinstatement": pk_of(AccessTermination),  # POST
    # the ledger (issue 27; its demo: a fine partly paid, an invoice paid)
    "ledger:charge_detail": pk_of(Charge),
    "ledger:payment_record": pk_of(Charge, limit=1),  # POST
    "ledger:charge_write_off": pk_of(Charge, limit=1),  # POST
    "ledger:payment_void": pk_of(Payment, limit=1),  # POST
    "ledger:charge_refer": pk_of(Charge, limit=1),  # POST
    "ledger:referral_detail": pk_of(CourtReferral),
    "ledger:referral_disposition": pk_of(CourtReferral, limit=1),  # POST
    "ledger:packet": pk_of(CourtReferral),
    "fieldwork:apply": pk_of(FieldRecord, limit=1),  # POST
    "fieldwork:receive_photo": lambda: [
        {"key": FieldRecord.objects.order_by("pk").values_list("key", flat=True)[0]}
    ],  # POST
    "fieldwork:photo": pk_of(FieldPhoto),
    "fieldwork:set_aside": pk_of(FieldRecord, limit=1),  # POST
    # deadlines
    "deadlines:ical": feed_tokens,
    "deadlines:detail": pk_of(Deadline, by=("status", "rule_id")),
    "deadlines:meet": pk_of(Deadline, limit=1),  # POST
    "deadlines:waive": pk_of(Deadline, limit=1),  # POST
    "deadlines:closure_remove": pk_of(OfficeClosure),  # POST
    # accounts
    "password_reset_confirm": password_reset_links,
}

# Patterns with arguments that are not crawled, with the reason. (None today.)
SKIPPED: dict[str, str] = {}


def crawl_urls() -> list[tuple[str, str]]:
    """(pattern name, URL) of each URL to GET, in the order of the patterns."""
    urls = []
    for pattern in url_patterns()[0]:
        if not pattern.kwargs:
            urls.append((pattern.name, reverse(pattern.name)))
        elif pattern.name in FILL:
            urls += [
                (pattern.name, reverse(pattern.name, kwargs=kwargs))
                for kwargs in FILL[pattern.name]()
            ]
    return urls


# --- the tests ------------------------------------------------------------------------


@pytest.mark.django_db
def test_every_url_pattern_is_crawled_or_skipped(world):
    """A pattern with arguments is filled (FILL) or SKIPPED, never both, never
    neither; each filled one gave at least one URL; no entry names a pattern
    that is gone; the only routes defined twice are the known ones."""
    patterns, shadowed = url_patterns()
    with_args = {p.name for p in patterns if p.kwargs}
    assert sorted(with_args - FILL.keys() - SKIPPED.keys()) == [], (
        "new patterns: fill them (FILL) or say why not (SKIPPED)"
    )
    assert sorted(FILL.keys() & SKIPPED.keys()) == []
    assert sorted((FILL.keys() | SKIPPED.keys()) - with_args) == [], "stale entries"
    crawled = {name for name, _ in world.urls}
    assert sorted(with_args - SKIPPED.keys() - crawled) == [], (
        "filled patterns for which the data gave no URL"
    )
    assert set(shadowed) == SHADOWED


def _what_went_wrong(response) -> str:
    """The exception the view raised (its last frame), else the body's start."""
    if not response.exc_info:
        return response.content[:300].decode("utf-8", "replace")
    kind, value, tb = response.exc_info
    where = traceback.extract_tb(tb)[-1]
    words = traceback.format_exception_only(kind, value)[-1].strip()
    return f"{words} (at {where.filename}:{where.lineno} in {where.name})"


@pytest.mark.django_db
@pytest.mark.parametrize("role", ROLES)
def test_no_url_answers_a_server_error(world, role):
    """GET every URL as `role`: no 5xx (all of them reported at once)."""
    client = Client(raise_request_exception=False)
    user = world.users[role]
    if user is not None:
        client.force_login(user)
    failures = []
    for name, url in world.urls:
        with transaction.atomic():
            response = client.get(url)
            if response.streaming:  # read to its end (the client then closes it)
                b"".join(response.streaming_content)
            transaction.set_rollback(True)
        if response.status_code >= 500:
            failures.append(
                f"{role} GET {url} ({name}) -> {response.status_code}: "
                f"{_what_went_wrong(response)}"
            )
        if user is not None and response.wsgi_request.user != user:
            failures.append(f"{role} GET {url} ({name}) signed the user out")
            client.force_login(user)
    assert failures == [], f"{len(failures)} server errors:\n" + "\n".join(failures)
