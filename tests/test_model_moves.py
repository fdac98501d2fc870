"""Models that moved app in issue 30's split keep their rows and every issued
document's link and hash: a database built by the migrations before the move
(main at fd6a9f9) is migrated forward (kernel.model_moves)."""

import datetime as dt

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from documents.models import IssuedDocument
from kernel.models import CaseEvent

# The last migrations before each move, and the app that took the models.
BEFORE_REPORTING = [("cases", "0036_portal_request_machines"), ("reporting", None)]
BEFORE_PORTAL = [("cases", "0037_annual_report_moves_to_reporting"), ("portal", None)]
BEFORE_KERNEL = [("cases", "0038_respondent_page_moves_to_portal"), ("kernel", None)]
BEFORE_DOCUMENTS = [("cases", "0039_kernel_models_move_to_kernel"), ("documents", None)]
BEFORE_OUTBOX = [("cases", "0040_issued_documents_move_to_documents"), ("outbox", None)]
BEFORE_DEADLINES = [("cases", "0041_outbox_moves_to_outbox"), ("deadlines", None)]
BEFORE_INTAKE = [("cases", "0042_deadlines_move_to_deadlines"), ("intake", None)]
SHA = "5d41402abc4b2a76b9719d911017c592" * 2


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state([t for t in targets if t[1] is not None]).apps


def _latest():
    executor = MigrationExecutor(connection)
    return executor.loader.graph.leaf_nodes()


def _issued(apps, *, content_type, object_id, user, kind, **more):
    Document = apps.get_model("cases", "IssuedDocument")
    return Document.objects.create(
        kind=kind,
        content_type=content_type,
        object_id=object_id,
        title="Annual MS4 report 2025–26",
        facts={"year": 2025},
        citations=[],
        html="<p>frozen</p>",
        pdf="documents/annual-2025.pdf",
        size=1234,
        sha256=SHA,
        template_name="documents/annual_report.html",
        template_version="1",
        issued_by=user,
        issued_at=timezone.now(),
        status="issued",
        **more,
    )


@pytest.mark.django_db(transaction=True)
def test_the_annual_report_moves_to_reporting_with_its_rows_and_documents():
    try:
        old = _migrate(BEFORE_REPORTING)
        User = old.get_model("auth", "User")
        ContentType = old.get_model("contenttypes", "ContentType")
        Report = old.get_model("cases", "AnnualReport")
        Comment = old.get_model("cases", "AnnualReportComment")
        smo = User.objects.create(username="smo-before-the-split")
        report = Report.objects.create(
            year=2025,
            as_of=timezone.now(),
            counts={"reports": 12},
            status="final",
            created_by=smo,
        )
        Comment.objects.create(
            report=report, received_on=dt.date(2026, 4, 1), text="Thank you."
        )
        kind = ContentType.objects.get_or_create(
            app_label="cases", model="annualreport"
        )[0]
        document = _issued(
            old, content_type=kind, object_id=report.pk, user=smo, kind="annual_report"
        )

        _migrate(_latest())

        from reporting.models import AnnualReport, AnnualReportComment

        moved = AnnualReport.objects.get(pk=report.pk)
        assert (moved.year, moved.status, moved.counts) == (
            2025,
            "final",
            {"reports": 12},
        )
        assert [c.text for c in AnnualReportComment.objects.filter(report=moved)] == [
            "Thank you."
        ]
        after = IssuedDocument.objects.get(pk=document.pk)
        assert after.sha256 == SHA and after.pdf.name == "documents/annual-2025.pdf"
        assert after.source == moved  # the link follows the renamed content type
        assert after.content_type.app_label == "reporting"
    finally:
        _migrate(_latest())


