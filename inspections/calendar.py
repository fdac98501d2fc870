"""Upcoming inspections as calendar events, for the deadlines iCal feed."""

from django.urls import reverse
from django.utils import timezone

from .selectors import upcoming_inspections


def ical_events(user) -> list[dict]:
    """The scheduled inspections of officer `user` from today on, as dicts
    {uid, start, summary, description, url}; `start` is an aware datetime and
    `url` a path (the feed adds the host)."""
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
        events.append(
            {
                "uid": f"inspection-{inspection.pk}@poquott-ms4",
                "start": timezone.localtime(inspection.scheduled_for),
                "summary": summary,
                "description": description,
                "url": reverse("inspections:inspection_detail", args=[inspection.pk]),
            }
        )
    return events
