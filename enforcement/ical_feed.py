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
