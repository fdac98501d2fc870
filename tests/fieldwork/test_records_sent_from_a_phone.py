"""The inspector's day offline, the office's side (issue 31): the day's work a
phone downloads, and the records it sends back, each stored once by its key,
applied through the office's own services, or kept for the SMO when the office
changed the item since the download; bad input refused field by field with
nothing kept."""

import datetime as dt
import json
import uuid

import pytest
from django.urls import reverse
from django.utils import timezone

from cases.models import CaseParty, Party
from fieldwork.models import FieldRecord
from inspections import services as inspection_svc
from inspections.models import Inspection, InspectionStatus, OutfallScreening, Sample
from kernel.models import CaseEvent

pytestmark = pytest.mark.django_db

DAY = reverse("fieldwork:day")
RECEIVE = reverse("fieldwork:receive")


def schedule(actor, premises, officer, when, **extra):
    return inspection_svc.inspection_schedule(
        actor=actor,
        kind=Inspection.Kind.ROUTINE,
        premises=premises,
        officer=officer,
        scheduled_for=when,
        **extra,
    )


def download(client):
    response = client.get(DAY)
    assert response.status_code == 200
    return response.json()


def send(client, **record):
    return client.post(RECEIVE, json.dumps(record), content_type="application/json")


def visit(item, *, key=None, performed_at=None, **fields):
    performed_at = performed_at or timezone.now() - dt.timedelta(minutes=30)
    return {
        "key": key or str(uuid.uuid4()),
        "kind": "visit",
        "item": item["id"],
        "version": item["version"],
        "recorded_on_site_at": (timezone.now() - dt.timedelta(minutes=20)).isoformat(),
        "fields": {
            "performed_at": performed_at.isoformat(),
            "attendees": "S. Officer",
            "access_outcome": "granted",
            "access_notes": "",
            "findings": "Floor drain piped to the street.",
            **fields,
        },
    }


def screening(item, *, key=None, **fields):
    return {
        "key": key or str(uuid.uuid4()),
        "kind": "screening",
        "item": item["id"],
        "version": item["version"],
        "recorded_on_site_at": (timezone.now() - dt.timedelta(minutes=5)).isoformat(),
        "fields": {
            "screened_at": (timezone.now() - dt.timedelta(minutes=10)).isoformat(),
            "hours_since_rain": 96,
            "flow_present": True,
            "flow_rate": "trickle",
            "colour": "faint",
            "odour": "none",
            "turbidity": "none",
            "floatables": "none",
            "deposits_stains": "none",
            "vegetation": "none",
            "pipe_benthic_growth": "none",
            "pool_quality": "none",
            "colour_description": "grey",
            "odour_description": "",
            "severity": "potential",
            "notes": "Trickle in dry weather.",
            **fields,
        },
    }


# --- the download ------------------------------------------------------------------
def test_the_inspector_downloads_their_own_work_of_the_next_days_only(
    client,
    smo_user,
    other_inspector,
    premises,
    outfall,
    todays,
):
    now = timezone.now()
    schedule(smo_user, premises, other_inspector, now + dt.timedelta(hours=2))
    schedule(smo_user, premises, smo_user, now + dt.timedelta(days=10))
    cancelled = schedule(smo_user, premises, smo_user, now + dt.timedelta(hours=3))
    inspection_svc.inspection_cancel(
        actor=smo_user, inspection=cancelled, reason="Owner away."
    )
    yesterday = schedule(smo_user, premises, smo_user, now - dt.timedelta(days=1))
    case_party = Party.objects.create(name="Pat Owner")
    client.force_login(smo_user)

    day = download(client)

    assert [i["id"] for i in day["inspections"]] == [yesterday.pk, todays.pk]
    item = day["inspections"][1]
    assert item["premises"] == premises.address
    assert item["version"].startswith("scheduled|")
    assert [o["code"] for o in day["outfalls"]] == [outfall.code]
    assert day["outfalls"][0]["last_screening"] is None
    assert {"value": "refused", "label": "Access refused"} in day["choices"][
        "access_outcome"
    ]
    assert day["inspector"] == "Smo Officer"
    assert case_party.name not in json.dumps(day)  # not a party of these cases


