"""A real browser walk of the Board's hearing as the clerk (issue 16), from the
clerk's home page (the work queue) and by clicking only what the pages offer:
record a Board meeting, then from the queue schedule an appeal's hearing at it,
issue the notice of hearing and record its sending, open the meeting's agenda
and the hearing packet, record the decision, file and mail it, and record the
delivery of each certified mailing; after each step, back home, the item has
left the queue. The case, notice and appeal before it are set up through the
services; the document worker's rendering is stood in for by `render_pending`
(no Celery worker here)."""

import datetime as dt
import io
import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect
from pypdf import PdfReader

from deadlines import engine
from documents.models import IssuedDocument
from documents.services import document_render
from enforcement.document_kinds import EnforcementDocument
from enforcement.models import Appeal, AppealStatus, HearingNoticeService
from enforcement.packet import packet_parts
from enforcement.selectors import with_limits
from enforcement.services import appeals as appeal_svc
from enforcement.services import meetings as meeting_svc
from enforcement.services import notices as notice_svc
from tests.conftest import browser_sign_in
from tests.jobs.worker import run_pending_jobs
from tests.steps import tick_confirmation

from .conftest import draft, hearing_notice_sent, issued_notice_of_hearing
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
    """The PDF behind a link the page shows, fetched with the browser's session."""
    response = page.context.request.get(link.get_attribute("href"))
    assert response.ok
    assert response.headers["content-type"].startswith("application/pdf")
    return PdfReader(io.BytesIO(response.body()))


def home(page):
    """Back to the clerk's home page, its work queue, by the navigation bar."""
    nav(page, "Dashboard")
    page.wait_for_url(re.compile(r"/staff/$"))
    return page.get_by_test_id("clerk-queue")


def queue_link(queue, words):
    link = queue.get_by_role("link", name=words, exact=True)
    assert link.count() == 1, f"{words!r} not once in the queue"
    return link


def appeal_filed_today(smo_user, clerk_user):
    """A notice of violation issued today (its PDF rendered) and the responsible
    party's appeal of it, filed today: (notice, appeal)."""
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
    return notice, appeal


ON = "On (green card or USPS tracking date)"  # the date of a mailing's outcome


