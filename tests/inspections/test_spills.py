"""Spill notifications, § 132-12: R-SPL-1 … R-SPL-5 and their due dates."""

import datetime as dt

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from cases.models import Case, CaseKind, CaseSource
from cases.services import Refused, case_open
from inspections import services
from inspections.models import SpillNotification, SpillStatus
from kernel.models import CaseEvent
from tests.visible import visible_text

from .conftest import at

pytestmark = pytest.mark.django_db

TEL = SpillNotification.NoticeMethod.TELEPHONE


def spill(user, premises, known, notice_at=None, method=TEL, **extra):
    fields = {
        "reported_by": "Pat Quinn",
        "reporter_email": "pat@example.org",
        "known_at": known,
        "material": "Wash water",
        "hazardous": False,
        "containment_steps": "Boom",
        "cleanup_steps": "Vacuum truck",
        "notice_method": method if notice_at else "",
        "notice_at": notice_at,
    }
    fields.update(extra)
    return services.spill_record(actor=user, premises=premises, **fields)


def test_telephone_notice_on_friday_dec_18_2026_confirmation_due_wednesday_dec_23(
    clock, smo_user, yard
):
    clock(at(2026, 12, 18, 16))
    s = spill(smo_user, yard, at(2026, 12, 18, 9), at(2026, 12, 18, 11))
    assert s.notice_deadline.rule_id == "R-SPL-3"
    assert s.notice_deadline.due_date == dt.date(2026, 12, 21)  # Monday
    assert s.notice_deadline.status == "met"
    assert s.confirmation_deadline.rule_id == "R-SPL-4"
    # Mon 21, Tue 22, Wed 23: three business days; Christmas (Fri 25) not reached.
    assert s.confirmation_deadline.due_date == dt.date(2026, 12, 23)
    assert s.confirmation_deadline.notify_email == "pat@example.org"
    assert s.retention_deadline.rule_id == "R-SPL-5"
    assert s.retention_deadline.due_date == dt.date(2029, 12, 18)


def test_telephone_notice_on_christmas_eve_skips_christmas_and_the_weekend(
    clock, smo_user, yard
):
    clock(at(2026, 12, 24, 17))
    s = spill(smo_user, yard, at(2026, 12, 24, 8), at(2026, 12, 24, 10))
    assert s.notice_deadline.due_date == dt.date(2026, 12, 28)  # Fri 25 holiday
    # Mon 28, Tue 29, Wed 30.
    assert s.confirmation_deadline.due_date == dt.date(2026, 12, 30)


def test_friday_before_mlk_day_confirmation_due_thursday_jan_21_2027(
    clock, smo_user, yard
):
    clock(at(2027, 1, 15, 15))
    s = spill(smo_user, yard, at(2027, 1, 15, 9), at(2027, 1, 15, 12))
    # Mon 18 is Martin Luther King Jr. Day: Tue 19, Wed 20, Thu 21.
    assert s.confirmation_deadline.due_date == dt.date(2027, 1, 21)
    assert "2027-01-21" in s.confirmation_deadline.explanation or "January 21" in (
        s.confirmation_deadline.explanation
    )


def test_nonhazardous_notice_after_the_next_business_day_is_flagged_late(
    clock, smo_user, yard
):
    clock(at(2027, 1, 20, 15))
    # Known Friday Jan 15; next business day is Tuesday Jan 19 (MLK Monday).
    s = spill(smo_user, yard, at(2027, 1, 15, 9), at(2027, 1, 20, 9))
    assert s.notice_deadline.due_date == dt.date(2027, 1, 19)
    assert s.notice_deadline.status == "missed"
    assert s.notice_late and s.needs_case


def test_notice_on_the_tuesday_after_mlk_day_is_on_time(clock, smo_user, yard):
    clock(at(2027, 1, 19, 15))
    s = spill(smo_user, yard, at(2027, 1, 15, 9), at(2027, 1, 19, 9))
    assert s.notice_deadline.status == "met"
    assert not s.needs_case


def test_fax_notice_needs_no_written_confirmation(clock, smo_user, yard):
    clock(at(2026, 11, 2, 15))
    s = spill(
        smo_user,
        yard,
        at(2026, 11, 2, 9),
        at(2026, 11, 2, 10),
        method=SpillNotification.NoticeMethod.FAX,
    )
    assert s.confirmation_deadline is None
    assert s.commercial_or_industrial  # industrial premises → R-SPL-5
    assert s.retention_deadline is not None


def test_residential_source_has_no_retention_duty(clock, smo_user, premises):
    clock(at(2026, 11, 2, 15))
    s = spill(smo_user, premises, at(2026, 11, 2, 9), at(2026, 11, 2, 10))
    assert s.retention_deadline is None


def test_hazardous_release_without_911_time_is_refused_and_nothing_saved(
    clock, smo_user, yard
):
    clock(at(2026, 11, 2, 15))
    with pytest.raises(ValidationError) as exc:
        spill(smo_user, yard, at(2026, 11, 2, 9), hazardous=True)
    assert "dispatch_called_at" in exc.value.error_dict
    assert not SpillNotification.objects.exists()


