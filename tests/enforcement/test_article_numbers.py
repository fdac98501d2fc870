"""Issue 26: a USPS certified-mail article number is 20 or 22 digits; spaces are
allowed and removed (kernel.input_guard.article_number_clean, the one check).
Every form and service that takes one uses it and stores the digits; a missing
one is a message on the field — never the text of the database's check
constraint (certified_mail_has_article_number and its siblings)."""

import datetime as dt

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from enforcement.forms import (
    HearingServiceForm,
    MailingForm,
    ServiceCorrectionForm,
    ServiceForm,
    SuspensionNoticeForm,
)
from enforcement.models import Appeal, HearingNoticeService, ServiceRecord
from enforcement.services import appeals as appeal_svc
from enforcement.services import notices as notice_svc
from enforcement.services import remedies as remedy_svc
from kernel.input_guard import (
    ARTICLE_NUMBER_INVALID,
    ARTICLE_NUMBER_MISSING,
    article_number_clean,
)
from tests.steps import case_confirmed, confirmed

from .conftest import issued_notice_of_hearing, village_day

TWENTY = "9407 1118 9876 5432 1000"
TWENTY_TWO = "9407 1118 9876 5432 1000 00"
# What no page may show: the database's words for a refused row, and Django's
# default words for a violated constraint ("Constraint “…” is violated.").
DATABASE_WORDS = ("IntegrityError", "violates", "constraint", "is violated")
CONSTRAINT_NAMES = ("has_article_number",)


# --- the one check (no database) -------------------------------------------------


def test_twenty_digits_with_spaces_are_kept_as_digits():
    assert article_number_clean(TWENTY) == "94071118987654321000"
    assert article_number_clean(" 9407111898765432 1000 ") == "94071118987654321000"


def test_twenty_two_digits_are_an_article_number():
    assert article_number_clean(TWENTY_TWO) == "9407111898765432100000"


@pytest.mark.parametrize(
    "typed",
    [
        "9407 1118 9876 5432 1000 0",  # 21 digits
        "9407 1118 9876 5432 100",  # 19
        "9407 1118 9876 5432 1000 000",  # 23
        "9407 1118 9876 5432 10OO",  # letters O for zeros
        "EK 123 456 789 US 0000000",  # a tracking number of another service
        "９４０７１１１８９８７６５４３２１０００",  # full-width digits
        "9407-1118-9876-5432-1000",  # dashes are not spaces
    ],
)
def test_anything_but_20_or_22_digits_is_refused_in_plain_words(typed):
    with pytest.raises(ValidationError) as refused:
        article_number_clean(typed)
    assert refused.value.messages == [ARTICLE_NUMBER_INVALID]


@pytest.mark.parametrize("typed", ["", "   ", None])
def test_an_empty_number_is_missing_when_it_is_required(typed):
    with pytest.raises(ValidationError) as refused:
        article_number_clean(typed)
    assert refused.value.messages == [ARTICLE_NUMBER_MISSING]
    assert article_number_clean(typed, required=False) == ""


# --- each form says it on the field -----------------------------------------------

FORMS = [
    # (form, its data with a certified method and the article number's key)
    (
        ServiceForm,
        {"method": "certified", "served_on": "2026-03-04"},
        "article_number",
    ),
    (
        HearingServiceForm,
        {"sent_to": "Pat Owner", "method": "certified", "served_on": "2026-03-12"},
        "article_number",
    ),
    (MailingForm, {"mailed_on": "2026-03-25"}, "article_number"),
    (
        SuspensionNoticeForm,
        {"notice_sent_on": "2026-03-04", "notice_method": "certified"},
        "notice_article_number",
    ),
    (
        ServiceCorrectionForm,
        {"method": "certified", "served_on": "2026-03-04", "reason": "Misread."},
        "article_number",
    ),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("form_class", "data", "field"), FORMS)
@pytest.mark.parametrize(
    ("typed", "message"),
    [("", ARTICLE_NUMBER_MISSING), ("9407 1", ARTICLE_NUMBER_INVALID)],
)
def test_each_form_says_what_is_wrong_with_the_number_on_its_field(
    form_class, data, field, typed, message
):
    form = form_class({**data, field: typed})
    assert not form.is_valid()
    assert form.errors[field] == [message]
    assert not form.non_field_errors()


@pytest.mark.django_db
@pytest.mark.parametrize(("form_class", "data", "field"), FORMS)
def test_each_form_keeps_the_digits(form_class, data, field):
    form = form_class({**data, field: TWENTY_TWO})
    assert form.is_valid(), form.errors
    assert form.cleaned_data[field] == "9407111898765432100000"


@pytest.mark.django_db
def test_no_number_is_needed_when_it_was_not_mailed():
    form = ServiceForm(
        {"method": "personal", "served_on": "2026-03-04", "article_number": ""}
    )
    assert form.is_valid(), form.errors
    assert form.cleaned_data["article_number"] == ""


# --- the services check it too, and store the digits -----------------------------


@pytest.mark.django_db
def test_the_services_refuse_a_wrong_number_on_its_field_and_store_digits(
    issued_notice, smo_user
):
    with pytest.raises(ValidationError) as refused:
        notice_svc.notice_record_service(
            notice=issued_notice,
            actor=smo_user,
            method="certified",
            served_on=dt.date(2026, 3, 4),
            article_number="9407 1",
        )
    assert refused.value.message_dict == {"article_number": [ARTICLE_NUMBER_INVALID]}
    record = notice_svc.notice_record_service(
        notice=issued_notice,
        actor=smo_user,
        method="certified",
        served_on=dt.date(2026, 3, 4),
        article_number=TWENTY,
    )
    assert ServiceRecord.objects.get(pk=record.pk).article_number == (
        "94071118987654321000"
    )


