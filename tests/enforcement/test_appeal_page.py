"""The appeal's page and the one rule of which notices can be appealed (issue 14):
the steps come from the appeal's state machine, a refused step or record comes
back with the user's input and its errors, and a notice is appealed once
(§ 132-14, R-APL-1)."""

import datetime as dt

import pytest
from django.urls import reverse

from enforcement.models import Appeal, NoticeOfViolation
from enforcement.services import appeals as appeal_services
from kernel.workflow import Refused
from tests.steps import confirmed

pytestmark = pytest.mark.django_db


def _page(client, appeal):
    return client.get(reverse("enforcement:appeal_detail", args=[appeal.pk]))


def test_a_notice_with_an_appeal_offers_no_second_one(appeal, client_as):
    notice = appeal.notice
    assert not notice.can_be_appealed()
    assert notice not in NoticeOfViolation.objects.appealable()
    html = (
        client_as("clerk")
        .get(reverse("enforcement:notice_detail", args=[notice.pk]))
        .content.decode()
    )
    assert "Record an appeal of this notice" not in html
    with pytest.raises(Refused, match="already been appealed"):
        appeal_services.appeal_file(
            notice=notice,
            actor=appeal.recorded_by,
            appellant=appeal.appellant,
            filed_on=appeal.filed_on,
            grounds="Again.",
        )


def test_a_withdrawn_appeal_leaves_the_notice_open_to_appeal(appeal, clerk_user):
    appeal_services.appeal_withdraw(appeal=appeal, actor=clerk_user, reason="Settled.")
    notice = NoticeOfViolation.objects.get(pk=appeal.notice_id)
    assert notice.can_be_appealed()
    assert notice in NoticeOfViolation.objects.appealable()


def test_an_issued_notice_offers_the_appeal_to_the_clerk(issued_notice, client_as):
    assert issued_notice.can_be_appealed()
    url = reverse("enforcement:notice_detail", args=[issued_notice.pk])
    assert (
        "Record an appeal of this notice"
        in client_as("clerk").get(url).content.decode()
    )
    smo_html = client_as("smo").get(url).content.decode()
    assert "Edit draft" not in smo_html and "Record service" in smo_html


def test_a_filed_appeal_offers_its_steps_from_the_machine(appeal, client_as):
    html = _page(client_as("clerk"), appeal).content.decode()
    assert 'data-step="schedule_hearing"' in html
    assert 'data-step="withdraw"' in html
    assert 'data-step="decide"' not in html  # not from "filed"
    assert "Record filing" not in html


def test_a_refused_hearing_keeps_what_the_clerk_typed(appeal, client_as):
    response = client_as("clerk").post(
        reverse("enforcement:appeal_step", args=[appeal.pk, "schedule_hearing"]),
        {"schedule_hearing-hearing_at": "", "schedule_hearing-location": "Hall B"},
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert "Choose a meeting, or give the hearing date and time." in html
    assert 'value="Hall B"' in html
    appeal.refresh_from_db()
    assert appeal.hearing_at is None


def test_a_decision_before_the_hearing_is_refused_with_the_input_kept(
    scheduled_appeal, client_as
):
    response = client_as("clerk").post(
        reverse("enforcement:appeal_step", args=[scheduled_appeal.pk, "decide"]),
        {
            "decide-decision": "upheld",
            "decide-decided_on": "2026-03-20",  # the hearing is on 2026-03-24
            "decide-resolution": "Resolved to uphold.",
            **confirmed("decide"),
        },
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert "the decision cannot come before the hearing" in html
    assert "Resolved to uphold." in html
    assert Appeal.objects.get(pk=scheduled_appeal.pk).decision == ""


def _decided(scheduled_appeal, clerk_user):
    return appeal_services.appeal_decide(
        appeal=scheduled_appeal,
        actor=clerk_user,
        decision="upheld",
        decided_on=dt.date(2026, 3, 24),
        resolution="Upheld.",
    )


def test_a_filing_dated_before_the_decision_comes_back_with_its_error(
    scheduled_appeal, clerk_user, client_as
):
    decided = _decided(scheduled_appeal, clerk_user)
    client = client_as("clerk")
    assert "Record filing" in _page(client, decided).content.decode()
    response = client.post(
        reverse("enforcement:appeal_record", args=[decided.pk, "filing"]),
        confirmed("filing", {"filing-filed_on": "2026-03-01"}),
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert "This cannot come before the decision." in html
    assert 'value="2026-03-01"' in html
    assert Appeal.objects.get(pk=decided.pk).filed_with_clerk_on is None


def test_filing_and_mailing_close_the_appeal_and_leave_nothing_to_record(
    scheduled_appeal, clerk_user, client_as
):
    decided = _decided(scheduled_appeal, clerk_user)
    client = client_as("clerk")
    record = lambda r: reverse("enforcement:appeal_record", args=[decided.pk, r])  # noqa: E731
    client.post(
        record("filing"), confirmed("filing", {"filing-filed_on": "2026-03-25"})
    )
    client.post(
        record("mailing"),
        confirmed(
            "mailing",
            {
                "mailing-mailed_on": "2026-03-25",
                "mailing-article_number": "9407 1000 0000 0000 0001",
            },
        ),
    )
    closed = Appeal.objects.get(pk=decided.pk)
    assert closed.status == "closed"
    html = _page(client, closed).content.decode()
    assert "Record filing" not in html and "Record mailing" not in html
    again = client.post(
        record("filing"), confirmed("filing", {"filing-filed_on": "2026-03-26"})
    )
    assert "already recorded" in again.content.decode()


def test_the_attorney_may_not_record_on_an_appeal(appeal, client_as):
    url = reverse("enforcement:appeal_record", args=[appeal.pk, "document"])
    assert client_as("attorney").post(url, {}).status_code == 403


def test_a_hearing_dated_before_the_appeal_was_filed_is_refused(appeal, client_as):
    """§ 132-14: the Board hears the appeal within 30 days *after* the filing
    (R-APL-2); a date before it is not a hearing of this appeal (issue 19)."""
    response = client_as("clerk").post(
        reverse("enforcement:appeal_step", args=[appeal.pk, "schedule_hearing"]),
        {
            "schedule_hearing-hearing_at": "2026-03-09T19:00",  # filed 2026-03-10
            "schedule_hearing-location": "Village Hall",
        },
    )
    assert response.status_code == 200
    assert "the hearing cannot come before the appeal was filed" in (
        response.content.decode()
    )
    assert Appeal.objects.get(pk=appeal.pk).hearing_at is None


def test_the_boards_hearing_and_decision_are_the_clerks_to_record(
    appeal, smo_user, client_as
):
    """The SMO whose notice is appealed may not schedule the Board's hearing nor
    record its decision (issue 15); the page offers the SMO neither."""
    with pytest.raises(Refused, match="role"):
        appeal_services.appeal_schedule_hearing(
            appeal=appeal,
            actor=smo_user,
            hearing_at=appeal.recorded_at,
            location="Village Hall",
        )
    html = _page(client_as("smo"), appeal).content.decode()
    assert 'data-step="schedule_hearing"' not in html
    assert 'data-step="withdraw"' in html  # recording a withdrawal is still theirs
    response = client_as("smo").post(
        reverse("enforcement:appeal_step", args=[appeal.pk, "schedule_hearing"]),
        {"schedule_hearing-hearing_at": "2026-03-20T19:00"},
    )
    assert response.status_code == 403
