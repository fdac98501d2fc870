"""The public status page and the opt-in status-change e-mails."""

import pytest
from django.core import mail
from django.urls import reverse

from cases.models import CLOSED_STATUSES, CaseStatus, Note
from cases.services import case_open, case_run_transition
from intake import public_status
from intake.models import Report, ReportNotification
from intake.selectors import normalize_tracking_code
from intake.services import (
    notify_reporters_of_status_change,
    report_submit,
)
from outbox.models import OutgoingMessage
from tests.outbox.helpers import deliver_queued

from .helpers import category, open_case_for

STATUS_CHANGE = OutgoingMessage.Kind.STATUS_CHANGE

pytestmark = pytest.mark.django_db
URL = reverse("public:status")


def make_report(**fields):
    base = {
        "description": "Grey soapy water from the pipe by Mr. Neighbour's fence.",
        "address": "12 Birchwood Avenue",
        "reporter_name": "Ann Reporter",
        "reporter_email": "ann@example.org",
        "reporter_phone": "(631) 555-0123",
        "wants_updates": True,
    }
    base.update(fields)
    return report_submit(
        channel=Report.Channel.WEB,
        fields=base,
        pollutant_categories=[category("wash-water")],
    )


def status_page(client, code):
    return client.get(URL, {"code": code})


def test_report_in_triage_reads_received(client):
    report = make_report()
    response = status_page(client, report.tracking_code)
    assert response.status_code == 200
    html = response.content.decode()
    assert "Received" in html
    assert category("wash-water").plain_name in html
    assert "12 Birchwood Avenue" in html


def test_the_updates_times_are_valid_html_dates_in_words(client):
    """HTML's <time datetime> allows one to three fraction digits (issue 29:
    `|date:'c'` wrote six); the words are the short date people read."""
    import re

    from django.utils import timezone

    report = make_report()
    html = status_page(client, report.tracking_code).content.decode()
    stamps = re.findall(r'<time datetime="([^"]+)">([^<]+)</time>', html)
    assert stamps
    local = timezone.localtime(report.received_at)
    for machine, _words in stamps:
        assert re.fullmatch(
            r"\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2}(\.\d{1,3})?([+-]\d{2}:\d{2}|Z))?",
            machine,
        ), machine
    assert f"{local:%b} {local.day}, {local.year}" in [w for _m, w in stamps]


def test_code_is_found_however_it_is_typed(client):
    report = make_report()
    sloppy = report.tracking_code.lower().replace("-", " ")
    assert status_page(client, sloppy).status_code == 200
    assert normalize_tracking_code("pq7k3m9xtr") == "PQ-7K3M-9XTR"
    assert normalize_tracking_code("abc") == ""


@pytest.mark.parametrize("code", ["PQ-AAAA-BBBB", "garbage", "x" * 300, "' OR 1=1 --"])
def test_unknown_code_gets_the_same_friendly_not_found(client, code):
    response = status_page(client, code)
    assert response.status_code == 404
    html = response.content.decode()
    assert "could not find a report with that code" in html
    assert 'id="status-result"' not in html


def test_empty_lookup_shows_just_the_form(client):
    response = client.get(URL)
    assert response.status_code == 200
    assert "could not find" not in response.content.decode()


CASE_STATUS_TABLE = [
    (CaseStatus.NEW, "received", "open"),
    (CaseStatus.INVESTIGATING, "investigating", "open"),
    (CaseStatus.VIOLATION_CONFIRMED, "being_addressed", "open"),
    (CaseStatus.ENFORCEMENT, "being_addressed", "open"),
    (CaseStatus.RESOLVED, "resolved", "closed"),
    (CaseStatus.UNFOUNDED, "not_a_violation", "closed"),
    (CaseStatus.EXEMPT, "not_a_violation", "closed"),
    (CaseStatus.REFERRED, "referred", "closed"),
    (CaseStatus.DUPLICATE, "combined", "closed"),
]


@pytest.mark.parametrize(("case_status", "key", "open311"), CASE_STATUS_TABLE)
def test_every_case_status_has_a_plain_language_public_status(
    case_status, key, open311
):
    status = public_status.for_case_status(case_status)
    assert (status.key, status.open311) == (key, open311)
    assert status.label and status.explanation


def test_mapping_covers_every_case_status():
    # cases registers it (cases.public_progress); intake reads it.
    assert set(public_status.case_progress().statuses) == set(CaseStatus)


def test_open311_closes_a_report_exactly_when_its_case_is_closed():
    """What Open311 lists as "closed" is the case workflow's closed statuses."""
    assert public_status.case_progress().closed == CLOSED_STATUSES


