"""Inspections (R-ACC-1), the lock on finalized ones, samples, photos, the
access case (R-ACC-3) and warrant applications (R-ACC-4)."""

import datetime as dt
import io
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone
from PIL import Image

from cases.models import CaseKind, CaseSource
from cases.services import Refused, case_open
from inspections import services
from inspections.ical_feed import ical_events
from inspections.models import (
    Inspection,
    InspectionStatus,
    LockedRecordError,
    Sample,
    WarrantStatus,
)
from kernel.models import CaseEvent
from tests.steps import confirmed

from .conftest import record

pytestmark = pytest.mark.django_db


def sample_fields(**extra):
    fields = {
        "parameter": "E. coli",
        "value": "2400",
        "unit": "MPN/100 mL",
        "method": "SM 9223 B",
        "lab": "Suffolk County PHL",
        "chain_of_custody_number": "COC-881",
        "sampled_on": timezone.localdate(),
    }
    fields.update(extra)
    return fields


def test_scheduled_inspection_can_be_recorded_then_finalized(smo_user, scheduled):
    inspection = record(scheduled, smo_user)
    assert inspection.status == InspectionStatus.RECORDED
    inspection = services.inspection_finalize(actor=smo_user, inspection=inspection)
    assert inspection.status == InspectionStatus.FINALIZED
    assert inspection.finalized_by == smo_user and inspection.finalized_at


def test_recording_without_who_went_is_refused(smo_user, scheduled):
    with pytest.raises(Refused, match="who went"):
        services.inspection_record(
            actor=smo_user,
            inspection=scheduled,
            performed_at=timezone.now(),
            attendees=" ",
            access_outcome="granted",
        )
    scheduled.refresh_from_db()
    assert scheduled.status == InspectionStatus.SCHEDULED


def test_visit_in_the_future_is_refused(smo_user, scheduled):
    with pytest.raises(ValidationError):
        record(scheduled, smo_user, when=timezone.now() + dt.timedelta(hours=2))


def test_refusal_without_notes_is_refused(smo_user, scheduled):
    with pytest.raises(ValidationError) as exc:
        record(scheduled, smo_user, outcome="refused")
    assert "access_notes" in exc.value.error_dict


def test_finalize_from_scheduled_is_not_possible(smo_user, scheduled):
    with pytest.raises(Refused, match="not possible"):
        services.inspection_finalize(actor=smo_user, inspection=scheduled)


def test_finalize_without_the_smo_role_is_refused(smo_user, clerk_user, scheduled):
    inspection = record(scheduled, smo_user)
    with pytest.raises(Refused):
        services.inspection_finalize(actor=clerk_user, inspection=inspection)
    assert not any(
        t.name == "finalize"
        for t in inspection.get_available_user_status_transitions(clerk_user)
    )


def test_cancel_needs_a_reason_and_only_from_scheduled(smo_user, scheduled):
    with pytest.raises(Refused, match="reason"):
        services.inspection_cancel(actor=smo_user, inspection=scheduled, reason="")
    cancelled = services.inspection_cancel(
        actor=smo_user, inspection=scheduled, reason="Owner rescheduled"
    )
    assert cancelled.status == InspectionStatus.CANCELLED
    with pytest.raises(Refused):
        record(cancelled, smo_user)


def test_service_on_a_stale_copy_works_on_the_locked_row_and_refuses(
    smo_user, scheduled
):
    stale = Inspection.objects.get(pk=scheduled.pk)
    services.inspection_cancel(actor=smo_user, inspection=scheduled, reason="x")
    with pytest.raises(Refused, match="Cancelled"):
        services.inspection_cancel(actor=smo_user, inspection=stale, reason="y")
    assert Inspection.objects.get(pk=scheduled.pk).cancelled_reason == "x"


