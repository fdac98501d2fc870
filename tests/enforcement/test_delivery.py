"""The outcome of certified mail (issue 16): delivered on a date (green card,
USPS tracking) or returned unclaimed or refused, for a notice of violation's
service, a notice of hearing's sending and the appeal decision's mailing;
recorded from the page that shows the mailing, listed in the clerk's queue until
then. A return moves no date (Chapter 132 counts from issuance, filing and
decision: R-APL-1, R-APL-2, R-APL-3), and the page says so in words."""

import datetime as dt

import pytest
from django.urls import reverse

from documents.services import document_render, issue_for
from enforcement import selectors
from enforcement.document_kinds import EnforcementDocument
from enforcement.models import Appeal, HearingNoticeService, ServiceRecord
from enforcement.services import appeals as appeal_svc
from enforcement.services import mail as mail_svc
from enforcement.services import meetings as meeting_svc
from enforcement.services import notices as notice_svc
from kernel.workflow import Refused
from tests.visible import visible_text

from .conftest import village_day

pytestmark = pytest.mark.django_db
TODAY = dt.date(2026, 3, 20)  # a Friday; the notice was issued on 2026-03-03
ARTICLE = "9407 1000 0000 0000 0042"


@pytest.fixture(autouse=True)
def today():
    with village_day(TODAY):
        yield TODAY


@pytest.fixture(autouse=True)
def private_media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture
def mailed_notice(issued_notice, smo_user):
    return notice_svc.notice_record_service(
        notice=issued_notice,
        actor=smo_user,
        method=ServiceRecord.Method.CERTIFIED,
        served_on=dt.date(2026, 3, 4),
        article_number=ARTICLE,
    )


def _flat(response):
    return " ".join(response.content.decode().split())


def _home(client):
    return _flat(client.get(reverse("cases:dashboard")))


def _queue(html):
    if 'data-testid="queue-certified-mail"' not in html:
        return ""
    return html.split('data-testid="queue-certified-mail"', 1)[1].split("</ul>")[0]


def _appeal_due(notice):
    return next(d for d in selectors.key_dates(notice) if d.rule_id == "R-APL-1")


# --- the predicate and its query say the same --------------------------------
def test_the_predicate_and_the_queue_query_agree(
    mailed_notice, issued_notice, smo_user
):
    personal = notice_svc.notice_record_service(
        notice=issued_notice, actor=smo_user, method="personal", served_on=TODAY
    )
    waiting = set(
        ServiceRecord.objects.filter(
            ServiceRecord.awaiting_delivery_outcome()
        ).values_list("pk", flat=True)
    )
    assert waiting == {mailed_notice.pk}
    assert mailed_notice.awaits_delivery_outcome
    assert not personal.awaits_delivery_outcome


# --- notice of violation -----------------------------------------------------
def test_the_clerk_records_a_delivery_on_the_notice_page_and_it_leaves_the_queue(
    mailed_notice, client_as
):
    notice_url = reverse("enforcement:notice_detail", args=[mailed_notice.notice_id])
    clerk = client_as("clerk")
    row = _queue(_home(clerk))
    assert ARTICLE.replace(" ", "") in row
    assert "mailed Wed, Mar 4, 2026 · waiting 16 days" in visible_text(row)
    assert f"{notice_url}#delivery-{mailed_notice.pk}" in row
    page = _flat(clerk.get(notice_url))
    assert "delivery not yet confirmed" in page
    assert f'id="delivery-{mailed_notice.pk}"' in page
    prefix = f"delivery-{mailed_notice.pk}"
    response = clerk.post(
        reverse("enforcement:service_delivery", args=[mailed_notice.pk]),
        {f"{prefix}-outcome": "delivered", f"{prefix}-on": "2026-03-06"},
        follow=True,
    )
    page = _flat(response)
    assert "Delivered on Fri, Mar 6, 2026." in page
    assert f'id="delivery-{mailed_notice.pk}"' not in page  # no form any more
    mailed_notice.refresh_from_db()
    assert mailed_notice.delivered_on == dt.date(2026, 3, 6)
    assert _queue(_home(client_as("clerk"))) == ""
    assert "No certified mail is out." in _home(client_as("clerk"))


