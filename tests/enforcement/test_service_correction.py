"""Issue 26: a service recorded wrongly (the date, the article number, the
method) is corrected by the SMO with a reason — "Correct this service record"
on the notice page. The record takes the corrected values; what it said before
is kept (a ServiceCorrection, never deleted) and shown; the chronology says what
changed and why. What reads the service date follows: whether the notice was
served late (R-APL-1 counts from the issue, so no deadline moves)."""

import datetime as dt

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from enforcement import selectors
from enforcement.models import ServiceCorrection, ServiceRecord
from enforcement.services import mail as mail_svc
from enforcement.services import notices as svc
from kernel.humanize import human_date
from kernel.input_guard import ARTICLE_NUMBER_INVALID
from kernel.models import CaseEvent
from kernel.workflow import Refused
from tests.visible import visible_text

pytestmark = pytest.mark.django_db

RIGHT = "9407 1118 9876 5432 1000 00"
WRONG = "9407 1118 9876 5432 1999 99"


@pytest.fixture(autouse=True)
def private_media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture
def served(issued_notice, smo_user):
    """Issued on 2026-03-03, recorded as mailed the next day with a mistyped
    article number."""
    return svc.notice_record_service(
        notice=issued_notice,
        actor=smo_user,
        method="certified",
        served_on=dt.date(2026, 3, 4),
        article_number=WRONG,
    )


def _correct_url(record):
    return reverse("enforcement:service_correct", args=[record.pk])


def _post(client, record, **changes):
    data = {
        "method": record.method,
        "served_on": f"{record.served_on:%Y-%m-%d}",
        "article_number": record.article_number,
        "served_by": record.served_by,
        "where": record.where,
        "reason": "",
        **changes,
    }
    return client.post(_correct_url(record), data)


def test_the_notice_page_offers_the_smo_to_correct_a_service_record(
    served, smo_client, client_as
):
    page = smo_client.get(
        reverse("enforcement:notice_detail", args=[served.notice_id])
    ).content.decode()
    assert "Correct this service record" in page
    assert _correct_url(served) in page
    clerk_page = client_as("clerk").get(
        reverse("enforcement:notice_detail", args=[served.notice_id])
    )
    assert "Correct this service record" not in clerk_page.content.decode()


def test_the_form_offers_what_the_record_says(served, smo_client):
    page = smo_client.get(_correct_url(served)).content.decode()
    assert 'value="94071118987654321999' in page
    assert 'value="2026-03-04"' in page


def test_a_corrected_article_number_keeps_the_old_one_and_the_reason(
    served, smo_client
):
    response = _post(
        smo_client,
        served,
        article_number=RIGHT,
        reason="The number was copied from the wrong receipt.",
    )
    assert response.status_code == 302
    record = ServiceRecord.objects.get(pk=served.pk)
    assert record.article_number == "9407111898765432100000"
    kept = ServiceCorrection.objects.get(record=record)
    assert kept.old_article_number == "9407111898765432199999"
    assert kept.old_served_on == dt.date(2026, 3, 4)
    assert kept.reason == "The number was copied from the wrong receipt."
    event = CaseEvent.objects.get(summary__startswith="Service record corrected")
    assert event.summary == (
        f"Service record corrected: notice of violation {served.notice_id}, "
        "article number 9407111898765432199999 → 9407111898765432100000 "
        "(The number was copied from the wrong receipt.)"
    )
    assert event.rule_id == "R-NOV-1"
    page = visible_text(smo_client.get(response["Location"]).content.decode())
    assert "article 9407111898765432100000" in page
    assert (
        f"before, Certified mail on {human_date(dt.date(2026, 3, 4))}, "
        "article 9407111898765432199999. Why: The number was copied from the "
        "wrong receipt."
    ) in page


def test_a_reason_is_required_and_nothing_changes_without_one(served, smo_client):
    response = _post(smo_client, served, article_number=RIGHT, reason="  ")
    assert response.status_code == 200
    body = response.content.decode()
    assert "Say why the service record is corrected." in body
    assert 'id="error_1_id_reason"' in body
    assert ServiceRecord.objects.get(pk=served.pk).article_number.endswith("99999")
    assert not ServiceCorrection.objects.exists()
    with pytest.raises(ValidationError) as refused:
        svc.service_record_correct(
            record=served,
            actor=served.recorded_by,
            method="certified",
            served_on=served.served_on,
            article_number=RIGHT,
            reason="",
        )
    assert refused.value.message_dict == {
        "reason": ["Say why the service record is corrected."]
    }


