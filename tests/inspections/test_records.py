"""Facilities (R-DEF-1, R-PRO-5, R-IND-1), monitoring equipment (R-ACC-2), BMP
requirements (R-BMP-1), outfalls (R-DEF-2) and screening, dye tests (R-PRO-4),
SMO discharge approvals (R-PRO-3), the case panel and the demo."""

import datetime as dt
import io
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.template import Context, Template
from django.test import RequestFactory
from django.urls import reverse
from django.utils import timezone

from cases.models import Case, CaseSource, Outfall
from cases.services import case_open
from deadlines.models import Deadline
from inspections import services
from inspections.models import (
    DischargeApproval,
    Facility,
    MonitoringEquipment,
    OutfallScreening,
)
from inspections.selectors import approvals_in_force

from .conftest import at

pytestmark = pytest.mark.django_db


# --- facilities ---------------------------------------------------------------
def test_construction_permit_below_an_eighth_acre_is_refused(
    smo_user, construction_fields
):
    construction_fields["disturbed_acres"] = Decimal("0.124")
    with pytest.raises(ValidationError) as exc:
        services.facility_save(actor=smo_user, **construction_fields)
    assert "1/8 acre" in str(exc.value.error_dict["disturbed_acres"])
    assert not Facility.objects.exists()


def test_construction_permit_of_exactly_an_eighth_acre_is_accepted(
    smo_user, construction_fields
):
    facility = services.facility_save(actor=smo_user, **construction_fields)
    assert facility.disturbed_acres == Decimal("0.125")


def test_construction_permit_without_acreage_is_refused(smo_user, construction_fields):
    construction_fields["disturbed_acres"] = None
    with pytest.raises(ValidationError):
        services.facility_save(actor=smo_user, **construction_fields)


def test_facility_form_shows_the_acreage_message_and_keeps_input(
    smo_client, construction_fields
):
    data = {**construction_fields, "premises": construction_fields["premises"].pk}
    data["disturbed_acres"] = "0.1"
    response = smo_client.post(reverse("inspections:facility_new"), data)
    html = response.content.decode()
    assert response.status_code == 200
    assert "not construction activity" in html and "Harbor Heights" in html


def test_written_ms4_approval_needs_date_and_reference(smo_user, yard):
    with pytest.raises(ValidationError) as exc:
        services.facility_save(
            actor=smo_user,
            premises=yard,
            name="X",
            permit_type="industrial",
            permit_number="N1",
            permit_issued_on=dt.date(2025, 1, 1),
            ms4_approval_on=dt.date(2025, 1, 2),
        )
    assert "ms4_approval_reference" in exc.value.error_dict


def test_proof_of_compliance_is_requested_then_filed(smo_user, facility):
    req = services.proof_request_create(
        actor=smo_user,
        facility=facility,
        requested_on=timezone.localdate(),
        what_is_required="Annual SWPPP inspection report",
    )
    req = services.proof_record(
        actor=smo_user,
        request=req,
        received_on=timezone.localdate(),
        description="SWPPP report 2026",
        accepted=True,
    )
    assert req.accepted and req.proof_received_on
    with pytest.raises(ValidationError, match="already"):
        services.proof_record(
            actor=smo_user,
            request=req,
            received_on=timezone.localdate(),
            description="again",
            accepted=True,
        )


# --- monitoring equipment -----------------------------------------------------
@pytest.fixture
def meter(smo_user, facility):
    return services.equipment_create(
        actor=smo_user,
        facility=facility,
        kind=MonitoringEquipment.Kind.FACILITY_REQUIRED,
        description="Flow meter",
        calibration_interval_months=6,
    )


def test_calibration_opens_recalibration_deadline_and_meets_the_previous(
    smo_user, meter
):
    services.calibration_record(
        actor=smo_user,
        equipment=meter,
        calibrated_on=dt.date(2026, 2, 27),
        calibrated_by="Acme Instruments",
    )
    first = Deadline.objects.get(rule_id="R-ACC-2")
    # 6 months after Feb 27 is Aug 27, 2026 (a Thursday).
    assert first.due_date == dt.date(2026, 8, 27)
    services.calibration_record(
        actor=smo_user,
        equipment=meter,
        calibrated_on=dt.date(2026, 8, 20),
        calibrated_by="Acme Instruments",
    )
    first.refresh_from_db()
    assert first.status == "met" and first.met_on == dt.date(2026, 8, 20)
    latest = Deadline.objects.get(rule_id="R-ACC-2", status="open")
    assert latest.due_date == dt.date(2027, 2, 22)  # Feb 20, 2027 is a Saturday
    assert latest.params == {"months": 6}