@pytest.mark.django_db(transaction=True)
def test_the_respondents_page_moves_to_portal_with_its_codes_and_requests():
    try:
        old = _migrate(BEFORE_PORTAL)
        User = old.get_model("auth", "User")
        ContentType = old.get_model("contenttypes", "ContentType")
        Party = old.get_model("cases", "Party")
        Case = old.get_model("cases", "Case")
        Event = old.get_model("cases", "CaseEvent")
        Access = old.get_model("cases", "PortalAccess")
        Change = old.get_model("cases", "ContactChangeRequest")
        smo = User.objects.create(username="smo-before-the-split")
        pat = Party.objects.create(name="Pat Owner")
        case = Case.objects.create(
            number="MS4-2026-0042",
            source="web",
            summary="Pool water",
            responsible_party=pat,
        )
        access = Access.objects.create(
            case=case, party=pat, code="K7QMP2XR9WTB", issued_by=smo
        )
        change = Change.objects.create(access=access, email="pat@example.org")
        kind = ContentType.objects.get_or_create(
            app_label="cases", model="portalaccess"
        )[0]
        event = Event.objects.create(
            case=case,
            kind="portal",
            summary="Pat Owner opened the respondent's page",
            content_type=kind,
            object_id=access.pk,
            actor_kind="respondent",
        )

        _migrate(_latest())

        from portal.models import ContactChangeRequest, PortalAccess

        moved = PortalAccess.objects.get(pk=access.pk)
        assert (moved.code, moved.case.number, moved.party.name) == (
            "K7QMP2XR9WTB",
            "MS4-2026-0042",
            "Pat Owner",
        )
        assert ContactChangeRequest.objects.get(pk=change.pk).access == moved
        assert CaseEvent.objects.get(pk=event.pk).subject == moved
    finally:
        _migrate(_latest())


@pytest.mark.django_db(transaction=True)
def test_the_chronology_delegations_and_citations_move_to_the_kernel():
    """An entry written under a delegation before the move keeps its case, its
    delegation and its subject; the SMO's group keeps its permissions on the
    delegations (their content type is renamed, not made anew)."""
    try:
        old = _migrate(BEFORE_KERNEL)
        User = old.get_model("auth", "User")
        Group = old.get_model("auth", "Group")
        Permission = old.get_model("auth", "Permission")
        ContentType = old.get_model("contenttypes", "ContentType")
        Case = old.get_model("cases", "Case")
        Note = old.get_model("cases", "Note")
        Event = old.get_model("cases", "CaseEvent")
        Delegation = old.get_model("cases", "Delegation")
        Citation = old.get_model("cases", "Citation")
        smo = User.objects.create(username="smo-before-the-split")
        deputy = User.objects.create(username="deputy-before-the-split")
        delegation = Delegation.objects.create(
            delegate=deputy,
            powers="Inspections",
            starts_on=dt.date(2026, 1, 5),
            instrument="Letter of January 2, 2026",
            granted_by=smo,
        )
        delegations = ContentType.objects.get_or_create(
            app_label="cases", model="delegation"
        )[0]
        change, _ = Permission.objects.get_or_create(
            content_type=delegations,
            codename="change_delegation",
            defaults={"name": "Can change delegation"},
        )
        group, _ = Group.objects.get_or_create(name="SMO staff")
        group.permissions.add(change)
        case = Case.objects.create(
            number="MS4-2026-0043", source="web", summary="Suds at the outfall"
        )
        note = Note.objects.create(case=case, text="Seen from the road.", author=deputy)
        notes = ContentType.objects.get_or_create(app_label="cases", model="note")[0]
        event = Event.objects.create(
            case=case,
            kind="note",
            summary="Note added",
            actor=deputy,
            actor_kind="staff",
            delegation=delegation,
            content_type=notes,
            object_id=note.pk,
        )
        citations = Citation.objects.count()

        _migrate(_latest())

        from django.contrib.auth.models import Group as GroupNow

        from kernel.models import Citation as CitationNow
        from kernel.models import Delegation as DelegationNow

        entry = CaseEvent.objects.get(pk=event.pk)
        assert entry.case.number == "MS4-2026-0043"
        assert entry.delegation == DelegationNow.objects.get(pk=delegation.pk)
        assert entry.subject.text == "Seen from the road."
        assert CitationNow.objects.count() == citations
        assert (
            GroupNow.objects.get(name="SMO staff")
            .permissions.filter(
                content_type__app_label="kernel", codename="change_delegation"
            )
            .exists()
        )
    finally:
        _migrate(_latest())