def test_hazardous_release_records_the_911_call_and_opens_no_next_day_deadline(
    clock, smo_user, yard
):
    clock(at(2026, 11, 2, 15))
    s = spill(
        smo_user,
        yard,
        at(2026, 11, 2, 9),
        hazardous=True,
        dispatch_called_at=at(2026, 11, 2, 9, 5),
    )
    assert s.notice_deadline is None
    assert s.dispatch_called_at == at(2026, 11, 2, 9, 5)


def test_911_call_before_the_release_was_known_is_refused(clock, smo_user, yard):
    clock(at(2026, 11, 2, 15))
    with pytest.raises(ValidationError):
        spill(
            smo_user,
            yard,
            at(2026, 11, 2, 9),
            hazardous=True,
            dispatch_called_at=at(2026, 11, 2, 8),
        )


def test_release_known_in_the_future_is_refused(clock, smo_user, yard):
    clock(at(2026, 11, 2, 15))
    with pytest.raises(ValidationError) as exc:
        spill(smo_user, yard, at(2026, 11, 3, 9))
    assert "known_at" in exc.value.error_dict


def test_notice_before_the_release_was_known_is_refused(clock, smo_user, yard):
    clock(at(2026, 11, 2, 15))
    with pytest.raises(ValidationError) as exc:
        spill(smo_user, yard, at(2026, 11, 2, 9), at(2026, 11, 2, 8))
    assert "notice_at" in exc.value.error_dict
    assert not SpillNotification.objects.exists()


def test_written_confirmation_mailed_in_time_meets_the_deadline(clock, smo_user, yard):
    clock(at(2026, 12, 18, 16))
    s = spill(smo_user, yard, at(2026, 12, 18, 9), at(2026, 12, 18, 11))
    clock(at(2026, 12, 28, 10))
    s = services.spill_record_confirmation(
        actor=smo_user,
        spill=s,
        mailed_on=dt.date(2026, 12, 23),
        received_on=dt.date(2026, 12, 28),
    )
    assert s.status == SpillStatus.CONFIRMED
    s.confirmation_deadline.refresh_from_db()
    assert s.confirmation_deadline.status == "met"
    assert not s.confirmation_late


def test_written_confirmation_mailed_late_is_recorded_and_flagged(
    clock, smo_user, yard
):
    clock(at(2026, 12, 18, 16))
    s = spill(smo_user, yard, at(2026, 12, 18, 9), at(2026, 12, 18, 11))
    clock(at(2026, 12, 29, 10))
    s = services.spill_record_confirmation(
        actor=smo_user, spill=s, mailed_on=dt.date(2026, 12, 24)
    )
    s.confirmation_deadline.refresh_from_db()
    assert s.confirmation_deadline.status == "missed"
    assert s.confirmation_late and s.needs_case


def test_confirmation_mailed_before_the_notice_is_refused(clock, smo_user, yard):
    clock(at(2026, 12, 18, 16))
    s = spill(smo_user, yard, at(2026, 12, 18, 9), at(2026, 12, 18, 11))
    with pytest.raises(ValidationError):
        services.spill_record_confirmation(
            actor=smo_user, spill=s, mailed_on=dt.date(2026, 12, 17)
        )
    s.refresh_from_db()
    assert s.status == SpillStatus.RECORDED


def test_confirmation_cannot_be_marked_missing_before_it_is_due(clock, smo_user, yard):
    clock(at(2026, 12, 18, 16))
    s = spill(smo_user, yard, at(2026, 12, 18, 9), at(2026, 12, 18, 11))
    clock(at(2026, 12, 23, 16))  # the due date itself: not overdue yet
    with pytest.raises(Refused, match="not overdue"):
        services.spill_mark_confirmation_missing(actor=smo_user, spill=s)


def test_missing_confirmation_then_case_opened(clock, smo_user, yard):
    clock(at(2026, 12, 18, 16))
    s = spill(smo_user, yard, at(2026, 12, 18, 9), at(2026, 12, 18, 11))
    clock(at(2026, 12, 24, 9))
    s = services.spill_mark_confirmation_missing(actor=smo_user, spill=s)
    assert s.status == SpillStatus.MISSING
    case = services.spill_open_case(actor=smo_user, spill=s)
    assert case.kind == CaseKind.SPILL and case.source == CaseSource.SPILL_NOTIFICATION
    s.refresh_from_db()
    assert s.case == case
    assert case.events.filter(kind="spill", rule_id="R-SPL-4").exists()


def test_case_is_not_opened_from_a_timely_notice(clock, smo_user, yard):
    clock(at(2026, 12, 18, 16))
    s = spill(smo_user, yard, at(2026, 12, 18, 9), at(2026, 12, 18, 11))
    with pytest.raises(ValidationError):
        services.spill_open_case(actor=smo_user, spill=s)
    assert not Case.objects.exists()


