"""Hearings as calendar events (for the clerk's and the SMO's calendars): the
Board's appeal hearings (R-APL-2) and the SMO's reconsideration hearings
(R-SUS-2). A provider of the deadlines feed (deadlines.ical) and, through
the same writer, the hearings feed of its own, read with the user's feed token
like the deadlines feed (a calendar program cannot sign in)."""

import datetime as dt

from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from deadlines.ical import (
    BOARD_MEETING_LENGTH,
    HEARING_LENGTH,
    as_event,
    event_uid,
    render_calendar,
)
from kernel.humanize import human_short_date
from kernel.roles import Role, has_role

from .models import AccessTermination, Appeal, AppealStatus, TerminationStatus

HEARINGS_PRODID = "-//Village of Poquott//MS4 hearings//EN"
HEARINGS_FEED_ROLES = (Role.CLERK, Role.SMO)


def hearing_end(hearing_at: dt.datetime, meeting=None) -> dt.datetime:
    """A hearing at a Board meeting lasts the meeting; any other
    HEARING_LENGTH (deadlines.ical)."""
    if meeting is not None:
        meeting_end = meeting.starts_at() + BOARD_MEETING_LENGTH
        if meeting_end > hearing_at:
            return meeting_end
    return hearing_at + HEARING_LENGTH


def ical_events(user) -> list[dict]:
    """{uid, start, end, summary, description, url} of every scheduled hearing,
    for the clerk and the SMO; nothing for anyone else. `url` is a path (the
    writer makes it absolute on the feed's address)."""
    if not has_role(user, *HEARINGS_FEED_ROLES):
        return []
    events = []
    for appeal in Appeal.objects.filter(
        status=AppealStatus.HEARING_SCHEDULED, hearing_at__isnull=False
    ).select_related("notice__case", "appellant", "meeting"):
        events.append(
            {
                "uid": event_uid("appeal", appeal.pk),
                "start": appeal.hearing_at,
                "end": hearing_end(appeal.hearing_at, appeal.meeting),
                "summary": f"Board hearing: appeal of {appeal.appellant.name} "
                f"({appeal.notice.case.number})",
                "description": f"Notice {appeal.notice_id}; filed "
                f"{human_short_date(appeal.filed_on)}. {appeal.hearing_location}".strip(),
                "url": reverse("enforcement:appeal_detail", args=[appeal.pk]),
            }
        )
    if has_role(user, Role.SMO):
        for t in AccessTermination.objects.filter(
            status=TerminationStatus.HEARING_SCHEDULED, hearing_at__isnull=False
        ).select_related("case", "party"):
            events.append(
                {
                    "uid": event_uid("termination", t.pk),
                    "start": t.hearing_at,
                    "end": hearing_end(t.hearing_at),
                    "summary": f"Reconsideration hearing: {t.party.name} "
                    f"({t.case.number})",
                    "description": t.hearing_location,
                    "url": reverse(
                        "enforcement:remedy_detail", args=["termination", t.pk]
                    ),
                }
            )
    return sorted(events, key=lambda e: e["start"])


def token_feeds(user, token: str) -> list[tuple[str, str]]:
    """The feeds of this app a user subscribes to with their feed token
    (deadlines.ical.other_feeds): the hearings feed, for those who read
    it."""
    if not has_role(user, *HEARINGS_FEED_ROLES):
        return []
    return [
        (
            "Hearings calendar",
            reverse("enforcement:hearings_ical", kwargs={"token": token}),
        )
    ]


def to_ical(events, *, base: str | None = None) -> str:
    """The hearings feed, written by the project's one iCal writer."""
    return render_calendar(
        [as_event(e) for e in events],
        name=f"{settings.VILLAGE['name']} hearings",
        prodid=HEARINGS_PRODID,
        base=base,
    )


BOARD_PRODID = "-//Village of Poquott//MS4 Board meetings//EN"


def board_meeting_events(*, past_days: int = 90) -> list[dict]:
    """{uid, start, end, summary, description, url} of the Board's meetings
    with hearings on appeal, from `past_days` ago on: for the trustees. A public
    meeting's date, time and place and how many appeals are heard; no
    appellant's name or address (those are on the agenda the clerk publishes)."""
    from .models import BoardMeeting

    since = timezone.localdate() - dt.timedelta(days=past_days)
    events = []
    for meeting in BoardMeeting.objects.filter(date__gte=since).order_by(
        "date", "time"
    ):
        count = meeting.hearings().count()
        start = meeting.starts_at()
        events.append(
            {
                "uid": event_uid("board-meeting", meeting.pk),
                "start": start,
                "end": start + BOARD_MEETING_LENGTH,
                "summary": "Board of Trustees: hearings on appeal",
                "description": f"{meeting.place}. "
                + (
                    f"{count} appeal{'s' if count != 1 else ''} of a notice of "
                    "violation to be heard."
                    if count
                    else "No appeal scheduled yet."
                ),
                "url": meeting.get_absolute_url(),
            }
        )
    return events


def board_meetings_ical(*, base: str | None = None) -> str:
    """The trustees' feed of Board meetings, by the project's one iCal writer."""
    return render_calendar(
        [as_event(e) for e in board_meeting_events()],
        name=f"{settings.VILLAGE['name']} Board of Trustees hearings",
        prodid=BOARD_PRODID,
        base=base,
    )