@pytest.mark.django_db(transaction=True)
def test_the_issued_documents_move_to_documents_with_their_hashes_and_links():
    """A document issued before the move keeps its file, its hash, its case and
    its source; the chronology entry whose subject it is still finds it."""
    try:
        old = _migrate(BEFORE_DOCUMENTS)
        User = old.get_model("auth", "User")
        ContentType = old.get_model("contenttypes", "ContentType")
        Case = old.get_model("cases", "Case")
        Event = old.get_model("kernel", "CaseEvent")
        smo = User.objects.create(username="smo-before-the-split")
        case = Case.objects.create(
            number="MS4-2026-0044", source="web", summary="Paint in the drain"
        )
        cases = ContentType.objects.get_or_create(app_label="cases", model="case")[0]
        document = _issued(
            old, content_type=cases, object_id=case.pk, user=smo, kind="nov", case=case
        )
        documents = ContentType.objects.get_or_create(
            app_label="cases", model="issueddocument"
        )[0]
        event = Event.objects.create(
            case=case,
            kind="document",
            summary="Notice of violation issued",
            actor=smo,
            actor_kind="staff",
            content_type=documents,
            object_id=document.pk,
        )

        _migrate(_latest())

        from cases.models import Case as CaseNow

        after = IssuedDocument.objects.get(pk=document.pk)
        assert after.sha256 == SHA and after.pdf.name == "documents/annual-2025.pdf"
        assert after.case == CaseNow.objects.get(number="MS4-2026-0044")
        assert after.source == after.case
        assert CaseEvent.objects.get(pk=event.pk).subject == after
        assert after._meta.app_label == "documents"
    finally:
        _migrate(_latest())


@pytest.mark.django_db(transaction=True)
def test_the_outbox_moves_with_its_rows_their_sources_and_its_permissions():
    """A message waiting before the move is still waiting after it, with its
    case, its source and its attempts; one sent stays sent (never sent again);
    the SMO's group keeps its permission to see the outbox."""
    try:
        old = _migrate(BEFORE_OUTBOX)
        User = old.get_model("auth", "User")
        Group = old.get_model("auth", "Group")
        Permission = old.get_model("auth", "Permission")
        ContentType = old.get_model("contenttypes", "ContentType")
        Case = old.get_model("cases", "Case")
        Report = old.get_model("cases", "Report")
        Message = old.get_model("cases", "OutgoingMessage")
        case = Case.objects.create(
            number="MS4-2026-0045", source="web", summary="Oil sheen"
        )
        report = Report.objects.create(
            tracking_code="RPT-MOVE-0001",
            channel="web",
            description="Oil sheen at the outfall",
            address="Birchwood Avenue",
        )
        reports = ContentType.objects.get_or_create(app_label="cases", model="report")[
            0
        ]
        waiting = Message.objects.create(
            kind="receipt",
            recipient="pat@example.org",
            subject="[Poquott] Your report",
            body="Thank you.",
            cause="Report received",
            content_type=reports,
            object_id=report.pk,
            attempts=2,
            last_error="SMTPServerDisconnected: gone",
        )
        sent = Message.objects.create(
            kind="status_change",
            recipient="pat@example.org",
            subject="[Poquott] Update",
            cause="Status changed",
            case=case,
            content_type=reports,
            object_id=report.pk,
            status="sent",
            sent_at=timezone.now(),
        )
        messages = ContentType.objects.get_or_create(
            app_label="cases", model="outgoingmessage"
        )[0]
        view, _ = Permission.objects.get_or_create(
            content_type=messages,
            codename="view_outgoingmessage",
            defaults={"name": "Can view outgoing message"},
        )
        Group.objects.get_or_create(name="SMO staff")[0].permissions.add(view)
        User.objects.create(username="smo-before-the-split")

        _migrate(_latest())

        from django.contrib.auth.models import Group as GroupNow

        from intake.models import Report as ReportNow
        from outbox.models import OutgoingMessage

        after = OutgoingMessage.objects.get(pk=waiting.pk)
        assert (after.status, after.attempts, after.last_error) == (
            "pending",
            2,
            "SMTPServerDisconnected: gone",
        )
        assert after.source == ReportNow.objects.get(pk=report.pk)
        assert OutgoingMessage.objects.get(pk=sent.pk).is_sent
        assert OutgoingMessage.objects.get(pk=sent.pk).case.number == "MS4-2026-0045"
        assert (
            GroupNow.objects.get(name="SMO staff")
            .permissions.filter(
                content_type__app_label="outbox", codename="view_outgoingmessage"
            )
            .exists()
        )
    finally:
        _migrate(_latest())


