"""Proof of correction from the respondent's page (issue 18): photos and PDFs
through the resident form's safe-upload pipeline (checked by their bytes,
re-encoded, EXIF removed), a submission the SMO accepts or rejects with a
reason, the respondent seeing the outcome, and accepting it recording the
notice complied through the state machine (R-NOV-1)."""

import io

import pytest
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from PIL import Image

from deadlines.models import Deadline
from enforcement.models import NoticeStatus
from kernel.models import CaseEvent
from portal.models import ContactChangeRequest, CorrectionSubmission
from portal.services import portal_issue
from tests.visible import visible_text

from .conftest import enter

pytestmark = pytest.mark.django_db

ADDRESS = "198.51.100.61"
STATEMENT = "The hose to the storm drain was removed on Monday; wash water now goes to the sewer."


@pytest.fixture(autouse=True)
def _fresh_throttle():
    cache.clear()


def photo_with_exif(name="drain.jpg") -> SimpleUploadedFile:
    buffer = io.BytesIO()
    exif = Image.Exif()
    exif[0x010F] = "SecretCam"  # camera make
    Image.new("RGB", (64, 48), "green").save(buffer, format="JPEG", exif=exif)
    return SimpleUploadedFile(name, buffer.getvalue(), content_type="image/jpeg")


def pdf(name="plumber.pdf") -> SimpleUploadedFile:
    return SimpleUploadedFile(
        name, b"%PDF-1.4\n1 0 obj<<>>endobj\n%%EOF\n", content_type="application/pdf"
    )


def signed_in(code) -> Client:
    client = Client()
    enter(client, code, REMOTE_ADDR=ADDRESS)
    return client


def send_proof(client, notice, *, statement=STATEMENT, files=()):
    return client.post(
        reverse("portal:correction", args=[notice.pk]),
        {"statement": statement, "files": list(files)},
        REMOTE_ADDR=ADDRESS,
        follow=True,
    )


def test_the_respondent_sends_a_photo_which_arrives_without_its_metadata(
    owner_code, issued_notice, owner
):
    client = signed_in(owner_code)
    home = visible_text(client.get(reverse("portal:home")))
    assert "Send proof the work is done" in home

    page = send_proof(client, issued_notice, files=[photo_with_exif()])
    text = visible_text(page)
    assert "your proof is sent to the Stormwater Management Officer" in text
    assert "with 1 file: Waiting for the Stormwater Management Officer's review" in text

    submission = CorrectionSubmission.objects.get()
    assert submission.statement == STATEMENT
    assert submission.submitted_from == ADDRESS
    stored = submission.files.get()
    assert stored.is_photo and stored.original_name == "drain.jpg"
    with Image.open(stored.display.open("rb")) as shown:
        assert 0x010F not in shown.getexif()
    with Image.open(stored.original.open("rb")) as kept:
        assert kept.getexif()[0x010F] == "SecretCam"  # the evidence as sent
    event = CaseEvent.objects.filter(case=issued_notice.case, kind="portal").latest(
        "at", "id"
    )
    assert f"sent proof of correction {submission.pk} of NOV-{issued_notice.pk}" in (
        event.summary
    )
    assert ADDRESS in event.summary and event.detail == STATEMENT


def test_a_file_that_is_not_a_photo_or_pdf_keeps_the_statement_and_saves_nothing(
    owner_code, issued_notice
):
    client = signed_in(owner_code)
    events = CaseEvent.objects.count()
    fake = SimpleUploadedFile("drain.jpg", b"MZ\x90\x00 not a photo", "image/jpeg")
    response = client.post(
        reverse("portal:correction", args=[issued_notice.pk]),
        {"statement": STATEMENT, "files": [photo_with_exif("ok.jpg"), fake]},
        REMOTE_ADDR=ADDRESS,
    )
    assert response.status_code == 400
    text = visible_text(response)
    assert (
        "“drain.jpg” is neither a photo we can read (JPEG, PNG, WebP or GIF) nor a PDF."
        in text
    )
    assert STATEMENT in response.content.decode()  # the textarea keeps it
    assert not CorrectionSubmission.objects.exists()
    assert CaseEvent.objects.count() == events

    empty = client.post(
        reverse("portal:correction", args=[issued_notice.pk]),
        {"statement": "  "},
        REMOTE_ADDR=ADDRESS,
    )
    assert empty.status_code == 400
    assert "Say what was done, or attach a photo or document." in visible_text(empty)