def test_concurrent_save_of_a_stale_copy_is_refused(smo_user, scheduled):
    from django_fsm import ConcurrentTransition

    first = Inspection.objects.get(pk=scheduled.pk)
    second = Inspection.objects.get(pk=scheduled.pk)
    first.cancelled_reason = "x"
    first.cancel()
    first.save()
    second.cancelled_reason = "y"
    second.cancel()
    with pytest.raises(ConcurrentTransition):
        second.save()


# --- the lock -----------------------------------------------------------------
@pytest.fixture
def finalized(smo_user, scheduled):
    inspection = record(scheduled, smo_user)
    return services.inspection_finalize(actor=smo_user, inspection=inspection)


def test_finalized_inspection_refuses_any_field_change_in_the_model(finalized):
    finalized.findings = "rewritten"
    with pytest.raises(LockedRecordError, match="findings"):
        finalized.save()
    assert Inspection.objects.get(pk=finalized.pk).findings != "rewritten"


def test_finalized_inspection_refuses_queryset_update(finalized):
    with pytest.raises(LockedRecordError):
        Inspection.objects.filter(pk=finalized.pk).update(findings="x")


def test_finalized_inspection_cannot_be_deleted(finalized):
    with pytest.raises(LockedRecordError):
        finalized.delete()


def test_finalized_inspection_refuses_the_findings_service(smo_user, finalized):
    with pytest.raises(LockedRecordError):
        services.inspection_update_findings(
            actor=smo_user, inspection=finalized, findings="new"
        )


def test_finalized_inspection_refuses_new_samples(smo_user, finalized):
    with pytest.raises(LockedRecordError):
        services.sample_add(actor=smo_user, inspection=finalized, **sample_fields())
    assert not Sample.objects.exists()


def test_correction_is_added_beside_a_finalized_inspection(smo_user, finalized):
    before = Inspection.objects.filter(pk=finalized.pk).values().get()
    correction = services.inspection_add_correction(
        actor=smo_user,
        inspection=finalized,
        field_name="attendees",
        corrected_text="S. Officer, J. Tech, K. Lab",
        reason="K. Lab was left off",
    )
    assert Inspection.objects.filter(pk=finalized.pk).values().get() == before
    assert finalized.corrections.get() == correction
    correction.reason = "changed"
    with pytest.raises(LockedRecordError):
        correction.save()


def test_correction_before_finalizing_is_refused(smo_user, scheduled):
    inspection = record(scheduled, smo_user)
    with pytest.raises(ValidationError):
        services.inspection_add_correction(
            actor=smo_user,
            inspection=inspection,
            field_name="findings",
            corrected_text="x",
            reason="y",
        )


def test_finalized_page_offers_corrections_not_edits(smo_client, finalized):
    html = smo_client.get(
        reverse("inspections:inspection_detail", args=[finalized.pk])
    ).content.decode()
    assert "Add a correction" in html
    assert "Edit findings" not in html and "Record the visit" not in html


def test_posting_findings_to_a_finalized_inspection_is_refused_with_a_message(
    smo_client, finalized
):
    response = smo_client.post(
        reverse("inspections:inspection_action", args=[finalized.pk, "findings"]),
        {"findings": "overwrite"},
        follow=True,
    )
    assert response.status_code in (200, 400)
    assert "correction" in response.content.decode()
    assert Inspection.objects.get(pk=finalized.pk).findings != "overwrite"


# --- samples and photos -------------------------------------------------------
def test_sample_is_recorded_with_chain_of_custody(smo_user, scheduled):
    inspection = record(scheduled, smo_user)
    sample = services.sample_add(
        actor=smo_user, inspection=inspection, **sample_fields()
    )
    assert sample.chain_of_custody_number == "COC-881"


def test_sample_dated_after_today_is_refused(smo_user, scheduled):
    inspection = record(scheduled, smo_user)
    with pytest.raises(ValidationError) as exc:
        services.sample_add(
            actor=smo_user,
            inspection=inspection,
            **sample_fields(sampled_on=timezone.localdate() + dt.timedelta(days=1)),
        )
    assert "sampled_on" in exc.value.error_dict