@pytest.fixture(autouse=True)
def private_media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_clerk_takes_an_appeal_from_hearing_to_mailed_decision(
    browser_page, smo_user, clerk_user
):
    today = timezone.localdate()
    notice, appeal = appeal_filed_today(smo_user, clerk_user)
    page = browser_page
    browser_sign_in(page, "clerk")
    queue = home(page)
    schedule = f"Schedule the hearing: appeal {appeal.pk}"
    row = queue.get_by_test_id("queue-to-schedule").locator("li", has_text=schedule)
    assert re.search(r"hearing by .* \d+ days left", row.inner_text())

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

    # From the queue: schedule the hearing at that meeting.
    queue = home(page)
    assert "No hearing of this meeting waits for you." in queue.inner_text()
    queue_link(queue, schedule).click()
    page.wait_for_url(re.compile(rf"/appeals/{appeal.pk}/#step-schedule_hearing$"))
    step = page.locator("#step-schedule_hearing")
    step.get_by_label(labelled("At the Board meeting")).select_option(index=1)
    step.get_by_role("button", name="Schedule the hearing").click()
    assert "Hearing scheduled for" in page.content()
    assert Appeal.objects.get(pk=appeal.pk).meeting_id is not None

    # Home: it left the appeals waiting for a date; its notice is to be issued.
    queue = home(page)
    assert schedule not in queue.inner_text()
    hearings = queue.get_by_test_id("queue-hearings")
    assert "Board meeting" in hearings.inner_text()
    queue_link(hearings, f"Issue the notice of hearing: appeal {appeal.pk}").click()
    page.wait_for_url(re.compile(rf"/appeals/{appeal.pk}/#record-documents-"))
    tick_confirmation(page, EnforcementDocument.HEARING_NOTICE)
    documents_row(page, "Notice of hearing on appeal").get_by_role(
        "button", name="Issue document"
    ).click()
    assert "Notice of hearing on appeal HRG-" in page.content()
    render_pending()

    # Home: now its sending is to be recorded.
    queue = home(page)
    assert f"Issue the notice of hearing: appeal {appeal.pk}" not in queue.inner_text()
    queue_link(
        queue, f"Record the sending of the notice of hearing: appeal {appeal.pk}"
    ).click()
    sent = page.locator("#record-hearing-service")
    assert sent.get_by_label(labelled("Sent to")).input_value() == "Pat Owner"
    sent.get_by_label(labelled("Method")).select_option(label="Certified mail")
    sent.get_by_label(labelled("Date sent or delivered")).fill(iso(today))
    sent.get_by_label(labelled("Certified mail article number")).fill(
        "9407 2222 0000 0000 0000"
    )
    tick_confirmation(page, "hearing_service")
    sent.get_by_role("button", name="Record the sending").click()
    assert "Sending of the notice of hearing recorded" in page.content()
    assert "article 94072222" in page.get_by_test_id("hearing-notice-sent").inner_text()
    assert HearingNoticeService.objects.filter(appeal=appeal).count() == 1

    # Home: the sending left the hearing's row; the mail awaits its outcome.
    queue = home(page)
    text = queue.inner_text()
    assert "Record the sending of the notice of hearing" not in text
    mail = queue.get_by_test_id("queue-certified-mail")
    assert "article 94072222" in mail.inner_text()
    assert "since today" in mail.inner_text()

    # The meeting's page (from the queue): the agenda's text and its PDF.
    hearings = queue.get_by_test_id("queue-hearings")
    hearings.get_by_role("link", name=re.compile(r"^Board meeting ")).click()
    page.wait_for_url(re.compile(r"/meetings/\d+/$"))
    assert (
        f"Appeal {appeal.pk}: Pat Owner"
        in page.get_by_test_id("agenda-text").inner_text()
    )
    tick_confirmation(page, EnforcementDocument.MEETING_AGENDA)
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

    # The packet, from the appeal's page: the sum of its parts, footed, with
    # the notice number.
    page.get_by_role("link", name=f"Appeal {appeal.pk}", exact=True).click()
    page.wait_for_url(re.compile(rf"/appeals/{appeal.pk}/$"))
    page.get_by_test_id("hearing-packet").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text(
        f"Hearing packet, appeal {appeal.pk}"
    )
    assert run_pending_jobs() == 1  # the worker binds it; the page sees it
    download = page.get_by_test_id("job-download")
    expect(download).to_be_visible(timeout=15000)
    packet = fetch(page, download)
    total = len(packet.pages)
    parts = packet_parts(Appeal.objects.get(pk=appeal.pk))
    assert total == sum(part.pages for part in parts)
    assert [o.title for o in packet.outline] == [part.title for part in parts]
    text = "\n".join(p.extract_text() for p in packet.pages)
    assert f"NOV-{notice.pk}" in text
    assert f"page 1 of {total}" in text and f"page {total} of {total}" in text

    # Home: on the day of the hearing, its row asks for the decision.
    queue = home(page)
    decide = f"Record the decision: appeal {appeal.pk}"
    queue_link(queue.get_by_test_id("queue-hearings"), decide).click()
    page.wait_for_url(re.compile(rf"/appeals/{appeal.pk}/#step-decide$"))
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

    # Home: the hearing left; the decision is to be filed and mailed.
    queue = home(page)
    assert decide not in queue.inner_text()
    assert "No hearing of this meeting waits for you." in queue.inner_text()
    to_file = queue.get_by_test_id("queue-to-file-and-mail")
    assert "file with the clerk by" in to_file.inner_text()
    # R-APL-3: five days from the decision, to the next business day (§ 24)
    # when the fifth falls on a weekend: the row says what the engine says.
    (decided,) = with_limits([Appeal.objects.get(pk=appeal.pk)])
    due = decided.file_by.due_date
    assert due >= today + dt.timedelta(days=5)
    assert engine.days_left_words(due, today) in to_file.inner_text()
    queue_link(to_file, f"File and mail the decision: appeal {appeal.pk}").click()
    page.wait_for_url(re.compile(rf"/appeals/{appeal.pk}/#record-filing$"))
    page.get_by_label("Date filed in the office of the municipal clerk").fill(
        iso(today)
    )
    tick_confirmation(page, "filing")
    page.get_by_role("button", name="Record filing").click()
    assert "Filing recorded." in page.content()

    queue = home(page)
    to_file = queue.get_by_test_id("queue-to-file-and-mail")
    assert "file with the clerk by" not in to_file.inner_text()
    queue_link(to_file, f"Mail the decision: appeal {appeal.pk}").click()
    page.wait_for_url(re.compile(rf"/appeals/{appeal.pk}/#record-mailing$"))
    page.get_by_label("Date mailed (certified)").fill(iso(today))
    page.get_by_label(labelled("Certified mail article number")).fill(
        "9407 3333 0000 0000 0000"
    )
    tick_confirmation(page, "mailing")
    page.get_by_role("button", name="Record mailing").click()
    assert "Mailing recorded." in page.content()
    assert Appeal.objects.get(pk=appeal.pk).status == AppealStatus.CLOSED

    # Home: nothing left to file or mail; two certified mailings are out.
    queue = home(page)
    assert "No decision waits to be filed or mailed." in queue.inner_text()
    assert queue.get_by_test_id("queue-to-file-and-mail").count() == 0
    mail = queue.get_by_test_id("queue-certified-mail")
    assert mail.locator("li").count() == 2

    # The green card of the decision: delivered.
    queue_link(mail, f"Record the outcome: decision on appeal {appeal.pk}").click()
    page.wait_for_url(re.compile(rf"/appeals/{appeal.pk}/#delivery-decision$"))
    form = page.locator("#delivery-decision")
    form.get_by_label("Delivered", exact=True).check()
    form.get_by_label(labelled(ON)).fill(iso(today))
    form.get_by_role("button", name="Record the outcome").click()
    decision_mail = page.get_by_test_id("decision-mailing").inner_text()
    assert f"Delivered on {today:%a, %b} {today.day}, {today:%Y}." in decision_mail

    # The notice of hearing came back unclaimed: the page says what that means.
    queue = home(page)
    mail = queue.get_by_test_id("queue-certified-mail")
    assert mail.locator("li").count() == 1
    queue_link(mail, re.compile(r"^Record the outcome: notice of hearing HRG-")).click()
    form = page.locator("form[id^=delivery-hearing-]")
    form.get_by_label("Returned unclaimed", exact=True).check()
    form.get_by_label(labelled(ON)).fill(iso(today))
    form.get_by_role("button", name="Record the outcome").click()
    sent = page.get_by_test_id("hearing-notice-sent").inner_text()
    assert "Returned unclaimed on" in sent
    assert "The appellant may not know of the hearing" in sent

    # Home: no certified mail is out any more.
    queue = home(page)
    assert queue.get_by_test_id("queue-certified-mail").count() == 0
    assert "No certified mail is out." in queue.inner_text()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_clerk_moves_a_hearing_and_sends_the_corrected_notice(
    browser_page, smo_user, clerk_user
):
    """R-APL-2: once the hearing moves to another meeting, the notice already
    sent gives the wrong date; the queue asks for a corrected notice until one
    is issued and sent. The appeal with its hearing, notice and sending is set
    up through the services; the move and the correction are clicked."""
    today = timezone.localdate()
    _, appeal = appeal_filed_today(smo_user, clerk_user)
    first, later = (
        meeting_svc.meeting_create(
            actor=clerk_user,
            date=today + dt.timedelta(days=days),
            time=dt.time(19, 0),
            place="Village Hall, 45 Birchwood Avenue",
        )
        for days in (7, 14)
    )
    appeal, _ = appeal_svc.appeal_schedule_hearing(
        appeal=appeal, actor=clerk_user, meeting=first
    )
    issued_notice_of_hearing(appeal, clerk_user)
    hearing_notice_sent(appeal, clerk_user, today)

    page = browser_page
    browser_sign_in(page, "clerk")
    hearings = home(page).get_by_test_id("queue-hearings")
    queue_link(hearings, f"Hearing: appeal {appeal.pk}").click()
    page.wait_for_url(re.compile(rf"/meetings/{first.pk}/$"))
    page.get_by_role("link", name=f"Appeal {appeal.pk}", exact=True).click()
    page.wait_for_url(re.compile(rf"/appeals/{appeal.pk}/$"))
    step = page.locator("#step-schedule_hearing")
    label = next(
        text
        for text in step.locator("option").all_inner_texts()
        if f"{later.date:%b} {later.date.day}," in text
    )
    step.get_by_label(labelled("At the Board meeting")).select_option(label=label)
    step.get_by_role("button", name="Schedule the hearing").click()
    text = page.content()
    assert "Hearing scheduled for" in text
    was, now = (
        f"{day:%a, %b} {day.day}, {day:%Y}, 7:00 PM" for day in (first.date, later.date)
    )
    assert f"The notice of hearing already issued gives {was}, not {now}" in text
    assert page.get_by_test_id("hearing-notice-out-of-date").is_visible()
    assert Appeal.objects.get(pk=appeal.pk).meeting_id == later.pk

    # Home: the moved hearing asks for the corrected notice.
    corrected = (
        f"Issue the corrected notice of hearing (moved from {was} to {now}): "
        f"appeal {appeal.pk}"
    )
    queue_link(home(page).get_by_test_id("queue-hearings"), corrected).click()
    page.wait_for_url(re.compile(rf"/appeals/{appeal.pk}/#record-documents-"))
    tick_confirmation(page, EnforcementDocument.HEARING_NOTICE)
    documents_row(page, "Notice of hearing on appeal").get_by_role(
        "button", name="Issue a correction (new version)"
    ).click()
    render_pending()
    latest = IssuedDocument.objects.filter(
        kind=EnforcementDocument.HEARING_NOTICE
    ).latest("version")
    assert latest.version == 2 and latest.facts["hearing_on"] == iso(later.date)

    # Home: now the corrected notice's sending is to be recorded, then it is done.
    queue = home(page)
    assert corrected not in queue.inner_text()
    queue_link(
        queue, f"Record the sending of the notice of hearing: appeal {appeal.pk}"
    ).click()
    sent = page.locator("#record-hearing-service")
    sent.get_by_label(labelled("Method")).select_option(label="Personal delivery")
    sent.get_by_label(labelled("Date sent or delivered")).fill(iso(today))
    tick_confirmation(page, "hearing_service")
    sent.get_by_role("button", name="Record the sending").click()
    assert "Sending of the notice of hearing recorded" in page.content()
    assert "notice of hearing: appeal" not in home(page).inner_text()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_corrected_notice_of_hearing_offers_its_sending_once_rendered(
    browser_page, smo_user, clerk_user
):
    """Issue 26 (R-APL-2): the hearing moved after its notice was sent; the
    appeal page names both dates, the clerk issues the corrected notice, the
    page says it is being prepared, and once the worker has rendered it the
    page shows "Record the sending" by itself (its script polls the status)."""
    today = timezone.localdate()
    _, appeal = appeal_filed_today(smo_user, clerk_user)
    first_day, later_day = today + dt.timedelta(days=7), today + dt.timedelta(days=14)
    appeal, _ = appeal_svc.appeal_schedule_hearing(
        appeal=appeal,
        actor=clerk_user,
        hearing_at=timezone.make_aware(dt.datetime.combine(first_day, dt.time(19))),
        location="Village Hall",
    )
    issued_notice_of_hearing(appeal, clerk_user)
    hearing_notice_sent(appeal, clerk_user, today)
    appeal_svc.appeal_schedule_hearing(
        appeal=Appeal.objects.get(pk=appeal.pk),
        actor=clerk_user,
        hearing_at=timezone.make_aware(dt.datetime.combine(later_day, dt.time(19))),
        location="Village Hall",
    )

    page = browser_page
    browser_sign_in(page, "clerk")
    page.goto(appeal.get_absolute_url())
    warning = page.get_by_test_id("hearing-notice-out-of-date").inner_text()
    for day in (first_day, later_day):
        assert f"{day:%a, %b} {day.day}, {day:%Y}, 7:00 PM" in warning, warning
    tick_confirmation(page, EnforcementDocument.HEARING_NOTICE)
    documents_row(page, "Notice of hearing on appeal").get_by_role(
        "button", name="Issue a correction (new version)"
    ).click()
    page.wait_for_url(re.compile(rf"/appeals/{appeal.pk}/"))
    rendering = page.get_by_test_id("hearing-notice-rendering")
    assert "The notice of hearing is being prepared." in rendering.inner_text()
    assert page.get_by_role("button", name="Record the sending").count() == 0

    render_pending()  # the document worker
    # No reload by the test: the page's script sees the PDF ready and reloads.
    page.get_by_role("button", name="Record the sending").wait_for(timeout=15000)
    assert page.get_by_test_id("hearing-notice-rendering").count() == 0
    assert page.get_by_test_id("hearing-notice-to-send").count() == 1