def test_the_smo_accepts_the_proof_and_the_notice_is_recorded_complied(
    owner_code, issued_notice, smo_user
):
    client = signed_in(owner_code)
    send_proof(client, issued_notice, files=[photo_with_exif(), pdf()])
    submission = CorrectionSubmission.objects.get()

    staff = Client()
    staff.force_login(smo_user)
    dashboard = visible_text(staff.get(reverse("cases:dashboard")))
    assert "Proof of correction to review 1" in dashboard
    assert f"Review the proof: NOV-{issued_notice.pk}" in dashboard
    case_page = staff.get(reverse("cases:detail", args=[issued_notice.case.number]))
    text = visible_text(case_page)
    assert f"Proof of correction of NOV-{issued_notice.pk}" in text
    assert STATEMENT in text and "plumber.pdf (PDF)" in text
    photo, document = submission.files.all()
    shown = staff.get(
        reverse("portal_staff:correction_file", args=[photo.pk, "display"])
    )
    assert shown.status_code == 200 and shown["Content-Type"] == "image/jpeg"
    download = staff.get(
        reverse("portal_staff:correction_file", args=[document.pk, "original"])
    )
    assert download["Content-Type"] == "application/pdf"
    assert "attachment" in download["Content-Disposition"]

    page = staff.post(
        reverse(
            "portal_staff:correction_decide",
            args=[issued_notice.case.number, submission.pk, "accept"],
        ),
        {"record_compliance": "1", "complied_on": ""},
        follow=True,
    )
    assert f"notice NOV-{issued_notice.pk} is recorded complied" in visible_text(page)
    issued_notice.refresh_from_db()
    assert issued_notice.status == NoticeStatus.COMPLIED
    assert issued_notice.complied_on == timezone.localdate(submission.submitted_at)
    assert f"proof of correction {submission.pk}" in issued_notice.compliance_note
    assert not issued_notice.deadlines().filter(status=Deadline.Status.OPEN).exists()

    home = visible_text(client.get(reverse("portal:home")))
    assert "with 2 files: Accepted" in home
    assert "Send proof the work is done" not in home  # nothing more is required
    assert "Proof of correction to review 0" in visible_text(
        staff.get(reverse("cases:dashboard"))
    )


def test_a_rejection_needs_a_reason_which_the_respondent_reads(
    owner_code, issued_notice, smo_user
):
    client = signed_in(owner_code)
    send_proof(client, issued_notice)
    submission = CorrectionSubmission.objects.get()
    staff = Client()
    staff.force_login(smo_user)
    url = reverse(
        "portal_staff:correction_decide",
        args=[issued_notice.case.number, submission.pk, "reject"],
    )
    refused = visible_text(staff.post(url, {"reason": " "}, follow=True))
    assert "Say why the proof is not accepted" in refused
    submission.refresh_from_db()
    assert submission.is_pending

    staff.post(url, {"reason": "The photo shows a different drain."}, follow=True)
    home = visible_text(client.get(reverse("portal:home")))
    assert "Not accepted — The photo shows a different drain." in home
    assert "Send proof the work is done" in home  # the work is still required
    issued_notice.refresh_from_db()
    assert issued_notice.status == NoticeStatus.ISSUED
    again = staff.post(url, {"reason": "twice"}, follow=True)
    assert "was reviewed already" in visible_text(again)