@pytest.mark.django_db(transaction=True)
def test_the_deadlines_move_with_their_reminders_closures_and_feed_tokens():
    """A deadline open before the move is still open after it, due the same day,
    on its case and its source; its reminder, the office's closures and a staff
    member's calendar link stay; the chronology entry about it still finds it."""
    try:
        old = _migrate(BEFORE_DEADLINES)
        User = old.get_model("auth", "User")
        ContentType = old.get_model("contenttypes", "ContentType")
        Case = old.get_model("cases", "Case")
        Event = old.get_model("kernel", "CaseEvent")
        Deadline = old.get_model("cases", "Deadline")
        Reminder = old.get_model("cases", "Reminder")
        Closure = old.get_model("cases", "OfficeClosure")
        Token = old.get_model("cases", "CalendarFeedToken")
        smo = User.objects.create(username="smo-before-the-split")
        case = Case.objects.create(
            number="MS4-2026-0046", source="web", summary="Wash water"
        )
        cases = ContentType.objects.get_or_create(app_label="cases", model="case")[0]
        deadline = Deadline.objects.create(
            case=case,
            rule_id="R-SPL-4",
            label="Written confirmation of the spill",
            counts_from="the telephone notice",
            event_date=dt.date(2026, 12, 4),
            due_date=dt.date(2026, 12, 9),
            explanation="3 business days",
            method="business_days",
            responsible="discharger",
            content_type=cases,
            object_id=case.pk,
        )
        reminder = Reminder.objects.create(
            deadline=deadline, kind="due-today", recipient="smo@poquott.example"
        )
        Closure.objects.create(day=dt.date(2026, 12, 24), reason="Christmas Eve")
        Token.objects.create(user=smo, token="t" * 43)
        deadlines = ContentType.objects.get_or_create(
            app_label="cases", model="deadline"
        )[0]
        event = Event.objects.create(
            case=case,
            kind="deadline",
            summary="Deadline opened",
            actor=smo,
            actor_kind="staff",
            content_type=deadlines,
            object_id=deadline.pk,
        )

        _migrate(_latest())

        from cases.models import Case as CaseNow
        from deadlines.models import CalendarFeedToken, Deadline, OfficeClosure

        after = Deadline.objects.get(pk=deadline.pk)
        assert (after.status, after.due_date, after.rule_id) == (
            "open",
            dt.date(2026, 12, 9),
            "R-SPL-4",
        )
        assert after.case == CaseNow.objects.get(number="MS4-2026-0046")
        assert after.source == after.case
        assert [r.pk for r in after.reminders.all()] == [reminder.pk]
        assert CaseEvent.objects.get(pk=event.pk).subject == after
        assert OfficeClosure.objects.get(day=dt.date(2026, 12, 24)).reason == (
            "Christmas Eve"
        )
        assert CalendarFeedToken.objects.get(token="t" * 43).user.username == (
            "smo-before-the-split"
        )
    finally:
        _migrate(_latest())