def test_the_download_carries_the_case_parties_and_the_last_visit(
    client,
    smo_user,
    premises,
    todays,
):
    from cases.models import CaseKind, CaseSource
    from cases.services import case_open

    case = case_open(
        actor=smo_user,
        source=CaseSource.OBSERVATION,
        kind=CaseKind.ILLICIT_DISCHARGE,
        summary="Wash water to the drain",
        premises=premises,
    )
    CaseParty.objects.create(
        case=case,
        party=Party.objects.create(name="Pat Owner"),
        role=CaseParty.Role.OWNER,
    )
    earlier = schedule(smo_user, premises, smo_user, timezone.now(), case=case)
    inspection_svc.inspection_record(
        actor=smo_user,
        inspection=earlier,
        performed_at=timezone.now() - dt.timedelta(days=20),
        attendees="S. Officer",
        access_outcome="granted",
        findings="Hose from the basement to the gutter.",
    )
    follow_up = schedule(
        smo_user, premises, smo_user, timezone.now() + dt.timedelta(hours=4), case=case
    )
    client.force_login(smo_user)

    item = next(i for i in download(client)["inspections"] if i["id"] == follow_up.pk)

    assert item["case"] == case.number
    assert item["parties"] == [{"name": "Pat Owner", "role": "Owner"}]
    assert item["last_visit"]["findings"] == "Hose from the basement to the gutter."


@pytest.mark.parametrize("who", ["clerk", "no_role", "signed_out"])
def test_only_smo_staff_download_or_send(
    client, who, clerk_user, no_role_user, smo_user, todays
):
    if who == "clerk":
        client.force_login(clerk_user)
    elif who == "no_role":
        client.force_login(no_role_user)
    item = {"id": todays.pk, "version": "x"}
    expected = 401 if who == "signed_out" else 403
    assert client.get(DAY).status_code == expected
    assert send(client, **visit(item)).status_code == expected
    assert not FieldRecord.objects.exists()
    assert Inspection.objects.get(pk=todays.pk).status == InspectionStatus.SCHEDULED


# --- a record sent ------------------------------------------------------------------
def test_a_visit_sent_twice_is_recorded_once_with_both_times_in_the_chronology(
    client, smo_user, todays
):
    client.force_login(smo_user)
    item = download(client)["inspections"][0]
    record = visit(item, samples=[{"parameter": "E. coli", "bottle": "B-0142"}])

    first = send(client, **record)
    again = send(client, **record)

    assert first.status_code == again.status_code == 200
    assert first.json() == again.json()
    assert first.json()["state"] == "applied"
    inspection = Inspection.objects.get(pk=todays.pk)
    assert inspection.status == InspectionStatus.RECORDED
    assert inspection.findings == "Floor drain piped to the street."
    assert FieldRecord.objects.count() == 1
    assert [s.chain_of_custody_number for s in Sample.objects.all()] == ["B-0142"]
    entry = CaseEvent.objects.filter(
        summary__startswith=f"Inspection {todays.pk} recorded"
    )
    assert entry.count() == 1
    assert "recorded on site" in entry.get().summary
    assert "(offline), received" in entry.get().summary


def test_a_screening_sent_twice_is_stored_once(client, smo_user, outfall):
    client.force_login(smo_user)
    item = download(client)["outfalls"][0]
    record = screening(item)
    assert send(client, **record).json()["state"] == "applied"
    assert send(client, **record).json()["state"] == "applied"
    stored = OutfallScreening.objects.get()
    assert stored.flow_rate == "trickle" and stored.screened_by == smo_user
    assert FieldRecord.objects.get().screening == stored


def test_another_inspectors_inspection_is_refused_and_nothing_kept(
    client, other_inspector, todays
):
    client.force_login(other_inspector)
    response = send(client, **visit({"id": todays.pk, "version": "whatever"}))
    assert response.status_code == 403
    assert "another inspector" in response.json()["message"]
    assert not FieldRecord.objects.exists()
    assert Inspection.objects.get(pk=todays.pk).status == InspectionStatus.SCHEDULED


