"""Field work on the workflow kernel: every step of an inspection, a warrant
application and a spill is offered on its page (kernel.workflow.actions), taken
through its step view, refused with words and the form kept; each record and
each premises has its own chronology, with or without a case (issue 14)."""

import datetime as dt

import pytest
from django.contrib.contenttypes.models import ContentType
from django.urls import reverse
from django.utils import timezone

from cases.models import CaseSource
from cases.services import case_open
from inspections import services
from inspections.models import InspectionStatus, SpillStatus, WarrantStatus
from kernel.models import CaseEvent
from kernel.workflow import Refused, actions
from tests.steps import confirmed

from .conftest import at, record

pytestmark = pytest.mark.django_db


def offered(record, user):
    return {a.name: a for a in actions(record, user)}


def html_of(client, url):
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


# --- a scheduled inspection can be recorded or cancelled ---------------------
def test_scheduled_inspection_offers_record_and_cancel_with_their_forms(
    smo_client, smo_user, scheduled
):
    steps = offered(scheduled, smo_user)
    assert steps["record_visit"].enabled and steps["cancel"].enabled
    html = html_of(smo_client, scheduled.get_absolute_url())
    assert 'data-step="record_visit"' in html and 'data-step="cancel"' in html
    assert "When the visit took place" in html and "Why it is cancelled" in html


def test_recording_the_visit_through_the_step_view(smo_client, smo_user, scheduled):
    url = reverse("inspections:inspection_step", args=[scheduled.pk, "record_visit"])
    when = timezone.localtime() - dt.timedelta(hours=1)
    response = smo_client.post(
        url,
        {
            "expected_status": "scheduled",
            "record_visit-performed_at": when.strftime("%Y-%m-%dT%H:%M"),
            "record_visit-attendees": "S. Officer",
            "record_visit-access_outcome": "refused",
            "record_visit-access_notes": "Owner refused at the gate",
        },
        follow=True,
    )
    scheduled.refresh_from_db()
    assert scheduled.status == InspectionStatus.RECORDED
    html = response.content.decode()
    assert "visit recorded — Access refused" in html
    assert "Start a warrant application" in html


