"""Hearings as calendar events (for the clerk's and the SMO's calendars): the
Board's appeal hearings (R-APL-2) and the SMO's reconsideration hearings
(R-SUS-2). A provider of the deadlines feed (cases.deadlines.ical) and, through
the same writer, the hearings feed of its own."""

from django.conf import settings
from django.urls import reverse

from cases.deadlines.ical import absolute_url, as_event, render_calendar
from cases.roles import Role, has_role

from .models import AccessTermination, Appeal, AppealStatus, TerminationStatus

HEARINGS_PRODID = "-//Village of Poquott//MS4 hearings//EN"


def ical_events(user) -> list[dict]:
    """{uid, start, summary, description, url} of every scheduled hearing, for
    the clerk and the SMO; nothing for anyone else."""
    if not has_role(user, Role.CLERK, Role.SMO):
        return []
    events = []
    for appeal in Appeal.objects.filter(
        status=AppealStatus.HEARING_SCHEDULED, hearing_at__isnull=False
    ).select_related("notice__case", "appellant"):
        events.append(
            {
                "uid": f"appeal-{appeal.pk}@poquott-ms4",
                "start": appeal.hearing_at,
                "summary": f"Board hearing: appeal of {appeal.appellant.name} "
                f"({appeal.notice.case.number})",
                "description": f"Notice {appeal.notice_id}; filed "
                f"{appeal.filed_on:%Y-%m-%d}. {appeal.hearing_location}".strip(),
                "url": absolute_url(
                    reverse("enforcement:appeal_detail", args=[appeal.pk])
                ),
            }
        )
    if has_role(user, Role.SMO):
        for t in AccessTermination.objects.filter(
            status=TerminationStatus.HEARING_SCHEDULED, hearing_at__isnull=False
        ).select_related("case", "party"):
            events.append(
                {
                    "uid": f"termination-{t.pk}@poquott-ms4",
                    "start": t.hearing_at,
                    "summary": f"Reconsideration hearing: {t.party.name} "
                    f"({t.case.number})",
                    "description": t.hearing_location,
                    "url": absolute_url(
                        reverse("enforcement:remedy_detail", args=["termination", t.pk])
                    ),
                }
            )
    return sorted(events, key=lambda e: e["start"])


def to_ical(events) -> str:
    """The hearings feed, written by the project's one iCal writer."""
    return render_calendar(
        [as_event(e) for e in events],
        name=f"{settings.VILLAGE['name']} hearings",
        prodid=HEARINGS_PRODID,
    )


BOARD_PRODID = "-//Village of Poquott//MS4 Board meetings//EN"
BOARD_MEETING_HOURS = 2  # the event's length in a calendar (meetings run ~2 h)


def board_meeting_events(*, past_days: int = 90) -> list[dict]:
    """{uid, start, end, summary, description, url} of the Board's meetings
    with hearings on appeal, from `past_days` ago on: for the trustees. A public
    meeting's date, time and place and how many appeals are heard; no
    appellant's name or address (those are on the agenda the clerk publishes)."""
    import datetime as dt

    from django.utils import timezone

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
                "uid": f"board-meeting-{meeting.pk}@poquott-ms4",
                "start": start,
                "end": start + dt.timedelta(hours=BOARD_MEETING_HOURS),
                "summary": "Board of Trustees: hearings on appeal",
                "description": f"{meeting.place}. "
                + (
                    f"{count} appeal{'s' if count != 1 else ''} of a notice of "
                    "violation to be heard."
                    if count
                    else "No appeal scheduled yet."
                ),
                "url": absolute_url(meeting.get_absolute_url()),
            }
        )
    return events


def board_meetings_ical() -> str:
    """The trustees' feed of Board meetings, by the project's one iCal writer."""
    return render_calendar(
        [as_event(e) for e in board_meeting_events()],
        name=f"{settings.VILLAGE['name']} Board of Trustees hearings",
        prodid=BOARD_PRODID,
    )