def test_calibration_in_the_future_is_refused(smo_user, meter):
    with pytest.raises(ValidationError) as exc:
        services.calibration_record(
            actor=smo_user,
            equipment=meter,
            calibrated_on=timezone.localdate() + dt.timedelta(days=1),
            calibrated_by="Acme",
        )
    assert "calibrated_on" in exc.value.error_dict
    assert not Deadline.objects.exists()


def test_calibration_earlier_than_the_last_is_refused(smo_user, meter):
    services.calibration_record(
        actor=smo_user,
        equipment=meter,
        calibrated_on=dt.date(2026, 5, 1),
        calibrated_by="A",
    )
    with pytest.raises(ValidationError):
        services.calibration_record(
            actor=smo_user,
            equipment=meter,
            calibrated_on=dt.date(2026, 4, 1),
            calibrated_by="A",
        )
    assert meter.calibrations.count() == 1


# --- BMPs ---------------------------------------------------------------------
def test_bmp_requirement_due_date_rolls_past_a_weekend(smo_user, yard, facility):
    bmp = services.bmp_require(
        actor=smo_user,
        premises=yard,
        facility=facility,
        practice_type="structural",
        description="Oil-water separator on the wash pad",
        required_on=dt.date(2026, 10, 1),
        days_to_implement=30,
    )
    deadline = Deadline.objects.get(rule_id="R-BMP-1")
    # Oct 31, 2026 is a Saturday → Monday Nov 2.
    assert deadline.due_date == dt.date(2026, 11, 2)
    services.bmp_verify(
        actor=smo_user, bmp=bmp, verified_on=dt.date(2026, 11, 2), notes="Installed"
    )
    deadline.refresh_from_db()
    assert deadline.status == "met"


def test_bmp_satisfied_by_a_valid_industrial_permit_ends_the_deadline(
    smo_user, yard, facility
):
    bmp = services.bmp_require(
        actor=smo_user,
        premises=yard,
        facility=facility,
        practice_type="nonstructural",
        description="Good housekeeping",
        required_on=timezone.localdate(),
    )
    bmp = services.bmp_mark_satisfied_by_permit(actor=smo_user, bmp=bmp)
    assert bmp.satisfied_by_permit and bmp.is_satisfied
    assert Deadline.objects.get(rule_id="R-BMP-1").status == "ended"


def test_bmp_not_satisfied_by_a_construction_permit(smo_user, construction_fields):
    facility = services.facility_save(actor=smo_user, **construction_fields)
    bmp = services.bmp_require(
        actor=smo_user,
        premises=facility.premises,
        facility=facility,
        practice_type="structural",
        description="Silt fence",
        required_on=timezone.localdate(),
    )
    with pytest.raises(ValidationError, match="industrial"):
        services.bmp_mark_satisfied_by_permit(actor=smo_user, bmp=bmp)


# --- outfalls -----------------------------------------------------------------
def test_tmdl_approval_date_opens_the_six_month_program_deadline(smo_user, outfall):
    services.outfall_save(
        actor=smo_user,
        outfall=outfall,
        has_tmdl=True,
        tmdl_approved_on=dt.date(2026, 3, 31),
    )
    deadline = Deadline.objects.get(rule_id="R-DEF-2")
    # Sep 30, 2026 (Wednesday): six months, month-end kept.
    assert deadline.due_date == dt.date(2026, 9, 30)
    # Saving again changes nothing; correcting the date replaces the deadline.
    services.outfall_save(actor=smo_user, outfall=outfall, receiving_water="PJ Harbor")
    assert Deadline.objects.filter(rule_id="R-DEF-2").count() == 1
    services.outfall_save(
        actor=smo_user, outfall=outfall, tmdl_approved_on=dt.date(2026, 4, 4)
    )
    corrected = Deadline.objects.get(rule_id="R-DEF-2", status="open")
    assert corrected.due_date == dt.date(2026, 10, 5)  # Oct 4, 2026 is a Sunday
    assert corrected.assigned_to == smo_user
    old = Deadline.objects.get(rule_id="R-DEF-2", status="replaced")
    assert old.replaced_by == corrected
    # Removing the date ends the clock; recording it again starts a new one.
    services.outfall_save(
        actor=smo_user, outfall=outfall, has_tmdl=True, tmdl_approved_on=None
    )
    assert not Deadline.objects.filter(rule_id="R-DEF-2", status="open").exists()
    assert Deadline.objects.get(rule_id="R-DEF-2", status="ended")


