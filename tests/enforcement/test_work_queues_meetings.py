"""The clerk's hearings of the next 30 days, by Board meeting (issue 16): each
upcoming meeting (`BoardMeeting.objects.upcoming()`) with its hearings, each
hearing's row linked to the one thing it needs: its notice of hearing issued,
then sent (`Appeal.hearing_notice_step`), then the meeting (agenda, packets)."""

import datetime as dt

import pytest
from django.urls import reverse

from documents.services import document_render, issue_for
from enforcement.document_kinds import EnforcementDocument
from enforcement.models import Appeal
from enforcement.services import meetings as meeting_svc
from enforcement.services.appeals import appeal_schedule_hearing
from kernel.workflow import Refused
from tests.visible import visible_text

from .conftest import (
    aware,
    hearing_notice_sent,
    issued_notice_of_hearing,
    village_day,
)

pytestmark = pytest.mark.django_db
TODAY = dt.date(2026, 3, 11)  # the appeal was filed on 2026-03-10; heard 03-24


@pytest.fixture(autouse=True)
def today():
    with village_day(TODAY):
        yield TODAY


@pytest.fixture(autouse=True)
def private_media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


def _hearings(client):
    html = client.get(reverse("cases:dashboard")).content.decode()
    assert 'data-testid="queue-hearings"' in html
    section = html.split('data-testid="queue-hearings"', 1)[1].split("</div>", 1)[0]
    return " ".join(section.split())


def test_a_meeting_without_hearings_is_listed_and_linked(clerk_user, clerk_client):
    meeting = meeting_svc.meeting_create(
        actor=clerk_user, date=dt.date(2026, 3, 31), time=dt.time(19), place="Hall"
    )
    far = meeting_svc.meeting_create(
        actor=clerk_user, date=dt.date(2026, 4, 30), time=dt.time(19), place="Hall"
    )
    section = _hearings(clerk_client)
    assert "Board meeting Tue, Mar 31, 2026, 7:00 PM" in visible_text(section)
    assert f'href="{meeting.get_absolute_url()}"' in section
    assert "No hearing of this meeting waits for you." in section
    assert far.get_absolute_url() not in section  # beyond 30 days


def test_a_hearings_row_asks_for_its_notice_then_its_sending_then_the_meeting(
    scheduled_appeal, clerk_user, clerk_client
):
    url = scheduled_appeal.get_absolute_url()
    pk = scheduled_appeal.pk
    section = _hearings(clerk_client)
    assert "Board meeting Tue, Mar 24, 2026, 7:00 PM" in visible_text(section)
    assert (
        f'href="{url}#record-documents-{pk}">Issue the notice of hearing: appeal {pk}<'
    ) in section
    page = clerk_client.get(url).content.decode()
    assert 'data-testid="hearing-notice-to-issue"' in page  # the same answer

    document = issue_for(
        kind=EnforcementDocument.HEARING_NOTICE,
        source=scheduled_appeal,
        actor=clerk_user,
    )
    assert f"Notice of hearing being made: appeal {pk}<" in _hearings(clerk_client)
    document_render(document_id=document.pk)
    section = _hearings(clerk_client)
    assert (
        f'href="{url}#record-hearing-service">'
        f"Record the sending of the notice of hearing: appeal {pk}<"
    ) in section
    assert (
        'data-testid="hearing-notice-to-send"' in clerk_client.get(url).content.decode()
    )

    hearing_notice_sent(scheduled_appeal, clerk_user, TODAY)
    meeting = Appeal.objects.get(pk=pk).meeting
    section = _hearings(clerk_client)
    assert f'href="{meeting.get_absolute_url()}">Hearing: appeal {pk}<' in section
    assert "notice of hearing: appeal" not in section


def test_the_hearing_day_asks_for_the_decision(scheduled_appeal, clerk_user, client):
    issued_notice_of_hearing(scheduled_appeal, clerk_user)
    hearing_notice_sent(scheduled_appeal, clerk_user, TODAY)
    client.force_login(clerk_user)
    url = scheduled_appeal.get_absolute_url()
    for day, held in ((dt.date(2026, 3, 24), False), (dt.date(2026, 3, 26), True)):
        with village_day(day):
            section = _hearings(client)
        assert (
            f'href="{url}#step-decide">Record the decision: appeal {scheduled_appeal.pk}<'
        ) in section
        assert ("held — decision to record" in section) == held


def test_a_hearing_moved_after_its_notice_was_sent_asks_for_a_corrected_notice(
    scheduled_appeal, clerk_user, clerk_client
):
    """R-APL-2: the appellant must be told the date, time and place of the
    hearing; a notice sent for the old date does not do that once it is moved."""
    pk, url = scheduled_appeal.pk, scheduled_appeal.get_absolute_url()
    first = issued_notice_of_hearing(scheduled_appeal, clerk_user)
    hearing_notice_sent(scheduled_appeal, clerk_user, TODAY)
    assert "notice of hearing: appeal" not in _hearings(clerk_client)

    moved, _ = appeal_schedule_hearing(
        appeal=Appeal.objects.get(pk=pk),
        actor=clerk_user,
        hearing_at=aware(2026, 3, 31),
        location="Village Hall",
    )
    assert moved.hearing_notice_step() == "reissue"
    section = _hearings(clerk_client)
    assert (
        f'href="{url}#record-documents-{pk}">Issue the corrected notice of hearing '
        "(moved from Tue, Mar 24, 2026, 7:00 PM to Tue, Mar 31, 2026, 7:00 PM): "
        f"appeal {pk}<"
    ) in section
    page = visible_text(clerk_client.get(url))
    assert (
        f"The hearing was moved after the notice of hearing {first.document_number} "
        "(version 1) was issued: it gives Tue, Mar 24, 2026, 7:00 PM; the hearing "
        "is now Tue, Mar 31, 2026, 7:00 PM." in page
    )
    with pytest.raises(Refused, match="before it was moved"):
        hearing_notice_sent(moved, clerk_user, TODAY)

    corrected = issued_notice_of_hearing(moved, clerk_user)
    assert corrected.version == 2 and corrected.facts["hearing_on"] == "2026-03-31"
    assert "Record the sending of the notice of hearing" in _hearings(clerk_client)
    hearing_notice_sent(scheduled_appeal, clerk_user, TODAY)
    assert "notice of hearing: appeal" not in _hearings(clerk_client)


def test_a_hearing_moved_earlier_names_both_dates_not_the_earlier_one(
    scheduled_appeal, clerk_user, clerk_client
):
    """R-APL-2: moved forward, to another time and place, the warning names the
    day, time and place on the issued notice and those of the hearing now (it
    used to say the notice gave "the earlier date", which was the later one)."""
    pk, url = scheduled_appeal.pk, scheduled_appeal.get_absolute_url()
    issued_notice_of_hearing(scheduled_appeal, clerk_user)
    appeal_schedule_hearing(
        appeal=Appeal.objects.get(pk=pk),
        actor=clerk_user,
        hearing_at=aware(2026, 3, 17, 18, 30),
        location="Village Hall, Room 2",
    )
    page = visible_text(clerk_client.get(url))
    assert "earlier date" not in page
    assert (
        "it gives Tue, Mar 24, 2026, 7:00 PM, Village Hall; the hearing is now "
        "Tue, Mar 17, 2026, 6:30 PM, Village Hall, Room 2." in page
    )
    assert (
        "(moved from Tue, Mar 24, 2026, 7:00 PM, Village Hall to "
        "Tue, Mar 17, 2026, 6:30 PM, Village Hall, Room 2)"
    ) in _hearings(clerk_client)