def test_duplicate_follows_the_case_it_was_merged_into(smo_user):
    report = make_report()
    duplicate = open_case_for(report, smo_user)
    main = case_open(actor=smo_user, source="web", summary="Main case")
    case_run_transition(case=main, transition="start_investigation", actor=smo_user)
    case_run_transition(
        case=duplicate, transition="mark_duplicate", actor=smo_user, merged_into=main
    )
    report.refresh_from_db()
    assert public_status.for_report(report).key == "investigating"


def test_status_page_never_shows_names_contacts_descriptions_or_internals(
    client, smo_user
):
    report = make_report()
    other = make_report(reporter_name="Bob Other", reporter_email="bob@example.org")
    case = open_case_for(report, smo_user)
    open_case_for_other = other  # attached to the same case: another reporter
    from cases.services import case_attach_reports

    case_attach_reports(case=case, reports=[open_case_for_other], actor=smo_user)
    Note.objects.create(
        case=case, author=smo_user, text="Spoke to owner John Q. Neighbour."
    )
    Note.objects.create(
        case=case,
        author=smo_user,
        text="We traced the pipe and asked for a fix.",
        public=True,
    )
    case_run_transition(
        case=case,
        transition="start_investigation",
        actor=smo_user,
        reason="Private reason: tip from the Smiths",
        public=False,
    )
    html = status_page(client, report.tracking_code).content.decode()
    assert "Being investigated" in html
    assert "We traced the pipe and asked for a fix." in html  # the shared note
    for secret in [
        "Ann Reporter",
        "ann@example.org",
        "555-0123",
        "Bob Other",
        "bob@example.org",
        other.tracking_code,
        case.number,
        "John Q. Neighbour",
        "Mr. Neighbour",  # the resident's description and the case summary
        "Private reason",
        smo_user.get_full_name(),  # the staff member
        "smo@poquott.example",
        "/staff/reports/photos/",
    ]:
        assert secret not in html, secret


def test_public_transition_reason_is_shown_when_staff_share_it(client, smo_user):
    report = make_report()
    case = open_case_for(report, smo_user)
    case_run_transition(
        case=case,
        transition="start_investigation",
        actor=smo_user,
        reason="An inspector will visit this week.",
        public=True,
    )
    html = status_page(client, report.tracking_code).content.decode()
    assert "An inspector will visit this week." in html


def test_status_lookups_are_rate_limited(client):
    for _ in range(60):
        status_page(client, "PQ-AAAA-BBBB")
    response = status_page(client, "PQ-AAAA-BBBB")
    assert response.status_code == 429
    assert "Too many look-ups" in response.content.decode()


# --- status-change e-mails -------------------------------------------------------
def test_opted_in_reporter_is_emailed_once_per_status(
    smo_user, django_capture_on_commit_callbacks
):
    report = make_report()
    quiet = make_report(wants_updates=False, reporter_email="quiet@example.org")
    with django_capture_on_commit_callbacks(execute=True):
        case = open_case_for(report, smo_user)
        from cases.services import case_attach_reports

        case_attach_reports(case=case, reports=[quiet], actor=smo_user)
    # A case awaiting triage is still "received": the receipt already said so.
    assert mail.outbox == []
    with django_capture_on_commit_callbacks(execute=True):
        case_run_transition(case=case, transition="start_investigation", actor=smo_user)
    assert mail.outbox == []  # queued with the transition, sent by the worker
    assert deliver_queued(STATUS_CHANGE) == 1
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["ann@example.org"]
    assert "Being investigated" in message.subject
    assert report.tracking_code in message.body
    assert case.number not in message.body
    with django_capture_on_commit_callbacks(execute=True):
        assert notify_reporters_of_status_change(case) == 0
        notify_reporters_of_status_change(case)
    assert deliver_queued(STATUS_CHANGE) == 0
    assert len(mail.outbox) == 1
    assert ReportNotification.objects.filter(report=report).count() == 1
    assert not ReportNotification.objects.filter(report=quiet).exists()


def test_a_rolled_back_status_change_sends_nothing(
    smo_user, django_capture_on_commit_callbacks
):
    from django.db import transaction

    report = make_report()
    case = open_case_for(report, smo_user)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        try:
            with transaction.atomic():
                case_run_transition(
                    case=case, transition="start_investigation", actor=smo_user
                )
                raise RuntimeError("boom")
        except RuntimeError:
            pass
    assert callbacks == [] and mail.outbox == []
    assert not ReportNotification.objects.exists()