def test_tmdl_date_without_the_tmdl_flag_is_refused(smo_user, outfall):
    with pytest.raises(ValidationError):
        services.outfall_save(
            actor=smo_user, outfall=outfall, tmdl_approved_on=dt.date(2026, 3, 31)
        )
    assert not Deadline.objects.exists()


def screening(user, outfall, **extra):
    fields = {
        "screened_at": timezone.now() - dt.timedelta(hours=1),
        "hours_since_rain": 96,
        "flow_present": True,
        "flow_rate": "trickle",
        "odour": "strong",
        "odour_description": "sewage",
        "severity": "suspect",
    }
    fields.update(extra)
    return services.screening_record(actor=user, outfall=outfall, **fields)


def test_suspicious_screening_opens_a_case_linked_to_the_outfall(smo_user, outfall):
    s = screening(smo_user, outfall)
    assert s.is_suspicious
    case = services.screening_open_case(actor=smo_user, screening=s)
    assert case.outfall == outfall and case.source == CaseSource.OUTFALL_SCREENING
    assert case.events.filter(kind="outfall").exists()
    with pytest.raises(ValidationError, match="already"):
        services.screening_open_case(actor=smo_user, screening=s)


def test_dry_weather_flow_with_an_indicator_is_suspicious_even_if_potential(
    smo_user, outfall
):
    s = screening(smo_user, outfall, severity="potential", odour="faint")
    assert s.is_suspicious


def test_clean_screening_opens_no_case(smo_user, outfall):
    s = screening(
        smo_user,
        outfall,
        flow_present=False,
        flow_rate="none",
        odour="none",
        odour_description="",
        severity="none",
    )
    assert not s.is_suspicious
    with pytest.raises(ValidationError):
        services.screening_open_case(actor=smo_user, screening=s)
    assert not Case.objects.exists()


def test_screening_in_the_future_or_inconsistent_is_refused(smo_user, outfall):
    with pytest.raises(ValidationError):
        screening(smo_user, outfall, screened_at=timezone.now() + dt.timedelta(hours=1))
    with pytest.raises(ValidationError):
        screening(smo_user, outfall, flow_present=False)
    with pytest.raises(ValidationError):
        screening(smo_user, outfall, severity="none")
    assert not OutfallScreening.objects.exists()


def test_outfall_page_shows_screenings_and_cases(smo_client, smo_user, outfall):
    s = screening(smo_user, outfall)
    case = services.screening_open_case(actor=smo_user, screening=s)
    html = smo_client.get(
        reverse("inspections:outfall_detail", args=[outfall.pk])
    ).content.decode()
    assert case.number in html and "Suspect" in html


def test_screen_outfall_into_a_case_through_the_pages(smo_client, outfall):
    response = smo_client.post(
        reverse("inspections:screening_new", args=[outfall.pk]),
        {
            "screened_at": timezone.localtime(
                timezone.now() - dt.timedelta(hours=1)
            ).strftime("%Y-%m-%dT%H:%M"),
            "flow_present": "on",
            "flow_rate": "moderate",
            "colour": "clear",
            "odour": "none",
            "turbidity": "none",
            "floatables": "none",
            "deposits_stains": "none",
            "vegetation": "none",
            "pipe_benthic_growth": "none",
            "pool_quality": "none",
            "severity": "obvious",
        },
    )
    s = OutfallScreening.objects.get()
    assert response.status_code == 302
    response = smo_client.post(reverse("inspections:screening_detail", args=[s.pk]))
    assert response.status_code == 302
    assert Case.objects.get().outfall == outfall


