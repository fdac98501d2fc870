"""Issuing: the frozen row, the task, corrections, and the freeze itself (model
guards and, on PostgreSQL, the trigger)."""

import dataclasses
import datetime as dt
import hashlib
import time

import pytest
from django.core.exceptions import PermissionDenied
from django.db import DatabaseError, connection, transaction
from django.utils.html import escape

from deadlines.services import open_deadline, open_deadline_for
from documents import services
from documents.contracts import FactsInvalid, facts_from_json
from documents.models import DocumentFrozenError, IssuedDocument
from documents.samples import sample_facts
from documents.tasks import render_document
from enforcement.document_kinds import EnforcementDocument
from enforcement.documents.notice import sample_notice_of_violation
from inspections.document_kinds import InspectionDocument
from kernel.models import CaseEvent

from .conftest import pdf_text

pytestmark = pytest.mark.django_db

NOV = EnforcementDocument.NOTICE_OF_VIOLATION


def nov_facts(case, **changes):
    return sample_notice_of_violation(case_number=case.number, **changes)


def issue(case, actor, facts=None, **kwargs):
    with transaction.atomic():
        return services.document_issue(
            kind=kwargs.pop("kind", NOV),
            facts=facts or nov_facts(case),
            case=case,
            source=kwargs.pop("source", case),
            actor=actor,
            **kwargs,
        )


