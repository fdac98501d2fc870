"""The URL × role table for every page of the inspections app: anonymous → sign
in; no role, attorney, building inspector → 403; SMO staff and the clerk → 200
(the clerk reads); only SMO staff may post."""

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from inspections import services

from .conftest import record

pytestmark = pytest.mark.django_db


@pytest.fixture
def objects(smo_user, facility, outfall, scheduled, yard):
    refused = services.inspection_schedule(
        actor=smo_user,
        kind="follow_up",
        premises=yard,
        facility=facility,
        officer=smo_user,
        scheduled_for=timezone.now() - dt.timedelta(hours=3),
    )
    refused = record(refused, smo_user, "refused", "Refused at the gate")
    warrant = services.warrant_start(actor=smo_user, inspection=refused)
    equipment = services.equipment_create(
        actor=smo_user, facility=facility, kind="village", description="Sampler"
    )
    bmp = services.bmp_require(
        actor=smo_user,
        premises=yard,
        practice_type="structural",
        description="Berm",
        required_on=timezone.localdate(),
    )
    screening = services.screening_record(
        actor=smo_user,
        outfall=outfall,
        screened_at=timezone.now() - dt.timedelta(hours=1),
        severity="none",
    )
    spill = services.spill_record(
        actor=smo_user,
        premises=yard,
        reported_by="Pat",
        known_at=timezone.now() - dt.timedelta(hours=2),
        material="Wash water",
        hazardous=False,
        containment_steps="Boom",
        cleanup_steps="Pads",
        notice_method="telephone",
        notice_at=timezone.now() - dt.timedelta(hours=1),
    )
    return {
        "inspection": scheduled.pk,
        "warrant": warrant.pk,
        "facility": facility.pk,
        "equipment": equipment.pk,
        "bmp": bmp.pk,
        "outfall": outfall.pk,
        "screening": screening.pk,
        "spill": spill.pk,
        "premises": yard.pk,
    }


PAGES = [
    ("inspections:index", None),
    ("inspections:calendar", None),
    ("inspections:inspection_new", None),
    ("inspections:inspection_detail", "inspection"),
    ("inspections:warrant_detail", "warrant"),
    ("inspections:premises_detail", "premises"),
    ("inspections:facility_list", None),
    ("inspections:facility_new", None),
    ("inspections:facility_detail", "facility"),
    ("inspections:facility_edit", "facility"),
    ("inspections:equipment_detail", "equipment"),
    ("inspections:bmp_new", None),
    ("inspections:bmp_detail", "bmp"),
    ("inspections:outfall_list", None),
    ("inspections:outfall_new", None),
    ("inspections:outfall_detail", "outfall"),
    ("inspections:outfall_edit", "outfall"),
    ("inspections:screening_new", "outfall"),
    ("inspections:screening_detail", "screening"),
    ("inspections:spill_list", None),
    ("inspections:spill_new", None),
    ("inspections:spill_detail", "spill"),
    ("inspections:dyetest_list", None),
    ("inspections:approval_list", None),
]

EXPECTED = {
    "anonymous": 302,
    "no_role": 403,
    "attorney": 403,
    "inspector": 403,
    "clerk": 200,
    "smo": 200,
    "superuser": 200,
}


def _url(objects, name, key):
    return reverse(name, args=[objects[key]] if key else [])


@pytest.mark.parametrize("role", list(EXPECTED))
def test_every_page_answers_each_role_as_the_table_says(client_as, objects, role):
    client = client_as(role)
    for name, key in PAGES:
        response = client.get(_url(objects, name, key))
        assert response.status_code == EXPECTED[role], (name, role)
        if role == "anonymous":
            assert response["Location"].startswith(reverse("login"))


@pytest.mark.parametrize("name,key", PAGES)
def test_the_clerk_cannot_post_to_any_page(client_as, objects, name, key):
    response = client_as("clerk").post(_url(objects, name, key), {})
    assert response.status_code == 403


def test_the_clerk_cannot_post_an_inspection_step(client_as, objects):
    url = reverse("inspections:inspection_step", args=[objects["inspection"], "cancel"])
    assert client_as("clerk").post(url).status_code == 403
    assert client_as("anonymous").post(url).status_code == 302


def test_the_clerk_sees_no_write_buttons(client_as, objects):
    html = client_as("clerk").get(reverse("inspections:index")).content.decode()
    assert "Schedule an inspection</a>" not in html


def test_nav_entries_resolve(client_as):
    html = client_as("smo").get(reverse("inspections:index")).content.decode()
    for name in (
        "inspections:index",
        "inspections:spill_list",
        "inspections:outfall_list",
    ):
        assert reverse(name) in html


def test_unknown_inspection_action_is_404(client_as, objects):
    url = reverse("inspections:inspection_action", args=[objects["inspection"], "nope"])
    assert client_as("smo").post(url).status_code == 404


def test_list_pages_do_not_query_per_row(
    client_as, objects, django_assert_max_num_queries
):
    client = client_as("smo")
    for name in ("inspections:index", "inspections:spill_list"):
        with django_assert_max_num_queries(15):
            client.get(reverse(name))
