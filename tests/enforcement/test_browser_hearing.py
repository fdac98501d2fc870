"""A real browser walk of the Board's hearing as the clerk (issue 16), by
clicking what the pages offer: record a Board meeting, schedule an appeal's
hearing at it, issue the notice of hearing and record its sending, open the
agenda and the hearing packet, record the decision, file and mail it. The case,
notice and appeal before it are set up through the services; the document
worker's rendering is stood in for by `render_pending` (no Celery worker here)."""

import datetime as dt
import io
import re

import pytest
from django.utils import timezone
from pypdf import PdfReader

from cases.documents.services import document_render
from cases.models import IssuedDocument
from enforcement.models import Appeal, AppealStatus, HearingNoticeService
from enforcement.services import appeals as appeal_svc
from enforcement.services import notices as notice_svc
from tests.conftest import browser_sign_in

from .conftest import draft
from .test_browser_remedies import confirmed_case, iso, labelled, nav, take_step


def render_pending():
    """What the document worker does: render every document still rendering."""
    for pk in IssuedDocument.objects.filter(
        status=IssuedDocument.Status.RENDERING
    ).values_list("pk", flat=True):
        document_render(document_id=pk)


def documents_row(page, label):
    return page.locator("li.list-group-item").filter(
        has=page.locator("strong", has_text=label)
    )


def fetch(page, link):
    """The PDF behind a link, fetched with the browser's own session."""
    response = page.context.request.get(link.get_attribute("href"))
    assert response.ok
    assert response.headers["content-type"].startswith("application/pdf")
    return PdfReader(io.BytesIO(response.body()))


@pytest.fixture(autouse=True)
def private_media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_clerk_takes_an_appeal_from_hearing_to_mailed_decision(
    browser_page, smo_user, clerk_user
):
    today = timezone.localdate()
    case = confirmed_case(smo_user)
    notice = draft(case, smo_user, violation_date=today - dt.timedelta(days=5))
    notice = notice_svc.notice_issue(notice=notice, actor=smo_user, issued_on=today)
    appeal = appeal_svc.appeal_file(
        notice=notice,
        actor=clerk_user,
        appellant=case.responsible_party,
        filed_on=today,
        grounds="The water was rain water.",
    )
    render_pending()  # the notice of violation's PDF
    page = browser_page
    browser_sign_in(page, "clerk")

    # A Board meeting tonight (a hearing may be scheduled for today, not before).
    nav(page, "Board meetings")
    form = page.locator("form").filter(
        has=page.get_by_role("heading", name="Record a meeting")
    )
    form.get_by_label(labelled("Date")).fill(iso(today))
    form.get_by_label(labelled("Time")).fill("23:00")
    form.get_by_label(labelled("Place")).fill("Village Hall, 45 Birchwood Avenue")
    form.get_by_role("button", name="Record the meeting").click()
    page.wait_for_url(re.compile(r"/meetings/\d+/$"))
    assert "recorded" in page.content()

    # Schedule the hearing at it, from the appeal's page.
    nav(page, "Appeals")
    page.get_by_role("link", name=f"Appeal {appeal.pk}", exact=True).first.click()
    page.wait_for_url(re.compile(rf"/appeals/{appeal.pk}/$"))
    step = page.locator("form").filter(
        has=page.get_by_role("heading", name=re.compile(r"^Schedule the hearing"))
    )
    step.get_by_label(labelled("At the Board meeting")).select_option(index=1)
    step.get_by_role("button", name="Schedule the hearing").click()
    assert "Hearing scheduled for" in page.content()
    assert Appeal.objects.get(pk=appeal.pk).meeting_id is not None

    # Issue the notice of hearing; once rendered, record its sending.
    documents_row(page, "Notice of hearing on appeal").get_by_role(
        "button", name="Issue document"
    ).click()
    assert "Notice of hearing on appeal HRG-" in page.content()
    render_pending()
    page.reload()
    sent = page.locator("#record-hearing-service")
    assert sent.get_by_label(labelled("Sent to")).input_value() == "Pat Owner"
    sent.get_by_label(labelled("Method")).select_option(label="Certified mail")
    sent.get_by_label(labelled("Date sent or delivered")).fill(iso(today))
    sent.get_by_label(labelled("Certified mail article number")).fill("9407 2222")
    sent.get_by_role("button", name="Record the sending").click()
    assert "Sending of the notice of hearing recorded" in page.content()
    assert (
        "article 9407 2222" in page.get_by_test_id("hearing-notice-sent").inner_text()
    )
    assert HearingNoticeService.objects.filter(appeal=appeal).count() == 1

    # The packet: the sum of its parts, footed, with the notice number.
    packet = fetch(page, page.get_by_test_id("hearing-packet"))
    total = len(packet.pages)
    text = "\n".join(p.extract_text() for p in packet.pages)
    assert f"NOV-{notice.pk}" in text
    assert f"page 1 of {total}" in text
    assert [o.title for o in packet.outline][
        0
    ] == f"Notice of violation NOV-{notice.pk}"

    # The meeting's agenda: the text for the website, and the PDF.
    page.get_by_role("link", name="The meeting and its agenda").click()
    page.wait_for_url(re.compile(r"/meetings/\d+/$"))
    assert (
        f"Appeal {appeal.pk}: Pat Owner"
        in page.get_by_test_id("agenda-text").inner_text()
    )
    documents_row(page, "Agenda of the Board").get_by_role(
        "button", name="Issue document"
    ).click()
    render_pending()
    page.reload()
    agenda = fetch(
        page,
        documents_row(page, "Agenda of the Board").get_by_role(
            "link", name="Download PDF"
        ),
    )
    assert f"NOV-{notice.pk}" in "\n".join(p.extract_text() for p in agenda.pages)

    # The decision, then its filing and certified mailing.
    page.get_by_role("link", name=f"Appeal {appeal.pk}").first.click()
    page.wait_for_url(re.compile(rf"/appeals/{appeal.pk}/$"))
    take_step(
        page,
        "Record the decision",
        **{
            "Decision": "Upheld",
            "Date of decision": iso(today),
            "Resolution": "The Board finds the discharge was pool water.",
        },
    )
    assert "Decision (upheld) recorded" in page.content()
    page.get_by_label("Date filed in the office of the municipal clerk").fill(
        iso(today)
    )
    page.get_by_role("button", name="Record filing").click()
    assert "Filing recorded." in page.content()
    page.get_by_label("Date mailed (certified)").fill(iso(today))
    page.get_by_label(labelled("Certified mail article number")).fill("9407 3333")
    page.get_by_role("button", name="Record mailing").click()
    assert "Mailing recorded." in page.content()
    assert Appeal.objects.get(pk=appeal.pk).status == AppealStatus.CLOSED