def test_a_returned_notice_says_what_it_means_and_moves_no_date(
    mailed_notice, issued_notice, smo_client
):
    before = _appeal_due(issued_notice).due_date
    prefix = f"delivery-{mailed_notice.pk}"
    response = smo_client.post(
        reverse("enforcement:service_delivery", args=[mailed_notice.pk]),
        {f"{prefix}-outcome": "refused", f"{prefix}-on": "2026-03-09"},
        follow=True,
    )
    page = _flat(response)
    assert "Returned refused on Mon, Mar 9, 2026." in page
    assert "No date moves" in page and "Serve it another way" in page
    assert "R-APL-1" in page
    assert _appeal_due(issued_notice).due_date == before  # the engine's, unchanged
    mailed_notice.refresh_from_db()
    assert mailed_notice.returned_on == dt.date(2026, 3, 9)
    assert mailed_notice.return_reason == "refused"


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"outcome": "delivered", "on": "2026-03-01"}, "before it was sent"),
        ({"outcome": "delivered", "on": "2026-03-27"}, "cannot be in the future"),
        ({"on": "2026-03-06"}, "This field is required"),
        ({"outcome": "lost", "on": "2026-03-06"}, "Select a valid choice"),
        ({"outcome": "delivered", "on": "6 March"}, "Enter a valid date"),
    ],
)
def test_bad_input_keeps_the_page_and_saves_nothing(
    mailed_notice, smo_client, data, words
):
    prefix = f"delivery-{mailed_notice.pk}"
    response = smo_client.post(
        reverse("enforcement:service_delivery", args=[mailed_notice.pk]),
        {f"{prefix}-{k}": v for k, v in data.items()},
    )
    assert response.status_code == 200
    page = _flat(response)
    assert words in page
    assert f'value="{data["on"]}"' in page  # the user's input is kept
    mailed_notice.refresh_from_db()
    assert mailed_notice.delivered_on is None and mailed_notice.returned_on is None


def test_an_outcome_is_recorded_once_and_by_the_office_alone(
    mailed_notice, smo_user, attorney_user, client_as
):
    url = reverse("enforcement:service_delivery", args=[mailed_notice.pk])
    prefix = f"delivery-{mailed_notice.pk}"
    data = {f"{prefix}-outcome": "delivered", f"{prefix}-on": "2026-03-06"}
    assert client_as("attorney").post(url, data).status_code == 403
    with pytest.raises(Refused):
        mail_svc.mail_record_outcome(
            record=mailed_notice, actor=attorney_user, outcome="delivered", on=TODAY
        )
    mail_svc.mail_record_outcome(
        record=mailed_notice, actor=smo_user, outcome="delivered", on=TODAY
    )
    response = client_as("smo").post(url, data)
    assert response.status_code == 200
    assert "already recorded" in response.content.decode()


def test_personal_delivery_has_no_outcome_to_record(issued_notice, smo_user):
    record = notice_svc.notice_record_service(
        notice=issued_notice, actor=smo_user, method="personal", served_on=TODAY
    )
    with pytest.raises(Refused, match="Only certified mail"):
        mail_svc.mail_record_outcome(
            record=record, actor=smo_user, outcome="delivered", on=TODAY
        )


# --- notice of hearing and decision ------------------------------------------
@pytest.fixture
def hearing_mailed(scheduled_appeal, clerk_user):
    with village_day(dt.date(2026, 3, 11)):
        document = issue_for(
            kind=EnforcementDocument.HEARING_NOTICE,
            source=scheduled_appeal,
            actor=clerk_user,
        )
        document_render(document_id=document.pk)
        return meeting_svc.hearing_notice_record_service(
            appeal=Appeal.objects.get(pk=scheduled_appeal.pk),
            actor=clerk_user,
            method="certified",
            served_on=dt.date(2026, 3, 11),
            sent_to="Pat Owner",
            article_number="9407 2222 0000 0000 0000",
        )