def test_a_refused_step_re_renders_the_page_with_the_input_and_the_error(
    smo_client, scheduled
):
    url = reverse("inspections:inspection_step", args=[scheduled.pk, "record_visit"])
    response = smo_client.post(
        url,
        {
            "expected_status": "scheduled",
            "record_visit-attendees": "S. Officer and J. Tech",
            "record_visit-access_outcome": "granted",
        },
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert "S. Officer and J. Tech" in html and "Please correct" in html
    scheduled.refresh_from_db()
    assert scheduled.status == InspectionStatus.SCHEDULED


def test_cancel_without_a_reason_keeps_the_form_and_says_why(smo_client, scheduled):
    url = reverse("inspections:inspection_step", args=[scheduled.pk, "cancel"])
    response = smo_client.post(url, {"expected_status": "scheduled"})
    assert response.status_code == 200
    scheduled.refresh_from_db()
    assert scheduled.status == InspectionStatus.SCHEDULED


def test_a_stale_page_is_answered_with_the_record_as_it_is(
    smo_client, smo_user, scheduled
):
    services.inspection_cancel(actor=smo_user, inspection=scheduled, reason="Moved")
    url = reverse("inspections:inspection_step", args=[scheduled.pk, "cancel"])
    response = smo_client.post(
        url, {"expected_status": "scheduled", "cancel-reason": "Again"}
    )
    assert response.status_code == 200
    assert "changed by someone else" in response.content.decode()


def test_unknown_step_is_404_and_the_clerk_may_not_take_one(client_as, scheduled):
    url = reverse("inspections:inspection_step", args=[scheduled.pk, "nope"])
    assert client_as("smo").post(url).status_code == 404
    url = reverse("inspections:inspection_step", args=[scheduled.pk, "cancel"])
    assert client_as("clerk").post(url, {"cancel-reason": "x"}).status_code == 403


# --- the warrant's steps are offered -------------------------------------------
def test_warrant_offers_file_then_issued_or_denied_then_executed(
    smo_client, smo_user, scheduled
):
    inspection = record(scheduled, smo_user, "refused", "Gate locked")
    warrant = services.warrant_start(actor=smo_user, inspection=inspection)
    assert set(offered(warrant, smo_user)) == {"file"}
    base = reverse("inspections:warrant_detail", args=[warrant.pk])
    assert 'data-step="file"' in html_of(smo_client, base)
    today = timezone.localdate().isoformat()
    smo_client.post(
        base + "step/file/",
        {
            "expected_status": "draft",
            "file-probable_cause": "Dry-weather flow from the yard",
            "file-court": "Suffolk County District Court",
            "file-on": today,
        },
    )
    warrant.refresh_from_db()
    assert warrant.status == WarrantStatus.FILED
    assert warrant.court == "Suffolk County District Court"
    html = html_of(smo_client, base)
    assert 'data-step="record_issued"' in html and 'data-step="record_denied"' in html
    smo_client.post(
        base + "step/record_issued/",
        {"expected_status": "filed", "record_issued-on": today},
    )
    assert 'data-step="record_executed"' in html_of(smo_client, base)
    smo_client.post(
        base + "step/record_executed/",
        {"expected_status": "issued", "record_executed-on": today},
    )
    warrant.refresh_from_db()
    assert warrant.status == WarrantStatus.EXECUTED
    html = html_of(smo_client, base)
    assert "Schedule the inspection under the warrant" in html
    chronology = list(
        CaseEvent.objects.filter(
            content_type=ContentType.objects.get_for_model(warrant),
            object_id=warrant.pk,
        ).values_list("summary", flat=True)
    )
    assert len(chronology) == 4  # started, filed, issued, executed
    assert all(line in html for line in chronology)


def test_warrant_denied_step_is_taken_from_its_page(smo_client, smo_user, scheduled):
    inspection = record(scheduled, smo_user, "refused", "Refused")
    warrant = services.warrant_start(
        actor=smo_user, inspection=inspection, probable_cause="PC", court="Court"
    )
    services.warrant_advance(
        actor=smo_user, warrant=warrant, transition="file", on=timezone.localdate()
    )
    base = reverse("inspections:warrant_detail", args=[warrant.pk])
    response = smo_client.post(
        base + "step/record_denied/",
        {"expected_status": "filed", "record_denied-on": timezone.localdate()},
        follow=True,
    )
    warrant.refresh_from_db()
    assert warrant.status == WarrantStatus.DENIED
    assert "Search warrant denied" in response.content.decode()


# --- the spill's written confirmation is offered -------------------------------
def _phone_spill(user, premises):
    return services.spill_record(
        actor=user,
        premises=premises,
        reported_by="Pat Quinn",
        known_at=at(2026, 12, 18, 9),
        material="Wash water",
        hazardous=False,
        containment_steps="Boom",
        cleanup_steps="Vacuum truck",
        notice_method="telephone",
        notice_at=at(2026, 12, 18, 11),
    )


def test_spill_offers_the_written_confirmation_and_close_says_what_first(
    clock, client, smo_user, yard
):
    clock(at(2026, 12, 18, 16))
    client.force_login(smo_user)
    spill = _phone_spill(smo_user, yard)
    steps = offered(spill, smo_user)
    assert steps["record_confirmation"].enabled
    assert not steps["close"].enabled
    assert steps["close"].blocked_by[0].link_text == "Record the written confirmation"
    assert not steps["mark_confirmation_missing"].enabled  # not overdue yet
    html = html_of(client, spill.get_absolute_url())
    assert 'data-step="record_confirmation"' in html
    assert "Written confirmation mailed on (postmark)" in html
    base = spill.get_absolute_url() + "step/"
    client.post(
        base + "record_confirmation/",
        {
            "expected_status": "recorded",
            "record_confirmation-confirmation_mailed_on": "2026-12-18",
        },
    )
    spill.refresh_from_db()
    assert spill.status == SpillStatus.CONFIRMED
    client.post(base + "close/", confirmed("close", expected_status="confirmed"))
    spill.refresh_from_db()
    assert spill.status == SpillStatus.CLOSED
    html = html_of(client, spill.get_absolute_url())
    for words in (
        "recorded: Wash water",
        "mailed Friday, December 18, 2026 — on time",
        "closed",
    ):
        assert words in html


# --- a case without premises: the refusal says how to add them -----------------
def test_scheduling_from_a_case_without_premises_is_refused_with_the_way_out(
    smo_user,
):
    case = case_open(actor=smo_user, source=CaseSource.WEB, summary="Suds")
    with pytest.raises(Refused) as refused:
        services.inspection_schedule(
            actor=smo_user,
            kind="complaint",
            premises=None,
            officer=smo_user,
            scheduled_for=timezone.now() + dt.timedelta(days=1),
            case=case,
        )
    (reason,) = refused.value.reasons
    assert reason.url == reverse("cases:edit", args=[case.number])
    assert reason.link_text == "Add the premises"


def test_the_schedule_form_shows_the_refusal_link_and_keeps_the_input(
    smo_client, smo_user
):
    case = case_open(actor=smo_user, source=CaseSource.WEB, summary="Suds")
    response = smo_client.post(
        reverse("inspections:inspection_new") + f"?case={case.pk}",
        {
            "kind": "complaint",
            "case": case.pk,
            "officer": smo_user.pk,
            "scheduled_for": "2026-12-30T10:00",
            "purpose": "Look at the wash bay",
        },
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert "Look at the wash bay" in html
    assert f'href="{reverse("cases:edit", args=[case.number])}"' in html
    assert "Add the premises" in html


def test_an_inspection_from_a_case_with_premises_is_at_the_case_premises(
    smo_user, premises
):
    case = case_open(
        actor=smo_user, source=CaseSource.PHONE, summary="Odour", premises=premises
    )
    inspection = services.inspection_schedule(
        actor=smo_user,
        kind="complaint",
        premises=None,
        officer=smo_user,
        scheduled_for=timezone.now() + dt.timedelta(days=1),
        case=case,
    )
    assert inspection.premises == premises


def test_the_case_panel_offers_scheduling_an_inspection(smo_client, smo_user):
    case = case_open(actor=smo_user, source=CaseSource.WEB, summary="Suds")
    html = html_of(smo_client, case.get_absolute_url())
    assert f"{reverse('inspections:inspection_new')}?case={case.pk}" in html


# --- every record and every premises has a chronology --------------------------
def test_refused_access_at_premises_without_a_case_is_on_the_premises_page(
    smo_client, smo_user, premises
):
    inspection = services.inspection_schedule(
        actor=smo_user,
        kind="routine",
        premises=premises,
        officer=smo_user,
        scheduled_for=timezone.now() - dt.timedelta(hours=2),
    )
    record(inspection, smo_user, "refused", "Owner would not open the gate")
    events = CaseEvent.objects.filter(premises=premises, case=None)
    assert events.count() == 2
    assert events.last().to_status == "recorded"
    inspection_html = html_of(smo_client, inspection.get_absolute_url())
    premises_url = reverse("inspections:premises_detail", args=[premises.pk])
    assert premises_url in inspection_html
    html = html_of(smo_client, premises_url)
    assert f"Inspection {inspection.pk} recorded: Access refused" in html
    assert "Owner would not open the gate" in html
    assert "Routine inspection scheduled" in html


def test_samples_and_photos_are_on_the_inspection_chronology(
    smo_client, smo_user, scheduled
):
    inspection = record(scheduled, smo_user)
    services.sample_add(
        actor=smo_user,
        inspection=inspection,
        parameter="pH",
        chain_of_custody_number="COC-9",
        sampled_on=timezone.localdate(),
    )
    html = html_of(smo_client, inspection.get_absolute_url())
    assert f"Sample recorded on inspection {inspection.pk}" in html
    assert 'data-testid="chronology"' in html


def test_premises_page_answers_readers_only(client_as, premises):
    url = reverse("inspections:premises_detail", args=[premises.pk])
    assert client_as("smo").get(url).status_code == 200
    assert client_as("clerk").get(url).status_code == 200
    assert client_as("attorney").get(url).status_code == 403
    assert client_as("anonymous").get(url).status_code == 302