def test_another_partys_code_never_reaches_the_owners_notice_or_proof(
    owner_code, issued_notice, confirmed_case, agent, smo_user, client
):
    owner_client = signed_in(owner_code)
    send_proof(owner_client, issued_notice)
    agent_code = portal_issue(case=confirmed_case, party=agent, actor=smo_user).printed
    agent_client = signed_in(agent_code)
    form = agent_client.get(reverse("portal:correction", args=[issued_notice.pk]))
    assert form.status_code == 404
    assert STATEMENT not in visible_text(agent_client.get(reverse("portal:home")))

    stored_pk = CorrectionSubmission.objects.get().pk
    assert client.get(
        reverse(
            "portal_staff:correction_decide",
            args=[confirmed_case.number, stored_pk, "accept"],
        )
    ).status_code in (302, 405)


def test_proof_files_are_for_staff_who_read_cases_only(
    owner_code, issued_notice, client_as
):
    send_proof(signed_in(owner_code), issued_notice, files=[photo_with_exif()])
    stored = CorrectionSubmission.objects.get().files.get()
    url = reverse("portal_staff:correction_file", args=[stored.pk, "display"])
    assert client_as("anonymous").get(url).status_code == 302  # to sign in
    assert client_as("no_role").get(url).status_code == 404
    assert client_as("clerk").get(url).status_code == 200
    assert client_as("smo").get(url).status_code == 200


@pytest.mark.parametrize(
    "typed, words",
    [
        ("2026-13-45", "The date complied is not a date"),
        ("2999-01-01", "The date cannot be in the future."),
    ],
)
def test_a_bad_date_complied_keeps_the_proof_waiting_and_the_notice_issued(
    owner_code, issued_notice, smo_user, typed, words
):
    send_proof(signed_in(owner_code), issued_notice)
    submission = CorrectionSubmission.objects.get()
    staff = Client()
    staff.force_login(smo_user)
    page = staff.post(
        reverse(
            "portal_staff:correction_decide",
            args=[issued_notice.case.number, submission.pk, "accept"],
        ),
        {"record_compliance": "1", "complied_on": typed},
        follow=True,
    )
    assert words in visible_text(page)
    submission.refresh_from_db()
    issued_notice.refresh_from_db()
    assert submission.is_pending and issued_notice.status == NoticeStatus.ISSUED


def test_the_dashboard_counts_every_proof_waiting_beyond_the_ten_it_lists(
    owner_code, issued_notice, smo_user
):
    from portal.selectors import QUEUE_ROWS

    client = signed_in(owner_code)
    send_proof(client, issued_notice)
    first = CorrectionSubmission.objects.get()
    for _ in range(QUEUE_ROWS):  # ten more sent from the page
        first.pk = None
        first.save()
    staff = Client()
    staff.force_login(smo_user)
    with CaptureQueriesContext(connection) as listed:
        dashboard = visible_text(staff.get(reverse("cases:dashboard")))
    waiting = QUEUE_ROWS + 1
    assert f"Proof of correction to review {waiting}" in dashboard
    assert dashboard.count(f"Review the proof: NOV-{issued_notice.pk}") == (QUEUE_ROWS)
    assert f"{issued_notice.case.number} · Pat Owner · sent" in dashboard
    # What the queue prints is read with its rows (portal.selectors.QUEUE_FIELDS):
    # no query per row, for ten proofs and a change of details.
    client.post(reverse("portal:contact"), {"phone": "631-555-0101"})
    with CaptureQueriesContext(connection) as both:
        dashboard = visible_text(staff.get(reverse("cases:dashboard")))
    assert "Confirm or decline: Pat Owner" in dashboard
    CorrectionSubmission.objects.all().delete()
    ContactChangeRequest.objects.all().delete()
    with CaptureQueriesContext(connection) as none:
        staff.get(reverse("cases:dashboard"))
    # (with none waiting, the proofs' COUNT is not asked: head_and_count)
    assert len(listed) == len(both) == len(none) + 1
