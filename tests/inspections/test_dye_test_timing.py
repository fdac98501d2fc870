"""§ 132-6 A(3), R-PRO-4: dye testing needs a verbal notification to the SMO
"prior to the time of the test". Prior means strictly earlier: a notice given at
the very time of the test is not prior to it. RULES.md: "a notice after the test
is flagged" — such a notice is recorded (it is evidence) and flagged on the
dye-test list, not refused."""

import datetime as dt

import pytest
from django.urls import reverse

from inspections import services
from kernel.humanize import machine_value
from kernel.models import CaseEvent

from .conftest import at

pytestmark = pytest.mark.django_db

TEST_AT = at(2026, 11, 5, 10)
FLAG = "notice not given before the test"


def _record(smo_user, premises, notified_at):
    return services.dye_test_record(
        actor=smo_user,
        premises=premises,
        notified_at=notified_at,
        notified_by="Plumber J. Doe",
        test_at=TEST_AT,
    )


def _row_of(client, notice) -> str:
    html = client.get(reverse("inspections:dyetest_list")).content.decode()
    # The row of this notice: its time, as the <time datetime=…> carries it.
    start = html.index(f'<time datetime="{machine_value(notice.notified_at)}">')
    return html[start : html.index("</tr>", start)]


@pytest.mark.parametrize(
    ("notified_at", "prior"),
    [
        pytest.param(TEST_AT - dt.timedelta(seconds=1), True, id="one-second-before"),
        pytest.param(TEST_AT, False, id="at-the-test-time"),
        pytest.param(TEST_AT + dt.timedelta(seconds=1), False, id="one-second-after"),
    ],
)
def test_a_dye_test_notice_is_prior_to_the_test_only_if_strictly_earlier(
    clock, smo_user, smo_client, premises, notified_at, prior
):
    """R-PRO-4: one second before is in time; at the test time or later is
    flagged, on the record and on the list the SMO reads."""
    clock(at(2026, 11, 5, 15))
    notice = _record(smo_user, premises, notified_at)
    assert notice.notice_prior_to_test is prior
    assert notice.notice_after_test is not prior
    assert (FLAG in _row_of(smo_client, notice)) is not prior
    event = CaseEvent.objects.get(object_id=notice.pk, rule_id="R-PRO-4")
    assert ("NOT given before the test" in event.summary) is not prior