def test_sample_form_keeps_input_when_refused(smo_client, smo_user, scheduled):
    inspection = record(scheduled, smo_user)
    tomorrow = timezone.localdate() + dt.timedelta(days=1)
    response = smo_client.post(
        reverse("inspections:inspection_action", args=[inspection.pk, "sample"]),
        {**sample_fields(sampled_on=tomorrow.isoformat()), "value": "17.5"},
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert "COC-881" in html and "after today" in html
    assert not Sample.objects.exists()


@pytest.mark.parametrize(
    ("typed", "unit", "shown"),
    [("2.1", "mg/L", "2.1 mg/L"), ("2.10", "mg/L", "2.10 mg/L"), ("100", "", "100")],
)
def test_a_sample_value_shows_as_entered(
    smo_client, smo_user, scheduled, typed, unit, shown
):
    inspection = record(scheduled, smo_user)
    response = smo_client.post(
        reverse("inspections:inspection_action", args=[inspection.pk, "sample"]),
        {
            **sample_fields(sampled_on=timezone.localdate().isoformat()),
            "parameter": "Total phosphorus",
            "value": typed,
            "unit": unit,
        },
    )
    assert response.status_code == 302
    sample = Sample.objects.get()
    assert sample.value == Decimal(typed)  # the number, for comparing
    page = smo_client.get(inspection.get_absolute_url()).content.decode()
    assert f'<td data-label="Value">{shown}'.strip() in page
    assert "2.1000" not in page and "1E+2" not in page
    assert str(sample) == f"Total phosphorus {shown} (CoC COC-881)"


def test_a_sample_recorded_without_its_typed_value_shows_the_number_plainly(
    smo_user, scheduled
):
    inspection = record(scheduled, smo_user)
    sample = services.sample_add(
        actor=smo_user, inspection=inspection, **sample_fields(value=Decimal("100"))
    )
    sample.refresh_from_db()
    assert sample.shown_value == "100"
    assert str(sample) == "E. coli 100 MPN/100 mL (CoC COC-881)"


def _jpeg_with_exif():
    buffer = io.BytesIO()
    image = Image.new("RGB", (40, 30), "red")
    exif = Image.Exif()
    exif[0x010F] = "SecretCam"
    image.save(buffer, format="JPEG", exif=exif)
    return SimpleUploadedFile("site.jpg", buffer.getvalue(), content_type="image/jpeg")


def test_photo_is_re_encoded_without_metadata_and_served_only_to_readers(
    smo_user, scheduled, client_as, settings, tmp_path
):
    settings.MEDIA_ROOT = tmp_path
    photo = services.photo_add(
        actor=smo_user, inspection=scheduled, upload=_jpeg_with_exif(), caption="Drain"
    )
    assert len(photo.original_sha256) == 64
    with photo.display.open("rb") as f:
        assert b"SecretCam" not in f.read()
    url = reverse("inspections:inspection_photo", args=[photo.pk])
    assert client_as("anonymous").get(url).status_code == 302
    assert client_as("attorney").get(url).status_code == 403
    response = client_as("clerk").get(url)
    assert response.status_code == 200 and response["Content-Type"] == "image/jpeg"


def test_a_file_that_is_not_an_image_is_refused(smo_user, scheduled):
    bad = SimpleUploadedFile("x.jpg", b"not an image", content_type="image/jpeg")
    with pytest.raises(ValidationError, match="not a photo"):
        services.photo_add(actor=smo_user, inspection=scheduled, upload=bad)


# --- access obstruction: case and warrant --------------------------------------
def test_refused_access_opens_an_access_case_linked_to_the_inspection(
    smo_user, scheduled
):
    inspection = record(scheduled, smo_user, "refused", "Manager refused entry")
    case = services.inspection_open_case(actor=smo_user, inspection=inspection)
    assert case.kind == CaseKind.ACCESS_OBSTRUCTION
    assert case.source == CaseSource.INSPECTION
    inspection.refresh_from_db()
    assert inspection.case == case
    assert case.events.filter(kind="inspection", rule_id="R-ACC-3").exists()


def test_case_can_still_be_linked_after_finalizing(smo_user, scheduled):
    inspection = record(scheduled, smo_user, "delayed", "Kept waiting 2 hours")
    inspection = services.inspection_finalize(actor=smo_user, inspection=inspection)
    case = services.inspection_open_case(actor=smo_user, inspection=inspection)
    assert Inspection.objects.get(pk=inspection.pk).case == case
    with pytest.raises(ValidationError, match="already"):
        services.inspection_open_case(actor=smo_user, inspection=inspection)


def test_granted_access_opens_no_access_case(smo_user, scheduled):
    inspection = record(scheduled, smo_user)
    with pytest.raises(ValidationError):
        services.inspection_open_case(actor=smo_user, inspection=inspection)


def test_warrant_application_runs_draft_filed_issued_executed(smo_user, scheduled):
    inspection = record(scheduled, smo_user, "refused", "Gate locked, owner refused")
    case = services.inspection_open_case(actor=smo_user, inspection=inspection)
    warrant = services.warrant_start(actor=smo_user, inspection=inspection)
    assert warrant.status == WarrantStatus.DRAFT and warrant.case == case
    with pytest.raises(Refused, match="probable-cause"):
        services.warrant_advance(
            actor=smo_user, warrant=warrant, transition="file", on=timezone.localdate()
        )
    services.warrant_update_draft(
        actor=smo_user,
        warrant=warrant,
        probable_cause="Dry-weather flow from the yard's outfall",
        court="Suffolk County District Court",
    )
    today = timezone.localdate()
    warrant = services.warrant_advance(
        actor=smo_user, warrant=warrant, transition="file", on=today
    )
    assert warrant.status == WarrantStatus.FILED
    with pytest.raises(Refused, match="not possible"):
        services.warrant_advance(
            actor=smo_user, warrant=warrant, transition="record_executed", on=today
        )
    warrant = services.warrant_advance(
        actor=smo_user, warrant=warrant, transition="record_issued", on=today
    )
    warrant = services.warrant_advance(
        actor=smo_user, warrant=warrant, transition="record_executed", on=today
    )
    assert warrant.status == WarrantStatus.EXECUTED
    assert case.events.filter(rule_id="R-ACC-4").count() >= 4


def test_warrant_denied_is_a_final_outcome(smo_user, scheduled):
    inspection = record(scheduled, smo_user, "refused", "Refused")
    warrant = services.warrant_start(
        actor=smo_user, inspection=inspection, probable_cause="PC", court="Court"
    )
    today = timezone.localdate()
    services.warrant_advance(
        actor=smo_user, warrant=warrant, transition="file", on=today
    )
    warrant = services.warrant_advance(
        actor=smo_user, warrant=warrant, transition="record_denied", on=today
    )
    assert warrant.status == WarrantStatus.DENIED
    with pytest.raises(Refused):
        services.warrant_advance(
            actor=smo_user, warrant=warrant, transition="record_issued", on=today
        )


def test_warrant_filed_in_the_future_or_before_the_visit_is_refused(
    smo_user, scheduled
):
    inspection = record(scheduled, smo_user, "refused", "Refused")
    warrant = services.warrant_start(
        actor=smo_user, inspection=inspection, probable_cause="PC", court="Court"
    )
    for day in (
        timezone.localdate() + dt.timedelta(days=1),
        timezone.localdate() - dt.timedelta(days=3),
    ):
        with pytest.raises(ValidationError):
            services.warrant_advance(
                actor=smo_user, warrant=warrant, transition="file", on=day
            )
    warrant.refresh_from_db()
    assert warrant.status == WarrantStatus.DRAFT


def test_warrant_is_refused_when_access_was_only_delayed(smo_user, scheduled):
    inspection = record(scheduled, smo_user, "delayed", "Waited")
    with pytest.raises(ValidationError, match="refused"):
        services.warrant_start(actor=smo_user, inspection=inspection)


def test_refused_inspection_page_offers_case_and_warrant(
    smo_client, smo_user, scheduled
):
    inspection = record(scheduled, smo_user, "refused", "Refused")
    html = smo_client.get(
        reverse("inspections:inspection_detail", args=[inspection.pk])
    ).content.decode()
    assert "Open a case" in html and "Start a warrant application" in html
    response = smo_client.post(
        reverse("inspections:inspection_action", args=[inspection.pk, "warrant"]),
        confirmed("warrant"),
    )
    assert response.status_code == 302
    assert inspection.warrant_applications.count() == 1


def test_opening_a_case_from_a_refused_inspection_lands_on_the_case_page(
    smo_client, smo_user, scheduled
):
    inspection = record(scheduled, smo_user, "refused", "Refused")
    response = smo_client.post(
        reverse("inspections:inspection_action", args=[inspection.pk, "open_case"])
    )
    inspection.refresh_from_db()
    assert response.status_code == 302
    assert response["Location"] == inspection.case.get_absolute_url()
    assert smo_client.get(response["Location"]).status_code == 200


# --- scheduling, calendar, timeline -----------------------------------------
def test_inspection_must_be_assigned_to_smo_staff(smo_user, clerk_user, premises):
    with pytest.raises(ValidationError) as exc:
        services.inspection_schedule(
            actor=smo_user,
            kind="routine",
            premises=premises,
            officer=clerk_user,
            scheduled_for=timezone.now(),
        )
    assert "officer" in exc.value.error_dict


def test_inspection_on_a_case_writes_its_events_on_the_timeline(smo_user, premises):
    case = case_open(actor=smo_user, source=CaseSource.PHONE, summary="Complaint")
    inspection = services.inspection_schedule(
        actor=smo_user,
        kind="complaint",
        premises=premises,
        officer=smo_user,
        scheduled_for=timezone.now() + dt.timedelta(days=1),
        case=case,
    )
    record(inspection, smo_user)
    events = CaseEvent.objects.filter(case=case, kind="inspection")
    assert events.count() == 2
    assert {e.to_status for e in events} >= {"recorded"}


def test_ical_events_lists_only_that_officers_scheduled_inspections(
    smo_user, premises, scheduled
):
    from kernel.roles import Role
    from tests.conftest import make_user

    other = make_user("smo2", Role.SMO)
    services.inspection_schedule(
        actor=smo_user,
        kind="routine",
        premises=premises,
        officer=other,
        scheduled_for=timezone.now() + dt.timedelta(days=3),
    )
    events = ical_events(smo_user)
    assert [e["uid"] for e in events] == [f"inspection-{scheduled.pk}@poquott-ms4"]
    event = events[0]
    assert set(event) == {"uid", "start", "end", "summary", "description", "url"}
    # A path: the feed's writer makes it absolute on the feed's address.
    assert event["url"] == reverse("inspections:inspection_detail", args=[scheduled.pk])
    assert event["end"] - event["start"] == dt.timedelta(hours=1)
    assert "1 Shore Road" in event["summary"]


def test_calendar_page_shows_upcoming_for_the_officer(smo_client, scheduled):
    html = smo_client.get(reverse("inspections:calendar")).content.decode()
    assert "1 Shore Road" in html


def test_schedule_form_requires_premises_or_facility_and_keeps_input(smo_client):
    response = smo_client.post(
        reverse("inspections:inspection_new"),
        {"kind": "routine", "purpose": "Annual check", "scheduled_for": ""},
    )
    assert response.status_code == 200
    assert "Annual check" in response.content.decode()
    assert not Inspection.objects.exists()