@pytest.mark.django_db(transaction=True)
def test_intake_moves_with_its_reports_photos_keys_and_categories():
    """A report filed before the move keeps its tracking code, its categories,
    its photo's hash, its Open311 client and its case; the case keeps its
    categories and exempt category; the chronology entry about the report still
    finds it; a reporter already told of a status is not told again; the SMO's
    group keeps its permission on reports."""
    try:
        old = _migrate(BEFORE_INTAKE)
        User = old.get_model("auth", "User")
        Group = old.get_model("auth", "Group")
        Permission = old.get_model("auth", "Permission")
        ContentType = old.get_model("contenttypes", "ContentType")
        Case = old.get_model("cases", "Case")
        Event = old.get_model("kernel", "CaseEvent")
        Report = old.get_model("cases", "Report")
        Photo = old.get_model("cases", "ReportPhoto")
        Key = old.get_model("cases", "ApiKey")
        Notification = old.get_model("cases", "ReportNotification")
        Category = old.get_model("cases", "PollutantCategory")
        Exempt = old.get_model("cases", "ExemptCategory")
        smo = User.objects.create(username="smo-before-the-split")
        oil = Category.objects.get_or_create(
            code="oil-before-the-split",
            defaults={"name": "Oil", "plain_name": "Oil or fuel"},
        )[0]
        lawn = Exempt.objects.get_or_create(
            code="lawn-before-the-split",
            defaults={"name": "Lawn watering", "plain_description": "Lawn water"},
        )[0]
        case = Case.objects.create(
            number="MS4-2026-0047",
            source="open311",
            summary="Oil sheen",
            status="exempt",
            exempt_category=lawn,
        )
        case.pollutant_categories.add(oil)
        key = Key.objects.create(
            client_name="County 311", key_hash="a" * 64, key_prefix="abcd"
        )
        report = Report.objects.create(
            tracking_code="PQ-MOVE-2345",
            channel="open311",
            description="Oil sheen at the outfall",
            address="Birchwood Avenue",
            api_client=key,
            case=case,
            wants_updates=True,
            reporter_email="pat@example.org",
        )
        report.pollutant_categories.add(oil)
        photo = Photo.objects.create(
            report=report,
            original="private/report-originals/a.jpg",
            original_sha256=SHA,
            original_name="IMG_1.jpg",
            display="private/report-display/a.jpg",
            width=640,
            height=480,
        )
        Notification.objects.create(report=report, status="not_a_violation")
        reports = ContentType.objects.get_or_create(app_label="cases", model="report")[
            0
        ]
        event = Event.objects.create(
            case=case,
            kind="report",
            summary="Report PQ-MOVE-2345 attached",
            actor=smo,
            actor_kind="staff",
            content_type=reports,
            object_id=report.pk,
        )
        view, _ = Permission.objects.get_or_create(
            content_type=reports,
            codename="view_report",
            defaults={"name": "Can view report"},
        )
        Group.objects.get_or_create(name="SMO staff")[0].permissions.add(view)

        _migrate(_latest())

        from django.contrib.auth.models import Group as GroupNow

        from cases.models import Case as CaseNow
        from intake.models import Report as ReportNow
        from intake.services import notify_reporters_of_status_change

        after = ReportNow.objects.get(tracking_code="PQ-MOVE-2345")
        assert after.pk == report.pk
        assert after.case == CaseNow.objects.get(number="MS4-2026-0047")
        assert after.api_client.client_name == "County 311"
        assert [c.code for c in after.pollutant_categories.all()] == [
            "oil-before-the-split"
        ]
        assert after.photos.get().original_sha256 == SHA
        assert after.photos.get().pk == photo.pk
        assert after.case.exempt_category.code == "lawn-before-the-split"
        assert [c.code for c in after.case.pollutant_categories.all()] == [
            "oil-before-the-split"
        ]
        assert CaseEvent.objects.get(pk=event.pk).subject == after
        # Told "closed: not a violation" before the move: not told again.
        assert notify_reporters_of_status_change(after.case) == 0
        assert (
            GroupNow.objects.get(name="SMO staff")
            .permissions.filter(
                content_type__app_label="intake", codename="view_report"
            )
            .exists()
        )
    finally:
        _migrate(_latest())
