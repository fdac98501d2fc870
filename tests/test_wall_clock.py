"""A date and time typed into any form reads the village's wall clock, the
nights the clocks change included (kernel.fields.WallClockDateTimeField): the
repeated hour of November is its first pass, the skipped hour of March the same
minutes after the change. Django alone refuses both."""

import datetime as dt

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from intake.models import Report
from kernel.fields import WallClockDateTimeField

from .inspections.conftest import at, clock  # noqa: F401 (fixture)
from .reports.helpers import valid_post

UTC = dt.UTC


@pytest.mark.parametrize(
    ("typed", "stored"),
    [
        # The first 1:30 of Sunday, Nov 1, 2026 is daylight time (UTC-4).
        ("2026-11-01T01:30", dt.datetime(2026, 11, 1, 5, 30, tzinfo=UTC)),
        # 2:30 of Sunday, Mar 8, 2026 never showed on a clock: 3:30 daylight.
        ("2026-03-08T02:30", dt.datetime(2026, 3, 8, 7, 30, tzinfo=UTC)),
        # Ordinary hours either side.
        ("2026-11-01T03:00", dt.datetime(2026, 11, 1, 8, 0, tzinfo=UTC)),
        ("2026-07-01T12:00", dt.datetime(2026, 7, 1, 16, 0, tzinfo=UTC)),
        ("2026-07-01 12:00", dt.datetime(2026, 7, 1, 16, 0, tzinfo=UTC)),
    ],
)
def test_a_typed_time_is_read_as_the_village_clock_showed_it(typed, stored):
    assert WallClockDateTimeField().clean(typed) == stored


@pytest.mark.parametrize(
    "typed", ["yesterday", "2026-13-01T10:00", "2026-02-30", 20261101, ["2026-11-01"]]
)
def test_what_is_not_a_time_is_still_refused(typed):
    with pytest.raises(ValidationError):
        WallClockDateTimeField().clean(typed)


def test_a_resident_who_saw_it_in_the_repeated_hour_is_not_refused(
    db,
    client,
    clock,  # noqa: F811
):
    clock(at(2026, 11, 2, 10))
    response = client.post(
        reverse("public:report"), valid_post(observed_at="2026-11-01T01:30")
    )
    assert response.status_code == 302
    assert Report.objects.get().observed_at == dt.datetime(
        2026, 11, 1, 5, 30, tzinfo=UTC
    )
