"""The hearing packet: one PDF assembled with pypdf from the frozen documents
and WeasyPrint pages, bookmarked, each page footed "page x of N"."""

import datetime as dt
import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from pypdf import PdfReader

from documents.selectors import latest_document
from documents.services import document_render, issue_for
from enforcement.document_kinds import EnforcementDocument
from enforcement.models import Appeal, AppealStatus
from enforcement.packet import hearing_packet, packet_parts
from enforcement.services import appeals as appeal_services
from jobs import services
from tests.jobs.worker import job_of, made_by_worker

from .conftest import village_day


@pytest.fixture(autouse=True)
def private_media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture
def ready_appeal(scheduled_appeal, clerk_user):
    with village_day(dt.date(2026, 3, 11)):
        notice = issue_for(
            kind=EnforcementDocument.HEARING_NOTICE,
            source=scheduled_appeal,
            actor=clerk_user,
        )
    document_render(document_id=notice.pk)
    # The notice of violation's document, issued with the notice, rendered.
    nov = latest_document(
        scheduled_appeal.notice, EnforcementDocument.NOTICE_OF_VIOLATION
    )
    document_render(document_id=nov.pk)
    appeal_services.appeal_add_document(
        appeal=scheduled_appeal,
        actor=clerk_user,
        upload=SimpleUploadedFile(
            "survey.pdf", notice_pdf(notice), content_type="application/pdf"
        ),
    )
    appeal_services.appeal_add_document(
        appeal=scheduled_appeal,
        actor=clerk_user,
        upload=SimpleUploadedFile("note.txt", b"not a pdf", content_type="text/plain"),
    )
    scheduled_appeal.refresh_from_db()
    return scheduled_appeal


def notice_pdf(document):
    document.refresh_from_db()
    with document.pdf.open("rb") as handle:
        return handle.read()


def test_the_packet_is_the_sum_of_its_parts_footed_page_x_of_n(ready_appeal):
    parts = packet_parts(ready_appeal)
    titles = [p.title for p in parts]
    assert titles[0] == f"Notice of violation NOV-{ready_appeal.notice_id}"
    assert "Attachment: survey.pdf" in titles
    assert "Attachment: note.txt" not in titles
    assert "Notice of hearing" in titles
    assert titles[-1] == "Chronology and deadlines"
    pdf, index = hearing_packet(ready_appeal)
    reader = PdfReader(io.BytesIO(pdf))
    total = len(reader.pages)
    assert total == sum(p.pages for p in parts)
    assert [t for t, _, _ in index] == titles
    assert [o.title for o in reader.outline] == titles
    text = "\n".join(page.extract_text() for page in reader.pages)
    assert f"NOV-{ready_appeal.notice_id}" in text
    case = ready_appeal.notice.case.number
    assert f"case {case} · page 1 of {total}" in text
    assert f"page {total} of {total}" in text


def test_the_packet_is_bound_by_the_worker_for_the_clerk(ready_appeal, client_as):
    url = reverse("enforcement:appeal_packet", args=[ready_appeal.pk])
    assert client_as("attorney").get(url).status_code == 403
    clerk = client_as("clerk")
    page = clerk.get(ready_appeal.get_absolute_url()).content.decode()
    assert url in page
    job = job_of(clerk.get(url))
    assert job.title == (
        f"Hearing packet, appeal {ready_appeal.pk}, case "
        f"{ready_appeal.notice.case.number}"
    )
    assert "Waiting for the worker to start." in clerk.get(url, follow=True).text
    assert job_of(clerk.get(url)) == job  # asked twice while it waits: one job
    response = made_by_worker(clerk, url)
    assert response["Content-Type"] == "application/pdf"
    filename = f"{ready_appeal.notice.case.number}-appeal-{ready_appeal.pk}-packet.pdf"
    assert filename in response["Content-Disposition"]
    reader = PdfReader(io.BytesIO(response.content))
    assert [o.title for o in reader.outline] == [
        part.title for part in packet_parts(ready_appeal)
    ]
    done = clerk.get(reverse("jobs:detail", args=[job.pk])).text
    parts = len(packet_parts(ready_appeal))
    assert f"Ready: {parts} parts." in done


def test_the_packet_job_reports_each_part_bound(ready_appeal, clerk_user):
    seen = []
    hearing_packet(ready_appeal, lambda done, total: seen.append((done, total)))
    parts = len(packet_parts(ready_appeal))
    assert seen == [(n, parts) for n in range(parts + 1)]


def test_a_packet_asked_for_then_withdrawn_is_not_made(ready_appeal, client_as):
    clerk = client_as("clerk")
    job = job_of(
        clerk.get(reverse("enforcement:appeal_packet", args=[ready_appeal.pk]))
    )
    Appeal.objects.filter(pk=ready_appeal.pk).update(status=AppealStatus.WITHDRAWN)
    assert not services.job_run(job.pk)
    page = clerk.get(reverse("jobs:detail", args=[job.pk])).text
    assert (
        "The appeal has no hearing scheduled any more, so no packet was made." in page
    )


def test_a_clerk_whose_role_was_taken_away_cannot_download_the_packet(
    ready_appeal, client_as, clerk_user
):
    clerk = client_as("clerk")
    job = job_of(
        clerk.get(reverse("enforcement:appeal_packet", args=[ready_appeal.pk]))
    )
    assert services.job_run(job.pk)
    clerk_user.groups.clear()
    response = clerk.get(reverse("jobs:download", args=[job.pk]))
    assert response.status_code == 403


def test_no_packet_before_the_hearing_is_scheduled(appeal, client_as):
    url = reverse("enforcement:appeal_packet", args=[appeal.pk])
    assert client_as("clerk").get(url).status_code == 404
