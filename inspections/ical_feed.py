"""Upcoming inspections as calendar events, for the deadlines iCal feed
(cases.deadlines.ical)."""

from django.urls import reverse
from django.utils import timezone

from cases.deadlines.ical import absolute_url

from .selectors import upcoming_inspections


def ical_events(user) -> list[dict]:
    """The scheduled inspections of officer `user` from today on, as dicts
    {uid, start, summary, description, url}; `start` is an aware datetime and
    `url` absolute (settings.SITE_URL), as a calendar program needs it."""
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
                "url": absolute_url(
                    reverse("inspections:inspection_detail", args=[inspection.pk])
                ),
            }
        )
    return events