def test_the_clerk_records_the_notice_of_hearing_returned_unclaimed(
    hearing_mailed, clerk_client
):
    appeal = hearing_mailed.appeal
    row = _queue(_home(clerk_client))
    assert f"{appeal.get_absolute_url()}#delivery-hearing-{hearing_mailed.pk}" in row
    assert "mailed Wed, Mar 11, 2026 · waiting 9 days" in visible_text(row)
    page = _flat(clerk_client.get(appeal.get_absolute_url()))
    assert f'id="delivery-hearing-{hearing_mailed.pk}"' in page
    url = reverse("enforcement:appeal_record", args=[appeal.pk, "hearing_delivery"])
    response = clerk_client.post(
        url,
        {
            "hearing_delivery-service": hearing_mailed.pk,
            "hearing_delivery-outcome": "unclaimed",
            "hearing_delivery-on": "2026-03-18",
        },
        follow=True,
    )
    page = _flat(response)
    assert "Returned unclaimed on Wed, Mar 18, 2026." in page
    assert "The appellant may not know of the hearing" in page
    assert HearingNoticeService.objects.get().returned_on == dt.date(2026, 3, 18)
    home = _home(clerk_client)
    assert _queue(home) == ""
    # Returned: the hearing's row asks again for the notice to be sent.
    assert f"Record the sending of the notice of hearing: appeal {appeal.pk}<" in home


def test_a_refused_hearing_delivery_keeps_the_input(hearing_mailed, clerk_client):
    appeal = hearing_mailed.appeal
    url = reverse("enforcement:appeal_record", args=[appeal.pk, "hearing_delivery"])
    response = clerk_client.post(
        url,
        {
            "hearing_delivery-service": hearing_mailed.pk,
            "hearing_delivery-outcome": "delivered",
            "hearing_delivery-on": "2026-03-02",
        },
    )
    assert response.status_code == 200
    page = _flat(response)
    assert "before it was sent" in page and 'value="2026-03-02"' in page
    assert HearingNoticeService.objects.get().delivered_on is None


def test_the_decisions_mailing_outcome_is_recorded_on_the_appeal_page(
    scheduled_appeal, clerk_user, clerk_client
):
    with village_day(dt.date(2026, 3, 24)):
        decided = appeal_svc.appeal_decide(
            appeal=scheduled_appeal,
            actor=clerk_user,
            decision="upheld",
            decided_on=dt.date(2026, 3, 24),
            resolution="Upheld.",
        )
    with village_day(dt.date(2026, 3, 25)):
        appeal_svc.appeal_record_clerk_filing(
            appeal=decided, actor=clerk_user, filed_on=dt.date(2026, 3, 25)
        )
        appeal_svc.appeal_record_mailing(
            appeal=decided,
            actor=clerk_user,
            mailed_on=dt.date(2026, 3, 25),
            article_number="9407 3333 0000 0000 0000",
        )
    correction = Appeal.objects.get(pk=decided.pk).correction_deadline().due_date
    with village_day(dt.date(2026, 3, 30)):
        row = _queue(_home(clerk_client))
        assert f"{decided.get_absolute_url()}#delivery-decision" in row
        assert "decision on appeal" in row and "waiting 5 days" in row
        response = clerk_client.post(
            reverse("enforcement:appeal_record", args=[decided.pk, "mail_delivery"]),
            {"mail_delivery-outcome": "refused", "mail_delivery-on": "2026-03-27"},
            follow=True,
        )
        page = _flat(response)
        assert "Returned refused on Fri, Mar 27, 2026." in page
        assert "R-COR-1" in page
        assert _queue(_home(clerk_client)) == ""
    appeal = Appeal.objects.get(pk=decided.pk)
    assert appeal.mail_returned_on == dt.date(2026, 3, 27)
    assert appeal.correction_deadline().due_date == correction  # no date moves
