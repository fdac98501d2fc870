"""Upcoming inspections as calendar events, for the deadlines iCal feed
(deadlines.ical)."""

from django.urls import reverse
from django.utils import timezone

from deadlines.ical import INSPECTION_LENGTH, event_uid

from .selectors import upcoming_inspections


def ical_events(user) -> list[dict]:
    """The scheduled inspections of officer `user` from today on, as dicts
    {uid, start, end, summary, description, url}; `start` is an aware datetime,
    `end` INSPECTION_LENGTH later (an inspection records no end), `url` a path
    the feed's writer makes absolute on the address the feed is read on."""
    events = []
    for inspection in upcoming_inspections(officer=user):
        where = inspection.facility.name if inspection.facility else ""
        summary = f"{inspection.get_kind_display()} inspection: {inspection.premises}"
        description = "; ".join(
            part
            for part in (
                where,
                inspection.purpose,
                f"Case {inspection.case.number}" if inspection.case else "",
            )
            if part
        )
        start = timezone.localtime(inspection.scheduled_for)
        events.append(
            {
                "uid": event_uid("inspection", inspection.pk),
                "start": start,
                "end": start + INSPECTION_LENGTH,
                "summary": summary,
                "description": description,
                "url": reverse("inspections:inspection_detail", args=[inspection.pk]),
            }
        )
    return events