def test_no_notice_at_all_becomes_missing_after_the_next_business_day(
    clock, smo_user, yard
):
    clock(at(2026, 12, 18, 16))
    s = spill(smo_user, yard, at(2026, 12, 18, 9))
    assert s.notice_deadline.is_open and not s.notice_missing
    clock(at(2026, 12, 22, 9))
    assert SpillNotification.objects.get(pk=s.pk).notice_missing


def test_close_refused_while_the_written_confirmation_is_pending(clock, smo_user, yard):
    clock(at(2026, 12, 18, 16))
    s = spill(smo_user, yard, at(2026, 12, 18, 9), at(2026, 12, 18, 11))
    with pytest.raises(Refused, match="written confirmation"):
        services.spill_close(actor=smo_user, spill=s)


def test_close_without_smo_role_is_refused(clock, smo_user, clerk_user, yard):
    clock(at(2026, 11, 2, 15))
    s = spill(
        smo_user,
        yard,
        at(2026, 11, 2, 9),
        at(2026, 11, 2, 10),
        method=SpillNotification.NoticeMethod.FAX,
    )
    with pytest.raises(Refused, match="role"):
        services.spill_close(actor=clerk_user, spill=s)
    services.spill_close(actor=smo_user, spill=s)
    s.refresh_from_db()
    assert s.status == SpillStatus.CLOSED
    with pytest.raises(Refused, match="not possible"):
        services.spill_close(actor=smo_user, spill=s)


def test_spill_on_a_case_writes_timeline_events(clock, smo_user, yard):
    clock(at(2026, 11, 2, 15))
    case = case_open(actor=smo_user, source=CaseSource.PHONE, summary="Spill call")
    spill(smo_user, yard, at(2026, 11, 2, 9), at(2026, 11, 2, 10), case=case)
    kinds = list(case.events.values_list("kind", "rule_id"))
    assert ("spill", "R-SPL-1") in kinds
    assert ("deadline", "R-SPL-4") in kinds
    assert CaseEvent.objects.filter(case=case, kind="spill").count() == 1


def test_spill_detail_shows_the_stored_due_date_and_explanation(
    clock, smo_user, yard, client
):
    clock(at(2026, 12, 18, 16))
    s = spill(smo_user, yard, at(2026, 12, 18, 9), at(2026, 12, 18, 11))
    client.force_login(smo_user)
    html = client.get(reverse("inspections:spill_detail", args=[s.pk])).content.decode()
    assert "Written confirmation due by Wed, Dec 23, 2026" in visible_text(html)
    assert s.confirmation_deadline.explanation in html


def test_spill_form_keeps_input_on_error(clock, client, smo_user, yard):
    clock(at(2026, 11, 2, 15))
    client.force_login(smo_user)
    smo_client = client
    response = smo_client.post(
        reverse("inspections:spill_new"),
        {
            "premises": yard.pk,
            "reported_by": "Pat",
            "known_at": "2026-11-02T09:00",
            "material": "Antifreeze",
            "hazardous": "on",
            "containment_steps": "Boom",
            "cleanup_steps": "Pads",
        },
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert "Antifreeze" in html and "emergency" in html
    assert not SpillNotification.objects.exists()


def test_spill_form_records_a_friday_telephone_notice(clock, client, smo_user, yard):
    # Sign in after setting the clock, or the session would have expired.
    clock(at(2026, 12, 18, 16))
    client.force_login(smo_user)
    smo_client = client
    response = smo_client.post(
        reverse("inspections:spill_new"),
        {
            "premises": yard.pk,
            "reported_by": "Pat",
            "reporter_email": "pat@example.org",
            "known_at": "2026-12-18T09:00",
            "material": "Wash water",
            "containment_steps": "Boom",
            "cleanup_steps": "Pads",
            "notice_method": "telephone",
            "notice_at": "2026-12-18T11:00",
        },
    )
    assert response.status_code == 302, response.context["form"].errors
    s = SpillNotification.objects.get()
    assert s.confirmation_deadline.due_date == dt.date(2026, 12, 23)


def test_a_spill_known_in_the_hour_the_clocks_go_back_is_recorded(
    clock, client, smo_user, yard
):
    """R-SPL-4: the written confirmation runs from the notice, whatever the
    night; 1:30 on Sunday, Nov 1, 2026 happened twice and is read as the first."""
    clock(at(2026, 11, 1, 12))
    client.force_login(smo_user)
    response = client.post(
        reverse("inspections:spill_new"),
        {
            "premises": yard.pk,
            "reported_by": "Pat",
            "known_at": "2026-11-01T01:30",
            "material": "Wash water",
            "containment_steps": "Boom",
            "cleanup_steps": "Pads",
            "notice_method": "telephone",
            "notice_at": "2026-11-01T01:45",
        },
    )
    assert response.status_code == 302, response.context["form"].errors
    s = SpillNotification.objects.get()
    assert s.known_at == dt.datetime(2026, 11, 1, 5, 30, tzinfo=dt.UTC)
    assert s.confirmation_deadline is not None
