"""Issue 17, exports: the inspections list (its status filter) and the outfall
inventory with its dry-weather screenings, as CSV and XLSX, formula text
neutralised."""

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from cases.models import Premises
from inspections import services
from inspections.models import Inspection

from .helpers import HOSTILE, assert_neutralised, both

pytestmark = pytest.mark.django_db

INSPECTION_HEADINGS = [
    "Inspection",
    "Link",
    "Scheduled for (village time)",
    "Kind",
    "Premises",
    "Facility",
    "Officer",
    "Status",
    "Access",
    "Case number",
]


def _schedule(user, address, *, days=1):
    return services.inspection_schedule(
        actor=user,
        kind=Inspection.Kind.COMPLAINT,
        premises=Premises.objects.create(address=address),
        officer=user,
        scheduled_for=timezone.now() + dt.timedelta(days=days),
    )


def test_inspection_export_has_every_inspection_of_the_filter(smo_client, smo_user):
    scheduled = [_schedule(smo_user, text) for text in HOSTILE]
    cancelled = services.inspection_cancel(
        actor=smo_user,
        inspection=_schedule(smo_user, "9 Tyron Road"),
        reason="Owner away",
    )

    csv_rows, xlsx_rows, headings = both(
        smo_client, "inspections:export", "status=scheduled"
    )

    assert headings == INSPECTION_HEADINGS
    for rows in (csv_rows, xlsx_rows):
        assert {str(r["Inspection"]) for r in rows} == {str(i.pk) for i in scheduled}
        assert str(cancelled.pk) not in {str(r["Inspection"]) for r in rows}
        assert_neutralised(rows, "Premises")
    first = next(r for r in csv_rows if r["Inspection"] == str(scheduled[0].pk))
    when = timezone.localtime(scheduled[0].scheduled_for).replace(microsecond=0)
    assert first["Scheduled for (village time)"] == when.replace(tzinfo=None).isoformat(
        " "
    )
    assert first["Officer"] == "Smo Officer"
    assert first["Link"] == f"http://testserver/inspections/{scheduled[0].pk}/"

    everything, _, _ = both(smo_client, "inspections:export")
    assert len(everything) == len(HOSTILE) + 1


def test_an_unknown_inspection_status_is_a_clear_message_not_an_export(smo_client):
    response = smo_client.get(reverse("inspections:export_xlsx") + "?status=lost")
    assert response.status_code == 302
    page = smo_client.get(response["Location"])
    assert page.status_code == 200
    assert "“lost” is not a status of an inspection" in page.content.decode()


def test_the_inspection_list_links_its_exports_with_its_filter(smo_client):
    html = smo_client.get(reverse("inspections:index") + "?status=scheduled")
    assert (
        f'href="{reverse("inspections:export_csv")}?status=scheduled"'
        in html.content.decode()
    )


# --- outfalls with their screenings ---------------------------------------------------
def _screen(user, outfall, notes, hours_ago):
    return services.screening_record(
        actor=user,
        outfall=outfall,
        screened_at=timezone.now() - dt.timedelta(hours=hours_ago),
        hours_since_rain=96,
        flow_present=True,
        flow_rate="trickle",
        odour="strong",
        odour_description="sewage",
        severity="suspect",
        notes=notes,
    )


def test_outfall_export_has_a_row_per_screening_and_one_per_unscreened_outfall(
    smo_client, smo_user, outfall_factory
):
    screened = outfall_factory("PQ-009", location_description="+1 Birchwood end")
    screenings = [
        _screen(smo_user, screened, text, hours_ago=n + 1)
        for n, text in enumerate(HOSTILE)
    ]
    never = outfall_factory("PQ-010", location_description="@Sound Beach")

    csv_rows, xlsx_rows, headings = both(smo_client, "inspections:outfall_export")

    assert headings[:3] == ["Outfall", "Link", "Location"]
    assert "Screened (village time)" in headings and "Notes" in headings
    for rows in (csv_rows, xlsx_rows):
        assert [r["Outfall"] for r in rows] == ["PQ-009"] * len(HOSTILE) + ["PQ-010"]
        assert_neutralised(rows, "Notes")
    for rows, written in ((csv_rows, "'{}"), (xlsx_rows, "{}")):
        assert rows[0]["Location"] == written.format("+1 Birchwood end")
        assert rows[-1]["Location"] == written.format("@Sound Beach")
        assert rows[-1]["Screened (village time)"] == ""
        assert rows[0]["Overall severity"] == screenings[0].get_severity_display()
    newest = timezone.localtime(screenings[0].screened_at).replace(microsecond=0)
    assert csv_rows[0]["Screened (village time)"] == newest.replace(
        tzinfo=None
    ).isoformat(" ")
    assert csv_rows[0]["Screening link"] == (
        f"http://testserver/inspections/screenings/{screenings[0].pk}/"
    )
    assert csv_rows[0]["Flow present"] == "yes"
    assert xlsx_rows[0]["Hours since rain"] == 96
    assert never.pk


def test_the_outfall_list_links_its_exports(smo_client):
    html = smo_client.get(reverse("inspections:outfall_list")).content.decode()
    assert f'href="{reverse("inspections:outfall_export_xlsx")}"' in html
