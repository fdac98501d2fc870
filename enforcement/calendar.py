"""Hearings as calendar events (for the clerk's and the SMO's calendars): the
Board's appeal hearings (R-APL-2) and the SMO's reconsideration hearings
(R-SUS-2)."""

import datetime as dt

from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from cases.roles import Role, has_role

from .models import AccessTermination, Appeal, AppealStatus, TerminationStatus


def ical_events(user) -> list[dict]:
    """{uid, start, summary, description, url} of every scheduled hearing, for
    the clerk and the SMO; nothing for anyone else."""
    if not has_role(user, Role.CLERK, Role.SMO):
        return []
    site = settings.VILLAGE["site_url"].rstrip("/")
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
                "url": site + reverse("enforcement:appeal_detail", args=[appeal.pk]),
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
                    "url": site
                    + reverse("enforcement:remedy_detail", args=["termination", t.pk]),
                }
            )
    return sorted(events, key=lambda e: e["start"])


def _escape(text: str) -> str:
    return (
        text.replace("\\", "\\\\")
        .replace(";", "\\;")
        .replace(",", "\\,")
        .replace("\n", "\\n")
    )


def to_ical(events) -> str:
    stamp = timezone.now().astimezone(dt.UTC).strftime("%Y%m%dT%H%M%SZ")
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Poquott MS4//Hearings//EN"]
    for e in events:
        start = e["start"].astimezone(dt.UTC).strftime("%Y%m%dT%H%M%SZ")
        lines += [
            "BEGIN:VEVENT",
            f"UID:{e['uid']}",
            f"DTSTAMP:{stamp}",
            f"DTSTART:{start}",
            f"SUMMARY:{_escape(e['summary'])}",
            f"DESCRIPTION:{_escape(e['description'])}",
            f"URL:{e['url']}",
            "END:VEVENT",
        ]
    lines.append("END:VCALENDAR")
    return "\r\n".join(lines) + "\r\n"