@pytest.mark.django_db
def test_the_decisions_mailing_refuses_a_wrong_number(scheduled_appeal, clerk_user):
    decided = appeal_svc.appeal_decide(
        appeal=scheduled_appeal,
        actor=clerk_user,
        decision="upheld",
        decided_on=dt.date(2026, 3, 24),
        resolution="Upheld.",
    )
    for typed, message in (
        ("", ARTICLE_NUMBER_MISSING),
        ("12", ARTICLE_NUMBER_INVALID),
    ):
        with pytest.raises(ValidationError) as refused:
            appeal_svc.appeal_record_mailing(
                appeal=decided,
                actor=clerk_user,
                mailed_on=dt.date(2026, 3, 25),
                article_number=typed,
            )
        assert refused.value.message_dict == {"article_number": [message]}
    appeal_svc.appeal_record_mailing(
        appeal=decided,
        actor=clerk_user,
        mailed_on=dt.date(2026, 3, 25),
        article_number=TWENTY,
    )
    assert Appeal.objects.get(pk=decided.pk).mail_article_number == (
        "94071118987654321000"
    )


# --- the pages: a field message, status 200, no database words ------------------


def _no_database_words(response):
    body = response.content.decode()
    for words in DATABASE_WORDS + CONSTRAINT_NAMES:
        assert words.lower() not in body.lower(), words
    assert "CHECK" not in body
    return body


@pytest.fixture(autouse=True)
def private_media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("typed", "message"),
    [("", ARTICLE_NUMBER_MISSING), ("9407 1118", ARTICLE_NUMBER_INVALID)],
)
def test_the_notice_service_page_says_it_on_the_field(
    issued_notice, smo_client, typed, message
):
    url = reverse("enforcement:notice_service", args=[issued_notice.pk])
    response = smo_client.post(
        url,
        case_confirmed(
            {
                "method": "certified",
                "served_on": f"{timezone.localdate():%Y-%m-%d}",
                "article_number": typed,
            }
        ),
    )
    assert response.status_code == 200
    body = _no_database_words(response)
    assert message in body
    assert 'id="error_1_id_article_number"' in body
    assert not ServiceRecord.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("typed", "message"),
    [("", ARTICLE_NUMBER_MISSING), ("9407 1118", ARTICLE_NUMBER_INVALID)],
)
def test_the_notice_of_hearing_sending_says_it_on_the_field(
    scheduled_appeal, clerk_user, clerk_client, typed, message
):
    with village_day(dt.date(2026, 3, 11)):
        issued_notice_of_hearing(scheduled_appeal, clerk_user)
    url = reverse(
        "enforcement:appeal_record", args=[scheduled_appeal.pk, "hearing_service"]
    )
    response = clerk_client.post(
        url,
        {
            "hearing_service-sent_to": "Pat Owner",
            "hearing_service-method": "certified",
            "hearing_service-served_on": "2026-03-12",
            "hearing_service-article_number": typed,
        },
    )
    assert response.status_code == 200
    body = _no_database_words(response)
    assert message in body
    assert 'id="error_1_id_hearing_service-article_number"' in body
    assert not HearingNoticeService.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("typed", "message"),
    [("", ARTICLE_NUMBER_MISSING), ("9407 1118", ARTICLE_NUMBER_INVALID)],
)
def test_the_decisions_mailing_says_it_on_the_field(
    scheduled_appeal, clerk_user, clerk_client, typed, message
):
    decided = appeal_svc.appeal_decide(
        appeal=scheduled_appeal,
        actor=clerk_user,
        decision="upheld",
        decided_on=dt.date(2026, 3, 24),
        resolution="Upheld.",
    )
    url = reverse("enforcement:appeal_record", args=[decided.pk, "mailing"])
    response = clerk_client.post(
        url, {"mailing-mailed_on": "2026-03-25", "mailing-article_number": typed}
    )
    assert response.status_code == 200
    body = _no_database_words(response)
    assert message in body
    assert 'id="error_1_id_mailing-article_number"' in body
    assert Appeal.objects.get(pk=decided.pk).mailed_on is None


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("typed", "message"),
    [("", ARTICLE_NUMBER_MISSING), ("9407 1118", ARTICLE_NUMBER_INVALID)],
)
def test_the_suspensions_notice_of_reasons_says_it_on_the_field(
    confirmed_case, owner, smo_user, smo_client, typed, message
):
    suspension = remedy_svc.suspension_start(
        case=confirmed_case,
        actor=smo_user,
        party=owner,
        suspended_at=timezone.now() - dt.timedelta(hours=3),
        reasons="Chlorinated pool water flowing to the bay.",
    )
    response = smo_client.post(
        f"{suspension.get_absolute_url()}step/record_notice/",
        confirmed(
            "record_notice",
            {"expected_status": suspension.status},
            **{
                "record_notice-notice_sent_on": f"{timezone.localdate():%Y-%m-%d}",
                "record_notice-notice_method": "certified",
                "record_notice-notice_article_number": typed,
            },
        ),
    )
    assert response.status_code == 200
    body = _no_database_words(response)
    assert message in body
    assert 'id="error_1_id_record_notice-notice_article_number"' in body
