"""The inspection, spill and facility pages read dates as people do (issue 16):
"Thu, Mar 5, 2026, 2:04 PM" in the village's time, ISO only in
<time datetime=…>. Issue 26: the chronology summaries and the engine's
explanation are written in words too, so nothing on the page is read around."""

import pytest
from django.urls import reverse

from inspections import services
from inspections.models import Inspection
from tests.visible import assert_human_dates

from .conftest import at
from .test_spills import spill

pytestmark = pytest.mark.django_db

NOT_ISO = ("2026-03-05", "14:04", "2025-01-01")


def test_inspection_pages_and_lists_say_the_visit_time_in_words(
    clock, smo_client, smo_user, premises
):
    clock(at(2026, 3, 5, 8))
    inspection = services.inspection_schedule(
        actor=smo_user,
        kind=Inspection.Kind.COMPLAINT,
        premises=premises,
        officer=smo_user,
        scheduled_for=at(2026, 3, 5, 14, 4),
    )
    detail = smo_client.get(
        reverse("inspections:inspection_detail", args=[inspection.pk])
    )
    assert_human_dates(
        detail,
        "Scheduled for Thu, Mar 5, 2026, 2:04 PM",
        not_iso=NOT_ISO,
    )
    assert '<time datetime="2026-03-05T14:04:00-05:00">' in detail.content.decode()
    assert_human_dates(
        smo_client.get(reverse("inspections:index")),
        "Thu, Mar 5, 2026, 2:04 PM",
        not_iso=NOT_ISO,
    )
    assert_human_dates(
        smo_client.get(reverse("inspections:premises_detail", args=[premises.pk])),
        "Thu, Mar 5, 2026, 2:04 PM",
        not_iso=NOT_ISO,
    )


def test_spill_page_and_list_say_when_it_became_known_and_the_due_day(
    clock, smo_client, smo_user, yard
):
    clock(at(2026, 3, 5, 16))
    s = spill(smo_user, yard, at(2026, 3, 5, 9), at(2026, 3, 5, 14, 4))
    due = s.confirmation_deadline.due_date
    due_words = f"{due:%a, %b} {due.day}, {due.year}"
    not_iso = (*NOT_ISO, due.isoformat())
    assert_human_dates(
        smo_client.get(reverse("inspections:spill_detail", args=[s.pk])),
        f"Written confirmation due by {due_words}",
        "Became known Thu, Mar 5, 2026, 9:00 AM",
        "Thu, Mar 5, 2026, 2:04 PM",
        not_iso=not_iso,
    )
    assert_human_dates(
        smo_client.get(reverse("inspections:spill_list")),
        "Thu, Mar 5, 2026, 9:00 AM",
        due_words,
        not_iso=not_iso,
    )


def test_facility_page_says_its_permit_days_in_words(smo_client, facility):
    assert_human_dates(
        smo_client.get(reverse("inspections:facility_detail", args=[facility.pk])),
        "issued Wed, Jan 1, 2025",
        "expires Tue, Jan 1, 2030",
        not_iso=("2025-01-01", "2030-01-01", "2025-02-01"),
    )