# --- kept for the SMO ------------------------------------------------------------------
def test_a_visit_for_an_inspection_cancelled_meanwhile_is_kept_not_applied(
    client, smo_user, todays
):
    client.force_login(smo_user)
    item = download(client)["inspections"][0]
    inspection_svc.inspection_cancel(
        actor=smo_user, inspection=todays, reason="Owner asked to come another day."
    )

    answer = send(client, **visit(item)).json()

    assert answer["state"] == "attention"
    assert "cancelled in the office" in answer["problem"]
    assert Inspection.objects.get(pk=todays.pk).status == InspectionStatus.CANCELLED
    # The SMO's dashboard points to it; the page shows it whole.
    dashboard = client.get(reverse("cases:dashboard")).content.decode()
    assert "Decide on field work kept for you" in dashboard
    page = client.get(reverse("fieldwork:kept")).content.decode()
    assert "cancelled in the office" in page
    assert "Floor drain piped to the street." in page
    assert "Access granted" in page

    # Applying it is refused in words (a cancelled inspection takes no visit);
    # set aside, it needs a reason, then stays listed with its note.
    record = FieldRecord.objects.get()
    refused = client.post(reverse("fieldwork:apply", args=[record.pk]), follow=True)
    assert "cannot be recorded on it" in refused.content.decode()
    client.post(reverse("fieldwork:set_aside", args=[record.pk]), {"note": " "})
    assert FieldRecord.objects.get().state == FieldRecord.State.NEEDS_ATTENTION
    client.post(
        reverse("fieldwork:set_aside", args=[record.pk]),
        {"note": "Visit again on the new date."},
    )
    record.refresh_from_db()
    assert record.state == FieldRecord.State.SET_ASIDE
    assert record.decided_by == smo_user
    page = client.get(reverse("fieldwork:kept")).content.decode()
    assert "Nothing sent from a phone waits for a decision." in page
    assert "Visit again on the new date." in page


def test_a_screening_of_an_outfall_taken_out_of_service_is_applied_after_review(
    client,
    smo_user,
    outfall,
):
    from inspections.services import outfall_save

    client.force_login(smo_user)
    item = download(client)["outfalls"][0]
    outfall_save(
        actor=smo_user,
        outfall=outfall,
        code=outfall.code,
        location_description=outfall.location_description,
        receiving_water=outfall.receiving_water,
        active=False,
    )
    assert send(client, **screening(item)).json()["state"] == "attention"
    assert not OutfallScreening.objects.exists()

    record = FieldRecord.objects.get()
    client.post(reverse("fieldwork:apply", args=[record.pk]))

    record.refresh_from_db()
    assert record.state == FieldRecord.State.APPLIED
    assert record.screening.outfall == outfall
    assert CaseEvent.objects.filter(
        summary__contains="applied after review by Smo Officer"
    ).exists()


# --- bad input ------------------------------------------------------------------
def test_bad_input_is_refused_by_field_and_nothing_is_kept(client, smo_user, todays):
    client.force_login(smo_user)
    item = download(client)["inspections"][0]
    key = str(uuid.uuid4())
    tomorrow = timezone.now() + dt.timedelta(days=1)

    future = send(client, **visit(item, key=key, performed_at=tomorrow))
    no_one = send(client, **visit(item, attendees=""))
    no_notes = send(client, **visit(item, access_outcome="refused"))
    bad_key = send(client, **visit(item, key="short"))
    garbage = client.post(RECEIVE, "{not json", content_type="application/json")

    assert future.status_code == 400
    assert "in the future" in future.json()["errors"]["performed_at"][0]
    assert "attendees" in no_one.json()["errors"]
    assert "access_notes" in no_notes.json()["errors"]
    assert "key" in bad_key.json()["errors"]
    assert garbage.status_code == 400
    assert garbage.json()["message"] == "The record could not be read."
    assert not FieldRecord.objects.exists()
    assert Inspection.objects.get(pk=todays.pk).status == InspectionStatus.SCHEDULED

    # Corrected on the phone, the same record (same key) goes through.
    assert send(client, **visit(item, key=key)).json()["state"] == "applied"