def test_a_wrong_number_in_the_correction_is_said_on_its_field(served, smo_client):
    response = _post(smo_client, served, article_number="9407 1", reason="Typo.")
    assert response.status_code == 200
    assert ARTICLE_NUMBER_INVALID in response.content.decode()
    assert not ServiceCorrection.objects.exists()


def test_a_later_service_date_makes_the_notice_served_late(served, smo_client):
    """The notice was issued on 2026-03-03; service was recorded as 03-04 but the
    letter went out on 03-16: the late-service words follow the correction."""
    assert selectors.late_service(served.notice) is None
    due = served.notice.deadlines().get(rule_id="R-APL-1").due_date
    response = _post(
        smo_client,
        served,
        served_on="2026-03-16",
        reason="The letter sat in the out tray until the 16th.",
    )
    assert response.status_code == 302
    page = visible_text(smo_client.get(response["Location"]).content.decode())
    assert "Late service." in page
    assert "13 days after the notice was issued" in page
    late = selectors.late_service(served.notice)
    assert late is not None and late.record.pk == served.pk
    event = CaseEvent.objects.get(summary__startswith="Service record corrected")
    assert "date Wednesday, March 4, 2026 → Monday, March 16, 2026" in event.summary
    # The days to appeal count from the issue (R-APL-1): the deadline stays.
    assert served.notice.deadlines().get(rule_id="R-APL-1").due_date == due


def test_a_wrong_method_is_corrected_and_the_article_number_goes(served, smo_user):
    correction = svc.service_record_correct(
        record=served,
        actor=smo_user,
        method="personal",
        served_on=dt.date(2026, 3, 4),
        article_number="",
        served_by="Officer Lee",
        where="12 Shore Road",
        reason="Handed to the owner at the door, not mailed.",
    )
    record = ServiceRecord.objects.get(pk=served.pk)
    assert record.method == "personal" and record.article_number == ""
    assert not record.awaits_delivery_outcome  # leaves the certified-mail queue
    assert correction.old_method == "certified"
    assert ServiceCorrection.objects.filter(record=record).count() == 1


def test_a_recorded_delivery_keeps_the_mail_certified_and_sent_before(served, smo_user):
    mail_svc.mail_record_outcome(
        record=served, actor=smo_user, outcome="delivered", on=dt.date(2026, 3, 6)
    )
    served.refresh_from_db()
    with pytest.raises(ValidationError) as refused:
        svc.service_record_correct(
            record=served,
            actor=smo_user,
            method="personal",
            served_on=dt.date(2026, 3, 4),
            reason="Handed over.",
        )
    assert "method" in refused.value.message_dict
    with pytest.raises(ValidationError) as refused:
        svc.service_record_correct(
            record=served,
            actor=smo_user,
            method="certified",
            served_on=dt.date(2026, 3, 9),
            article_number=WRONG,
            reason="Mailed later.",
        )
    assert "served_on" in refused.value.message_dict
    assert not ServiceCorrection.objects.exists()


def test_nothing_to_correct_is_said(served, smo_user):
    with pytest.raises(ValidationError, match="already recorded"):
        svc.service_record_correct(
            record=served,
            actor=smo_user,
            method="certified",
            served_on=dt.date(2026, 3, 4),
            article_number=WRONG,
            reason="Checking.",
        )


def test_only_the_smo_corrects(served, client_as, clerk_user):
    assert client_as("clerk").get(_correct_url(served)).status_code == 403
    with pytest.raises(Refused, match="correct the service of a notice"):
        svc.service_record_correct(
            record=served,
            actor=clerk_user,
            method="certified",
            served_on=dt.date(2026, 3, 4),
            article_number=RIGHT,
            reason="Typo.",
        )


def test_two_corrections_keep_both_earlier_versions(served, smo_user):
    for number, why in ((RIGHT, "First fix."), (WRONG, "Undo: the first was right.")):
        svc.service_record_correct(
            record=served,
            actor=smo_user,
            method="certified",
            served_on=dt.date(2026, 3, 4),
            article_number=number,
            reason=why,
        )
    kept = list(ServiceCorrection.objects.filter(record=served))
    assert [c.reason for c in kept] == ["First fix.", "Undo: the first was right."]
    assert kept[0].old_article_number.endswith("99999")
    assert kept[1].old_article_number.endswith("00000")
    with pytest.raises(ValueError):
        kept[0].delete()
    assert ServiceCorrection.objects.count() == 2