# --- dye tests and approvals -----------------------------------------------
def test_dye_test_notice_after_the_test_is_recorded_and_flagged(
    clock, smo_user, premises
):
    clock(at(2026, 11, 5, 15))
    notice = services.dye_test_record(
        actor=smo_user,
        premises=premises,
        notified_at=at(2026, 11, 5, 11),
        notified_by="Plumber J. Doe",
        test_at=at(2026, 11, 5, 10),
    )
    assert notice.notice_after_test
    timely = services.dye_test_record(
        actor=smo_user,
        premises=premises,
        notified_at=at(2026, 11, 5, 9),
        notified_by="Plumber J. Doe",
        test_at=at(2026, 11, 6, 10),
    )
    assert not timely.notice_after_test


def test_dye_test_notice_in_the_future_is_refused(clock, smo_user, premises):
    clock(at(2026, 11, 5, 15))
    with pytest.raises(ValidationError):
        services.dye_test_record(
            actor=smo_user,
            premises=premises,
            notified_at=at(2026, 11, 6, 9),
            notified_by="X",
            test_at=at(2026, 11, 6, 10),
        )


def approval(user, premises, starts, ends, ref="A-1"):
    return services.approval_record(
        actor=user,
        premises=premises,
        reference=ref,
        harm_prevented="Basement flooding",
        discharge_description="Pumped groundwater",
        starts_on=starts,
        ends_on=ends,
        conditions="Filter bag on the pump discharge",
        approved_on=dt.date(2026, 6, 1),
    )


def test_approvals_in_force_exclude_expired_and_future_ones(smo_user, premises, yard):
    current = approval(smo_user, premises, dt.date(2026, 6, 1), dt.date(2026, 6, 30))
    approval(smo_user, premises, dt.date(2026, 5, 1), dt.date(2026, 5, 31), "A-2")
    approval(smo_user, yard, dt.date(2026, 6, 1), dt.date(2026, 6, 30), "A-3")
    on = dt.date(2026, 6, 30)
    assert list(approvals_in_force(on=on, premises=premises)) == [current]
    assert approvals_in_force(on=on).count() == 2
    assert not approvals_in_force(on=dt.date(2026, 7, 1), premises=premises).exists()


def test_approval_ending_before_it_starts_is_refused(smo_user, premises):
    with pytest.raises(ValidationError) as exc:
        approval(smo_user, premises, dt.date(2026, 6, 10), dt.date(2026, 6, 1))
    assert "ends_on" in exc.value.error_dict
    assert not DischargeApproval.objects.exists()


# --- the case panel and the demo -------------------------------------------
def test_case_panel_lists_the_cases_field_work_with_links(
    smo_user, clerk_user, outfall
):
    case = case_open(actor=smo_user, source=CaseSource.PHONE, summary="Odour")
    s = screening(smo_user, outfall)
    services.screening_open_case(actor=smo_user, screening=s)
    s.refresh_from_db()
    template = Template("{% load inspections_tags %}{% case_inspections_panel case %}")
    request = RequestFactory().get("/")
    request.user = clerk_user
    html = template.render(Context({"request": request, "case": s.case}))
    assert reverse("inspections:screening_detail", args=[s.pk]) in html
    html = template.render(Context({"request": request, "case": case}))
    assert "No inspections" in html


def test_demo_is_idempotent(db):
    out = io.StringIO()
    call_command("load_demo_data", stdout=out)
    counts = (Facility.objects.count(), Outfall.objects.count())
    call_command("load_demo_data", stdout=out)
    assert (Facility.objects.count(), Outfall.objects.count()) == counts == (1, 2)


@pytest.mark.parametrize(
    "url_name", ["inspections:inspection_new", "inspections:bmp_new"]
)
def test_a_form_opened_from_premises_or_a_facility_has_it_chosen(
    client_as, url_name, premises, facility
):
    """The "Schedule an inspection" and "Require BMPs" links on a premises or a
    facility open the form with that record already chosen."""
    import re

    from django.urls import reverse

    client = client_as("smo")
    html = client.get(
        reverse(url_name), {"premises": premises.pk, "facility": facility.pk}
    ).content.decode()
    for name, pk in (("premises", premises.pk), ("facility", facility.pk)):
        select = re.search(rf'<select name="{name}".*?</select>', html, re.S)
        assert select, name
        assert re.search(rf'<option value="{pk}" selected>', select.group(0)), name