@pytest.fixture
def issued(case, smo_user, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks() as callbacks:
        document = issue(case, smo_user)
    assert len(callbacks) == 1
    render_document(document.pk)
    document.refresh_from_db()
    return document


def document_events(case):
    return list(CaseEvent.objects.filter(case=case, kind="document").order_by("id"))


# --- issue and render ----------------------------------------------------------


def test_issue_freezes_facts_citations_and_html_then_enqueues_the_render(
    case, smo_user, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks() as callbacks:
        document = issue(case, smo_user)
    assert len(callbacks) == 1
    assert document.status == IssuedDocument.Status.RENDERING
    assert document.version == 1 and document.supersedes is None
    assert document.issued_by == smo_user and document.issued_at is None
    assert facts_from_json(NOV, document.facts) == nov_facts(case)
    assert set(document.citations) >= {"R-NOV-1", "R-NOV-2", "R-PEN-1", "R-APL-1"}
    assert "Tuesday, March 17, 2026" in document.html
    assert document.template_name == "documents/notice_of_violation.html"
    assert len(document.template_version) == 16
    assert document.pdfa and document.pdf_variant == "pdf/a-3a"
    assert document.source == case
    assert document_events(case) == []  # the timeline says "issued" once it is


def test_render_task_stores_the_pdf_its_hash_and_writes_the_timeline(
    issued, case, smo_user
):
    assert issued.status == IssuedDocument.Status.ISSUED
    assert issued.issued_at is not None
    data = issued.pdf.read()
    assert hashlib.sha256(data).hexdigest() == issued.sha256
    assert issued.size == len(data)
    assert issued.pdf.name.startswith("private/documents/")
    assert "Tuesday, March 17, 2026" in pdf_text(data)
    [event] = document_events(case)
    assert event.subject == issued and event.actor == smo_user
    assert event.rule_id == "R-NOV-1"
    assert issued.sha256 in event.detail
    assert "Notice of violation NOV-2026-0001 (version 1)" in event.summary


def test_render_task_run_twice_renders_once_and_keeps_the_same_bytes(
    issued, case, monkeypatch
):
    calls = []
    real = services.render_pdf
    monkeypatch.setattr(
        services, "render_pdf", lambda *a, **k: calls.append(1) or real(*a, **k)
    )
    name, sha = issued.pdf.name, issued.sha256
    render_document(issued.pk)
    render_document(issued.pk)
    issued.refresh_from_db()
    assert calls == []
    assert (issued.pdf.name, issued.sha256) == (name, sha)
    assert hashlib.sha256(issued.pdf.read()).hexdigest() == sha
    assert len(document_events(case)) == 1


def test_the_last_day_to_appeal_comes_from_the_stored_deadline(case, smo_user):
    with transaction.atomic():
        deadline = open_deadline(
            rule_id="R-APL-1",
            event_date=dt.date(2026, 3, 2),
            source=case,
            case=case,
            actor=smo_user,
        )
    stored = open_deadline_for(case, "R-APL-1")
    assert stored == deadline
    last_day, explanation = stored.due_date, stored.explanation
    facts = nov_facts(
        case, last_day_to_appeal=last_day, appeal_deadline_explanation=explanation
    )
    document = issue(case, smo_user, facts)
    assert f"{last_day:%A, %B} {last_day.day}, {last_day.year}" in document.html
    assert escape(deadline.explanation) in document.html


def test_a_failed_render_is_recorded_and_can_be_retried(
    case, smo_user, monkeypatch, django_capture_on_commit_callbacks
):
    document = issue(case, smo_user)

    def broken(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(services, "render_pdf", broken)
    render_document(document.pk)
    document.refresh_from_db()
    assert document.status == IssuedDocument.Status.FAILED
    assert "disk full" in document.error
    assert "Rendering failed" in document_events(case)[-1].summary
    monkeypatch.undo()
    with django_capture_on_commit_callbacks() as callbacks:
        services.document_retry(document=document, actor=smo_user)
    assert len(callbacks) == 1
    render_document(document.pk)
    document.refresh_from_db()
    assert document.status == IssuedDocument.Status.ISSUED


def test_retry_of_an_issued_document_is_refused(issued, smo_user):
    with pytest.raises(services.DocumentError, match="failed"):
        services.document_retry(document=issued, actor=smo_user)


# --- refusals ------------------------------------------------------------------


def test_issue_refuses_invalid_facts_and_stores_nothing(case, smo_user):
    with pytest.raises(FactsInvalid, match="last day to appeal"):
        issue(case, smo_user, nov_facts(case, last_day_to_appeal=None))
    with pytest.raises(FactsInvalid, match="remediation deadline"):
        issue(case, smo_user, nov_facts(case, remediation_deadline=None))
    assert not IssuedDocument.objects.exists()


def test_issue_refuses_facts_of_another_case(case, smo_user):
    with pytest.raises(FactsInvalid, match="not " + case.number):
        issue(case, smo_user, sample_notice_of_violation(case_number="MS4-1999-0001"))


@pytest.mark.parametrize("role", ["clerk_user", "attorney_user", "no_role_user"])
def test_only_the_smo_issues_a_notice_of_violation(case, role, request):
    with pytest.raises(PermissionDenied):
        issue(case, request.getfixturevalue(role))


def test_the_clerk_issues_the_boards_appeal_decision(case, clerk_user):
    facts = dataclasses.replace(
        sample_facts(EnforcementDocument.APPEAL_DECISION), case_number=case.number
    )
    document = issue(case, clerk_user, facts, kind=EnforcementDocument.APPEAL_DECISION)
    assert document.issued_by == clerk_user


def test_a_second_issue_of_the_same_document_must_be_a_correction(
    issued, case, smo_user
):
    with pytest.raises(services.DocumentError, match="correction"):
        issue(case, smo_user)


# --- corrections ---------------------------------------------------------------


def test_a_correction_is_a_new_version_and_both_stay_on_the_timeline(
    issued, case, smo_user, django_capture_on_commit_callbacks
):
    corrected = nov_facts(case, finding="Corrected finding: laundry drain.")
    with django_capture_on_commit_callbacks():
        v2 = issue(case, smo_user, corrected, supersedes=issued)
    render_document(v2.pk)
    v2.refresh_from_db()
    issued.refresh_from_db()
    assert (v2.version, v2.supersedes, v2.status) == (2, issued, "issued")
    assert issued.is_superseded and issued.superseded_by == v2
    assert issued.status == "issued" and issued.sha256 != v2.sha256
    assert "Corrected finding" in pdf_text(v2.pdf.read())
    assert "Corrected finding" not in pdf_text(issued.pdf.read())
    summaries = [e.summary for e in document_events(case)]
    assert len(summaries) == 2
    assert "correcting version 1" in summaries[1]


def test_a_superseded_version_cannot_be_corrected_again(issued, case, smo_user):
    v2 = issue(case, smo_user, supersedes=issued)
    render_document(v2.pk)
    with pytest.raises(services.DocumentError, match="already been superseded"):
        issue(case, smo_user, supersedes=issued)


def test_a_document_still_rendering_cannot_be_corrected(case, smo_user):
    first = issue(case, smo_user)
    with pytest.raises(services.DocumentError, match="Only an issued"):
        issue(case, smo_user, supersedes=first)


def test_a_correction_must_document_the_same_record(issued, case, smo_user):
    other = issue(
        case,
        smo_user,
        dataclasses.replace(
            sample_facts(InspectionDocument.INSPECTION_REPORT), case_number=case.number
        ),
        kind=InspectionDocument.INSPECTION_REPORT,
    )
    with pytest.raises(services.DocumentError, match="same kind"):
        issue(
            case,
            smo_user,
            dataclasses.replace(
                sample_facts(InspectionDocument.INSPECTION_REPORT),
                case_number=case.number,
            ),
            kind=InspectionDocument.INSPECTION_REPORT,
            supersedes=issued,
        )
    assert other.version == 1


# --- the freeze ----------------------------------------------------------------


def test_an_issued_document_cannot_be_changed_or_deleted_through_the_model(issued):
    issued.html = "<p>changed</p>"
    with pytest.raises(DocumentFrozenError):
        issued.save()
    with pytest.raises(DocumentFrozenError):
        issued.delete()
    with pytest.raises(DocumentFrozenError):
        IssuedDocument.objects.filter(pk=issued.pk).update(sha256="0" * 64)
    with pytest.raises(DocumentFrozenError):
        IssuedDocument.objects.filter(pk=issued.pk).delete()
    issued.refresh_from_db()
    assert issued.html != "<p>changed</p>"


@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="the trigger is PostgreSQL's"
)
@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE cases_issueddocument SET sha256 = repeat('0', 64) WHERE id = %s",
        "UPDATE cases_issueddocument SET html = '<p>x</p>' WHERE id = %s",
        "DELETE FROM cases_issueddocument WHERE id = %s",
    ],
)
def test_postgresql_refuses_to_change_or_delete_an_issued_document(issued, sql):
    with (
        pytest.raises(DatabaseError, match="frozen"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute(sql, [issued.pk])
    issued.refresh_from_db()
    assert len(issued.sha256) == 64 and issued.html.startswith("<!doctype html>")


@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="the trigger is PostgreSQL's"
)
def test_postgresql_lets_a_rendering_document_be_completed(case, smo_user):
    document = issue(case, smo_user)
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE cases_issueddocument SET error = 'x' WHERE id = %s", [document.pk]
        )
    render_document(document.pk)
    document.refresh_from_db()
    assert document.status == "issued"


# --- a real worker ---------------------------------------------------------------


@pytest.mark.worker
def test_a_worker_renders_the_notice_issued_on_commit(celery_worker_on_redis):
    from cases.services import case_open
    from kernel.roles import Role
    from tests.conftest import make_user

    smo = make_user("worker-smo", Role.SMO)
    with transaction.atomic():
        case = case_open(actor=smo, source="phone", summary="Worker test")
    document = issue(case, smo, nov_facts(case))
    for _ in range(300):
        document.refresh_from_db()
        if document.status != IssuedDocument.Status.RENDERING:
            break
        time.sleep(0.1)
    assert document.status == IssuedDocument.Status.ISSUED
    assert hashlib.sha256(document.pdf.read()).hexdigest() == document.sha256


def test_a_stale_copy_cannot_overwrite_a_document_issued_meanwhile(case, smo_user):
    document = issue(case, smo_user)
    stale = IssuedDocument.objects.get(pk=document.pk)
    render_document(document.pk)
    stale.error = "late failure report"
    stale.mark_failed()
    with pytest.raises(DocumentFrozenError):
        stale.save()
    document.refresh_from_db()
    assert document.status == IssuedDocument.Status.ISSUED and document.error == ""