def test_a_key_sent_again_with_other_contents_is_refused(client, smo_user, todays):
    client.force_login(smo_user)
    item = download(client)["inspections"][0]
    key = str(uuid.uuid4())
    assert send(client, **visit(item, key=key)).status_code == 200
    other = send(client, **visit(item, key=key, findings="Something else."))
    assert other.status_code == 409
    assert "other contents" in other.json()["message"]
    assert Inspection.objects.get(pk=todays.pk).findings == (
        "Floor drain piped to the street."
    )


def test_a_phone_whose_clock_is_a_day_ahead_is_told_to_check_it(
    client, smo_user, todays
):
    client.force_login(smo_user)
    item = download(client)["inspections"][0]
    record = visit(item)
    record["recorded_on_site_at"] = (timezone.now() + dt.timedelta(days=1)).isoformat()
    response = send(client, **record)
    assert response.status_code == 400
    assert (
        "check the phone's date and time"
        in (response.json()["errors"]["recorded_on_site_at"][0])
    )


def test_the_phones_position_is_kept_and_said_in_the_chronology(
    client, smo_user, todays
):
    client.force_login(smo_user)
    item = download(client)["inspections"][0]
    at_the_drain = {"latitude": 40.952312, "longitude": -73.088701, "accuracy": 12.4}
    nonsense = {"latitude": "north", "longitude": -73.08, "accuracy": 5}

    refused = send(client, **visit(item, position=nonsense))
    sent = send(client, **visit(item, position=at_the_drain))

    assert refused.status_code == 400
    assert "position" in refused.json()["errors"]
    assert sent.json()["state"] == "applied"
    assert FieldRecord.objects.get().fields["position"] == at_the_drain
    entry = CaseEvent.objects.get(
        summary__startswith=f"Inspection {todays.pk} recorded"
    )
    assert "(offline) at 40.95231, -73.08870 (±12 m), received" in entry.summary


def test_a_visit_for_an_inspection_reassigned_meanwhile_is_kept_not_refused(
    client, smo_user, other_inspector, todays
):
    client.force_login(smo_user)
    item = download(client)["inspections"][0]
    # Reassigned in the admin after the download (no page of the office does it).
    Inspection.objects.filter(pk=todays.pk).update(officer=other_inspector)

    answer = send(client, **visit(item)).json()

    assert answer["state"] == "attention"
    assert "rescheduled or reassigned" in answer["problem"]
    assert Inspection.objects.get(pk=todays.pk).status == InspectionStatus.SCHEDULED


@pytest.mark.parametrize("item", ["abc", None, [1], {"id": 1}, ""])
def test_a_record_naming_no_item_is_refused_in_words(client, smo_user, item):
    client.force_login(smo_user)
    record = visit({"id": 1, "version": "x"})
    record["item"] = item
    response = send(client, **record)
    assert response.status_code == 400
    assert response.json()["errors"]["item"] == [
        "The record names no inspection or outfall."
    ]


@pytest.mark.parametrize(
    "fields",
    [
        {"performed_at": 20261207},
        {"performed_at": None},
        {"access_outcome": ["granted"]},
        {"samples": "B-0142"},
        {"samples": [{"parameter": "pH"}]},
        {"samples": [{"parameter": "pH", "bottle": "B"}] * 21},
    ],
)
def test_fields_of_the_wrong_shape_are_refused_not_a_server_error(
    client, smo_user, todays, fields
):
    client.force_login(smo_user)
    item = download(client)["inspections"][0]
    record = visit(item)
    record["fields"].update(fields)
    response = send(client, **record)
    assert response.status_code == 400
    assert response.json()["errors"]
    assert not FieldRecord.objects.exists()
