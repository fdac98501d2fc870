"""The day's work an inspector takes offline: the inspections assigned to them
(still to be recorded, up to a few days ahead) and the outfalls to screen, each
with what the inspector needs on site, as plain data for the phone. Only what
the SMO's role may read, and of the inspections only the inspector's own.

Each item carries its version: what the office had when the phone downloaded
it. A record sent back for an item whose version changed meanwhile is kept for
the SMO to decide (`fieldwork.services`), never applied blindly."""

import base64
import datetime as dt

from django.db.models import F, Max, Prefetch
from django.utils import timezone
from PIL import Image

from cases.models import CaseParty, Outfall
from deadlines.models import Deadline
from enforcement.models import NoticeRequirement, NoticeStatus
from inspections.models import (
    Inspection,
    InspectionPhoto,
    InspectionStatus,
    Level,
    OutfallScreening,
    ScreeningPhoto,
)
from kernel.humanize import human_date, human_datetime
from kernel.uploads import pixels_only

# The inspections downloaded: those still scheduled up to this many days ahead
# (and any earlier one not yet recorded: a visit made yesterday is recorded today).
DAYS_AHEAD = 3
# At most this many outfalls, the longest unscreened first.
OUTFALLS = 60
# The last visit's and the last screening's photos, as thumbnails kept on the
# phone (this many at most, this many pixels on the long side).
THUMBNAILS = 3
THUMBNAIL_SIDE = 240
# Notices whose requirements are still asked of the respondent.
NOTICES_IN_FORCE = (NoticeStatus.ISSUED, NoticeStatus.NOT_COMPLIED)


def inspection_version(inspection: Inspection) -> str:
    """What a change in the office since the download would alter: the status,
    the time it is scheduled for and the officer it is assigned to."""
    return "|".join(
        (
            inspection.status,
            inspection.scheduled_for.astimezone(dt.UTC).isoformat(),
            str(inspection.officer_id),
        )
    )


def outfall_version(outfall: Outfall) -> str:
    return "active" if outfall.active else "inactive"


def _choices(field_choices) -> list[dict]:
    return [{"value": value, "label": str(label)} for value, label in field_choices]


def form_choices() -> dict:
    """The choices of the forms the phone shows, as the office's forms have them."""
    return {
        "access_outcome": _choices(Inspection.Access.choices),
        "level": _choices(Level.choices),
        "flow_rate": _choices(OutfallScreening.FlowRate.choices),
        "severity": _choices(OutfallScreening.Severity.choices),
    }


def assigned_inspections(user, now: dt.datetime):
    """The inspections `user` is to record: still scheduled, assigned to them, up
    to the end of the day DAYS_AHEAD days from now."""
    last_day = timezone.localtime(now).date() + dt.timedelta(days=DAYS_AHEAD + 1)
    until = timezone.make_aware(dt.datetime.combine(last_day, dt.time()))
    return (
        Inspection.objects.filter(
            officer=user, status=InspectionStatus.SCHEDULED, scheduled_for__lt=until
        )
        .select_related("premises", "facility", "case")
        .order_by("scheduled_for", "id")
    )


def _last_visits(premises_ids) -> dict[int, Inspection]:
    """The last recorded visit of each premises, by premises id."""
    visits = (
        Inspection.objects.filter(
            premises_id__in=premises_ids,
            status__in=(InspectionStatus.RECORDED, InspectionStatus.FINALIZED),
        )
        .exclude(performed_at=None)
        .order_by("-performed_at", "-id")
    )
    last = {}
    for visit in visits:
        last.setdefault(visit.premises_id, visit)
    return last


def thumbnail(photo) -> dict:
    """A small JPEG of a kept photo's display copy, inline (data: URL), so the
    phone shows it without signal."""
    with photo.display.open("rb") as stored, Image.open(stored) as image:
        data, width, height = pixels_only(
            image, max_side=THUMBNAIL_SIDE, fmt="JPEG", quality=70
        )
    return {
        "src": "data:image/jpeg;base64," + base64.b64encode(data).decode("ascii"),
        "width": width,
        "height": height,
        "caption": photo.caption,
    }


def _thumbnails(model, field: str, owner_ids) -> dict[int, list[dict]]:
    """The first THUMBNAILS photos of each owner (an inspection or a screening),
    as thumbnails, by owner id. A photo whose file is missing is left out."""
    shown: dict[int, list[dict]] = {}
    for photo in model.objects.filter(**{f"{field}__in": owner_ids}).order_by("id"):
        row = shown.setdefault(getattr(photo, f"{field}_id"), [])
        if len(row) >= THUMBNAILS:
            continue
        try:
            row.append(thumbnail(photo))
        except (OSError, ValueError):
            continue
    return shown


def _case_parts(case_ids) -> tuple[dict, dict, dict]:
    """The parties, the requirements in force and the open deadlines of each
    case, by case id."""
    parties, requirements, deadlines = {}, {}, {}
    for row in CaseParty.objects.filter(case_id__in=case_ids).select_related("party"):
        parties.setdefault(row.case_id, []).append(
            {"name": row.party.name, "role": row.get_role_display()}
        )
    for requirement in NoticeRequirement.objects.filter(
        notice__case_id__in=case_ids, notice__status__in=NOTICES_IN_FORCE
    ).select_related("notice"):
        requirements.setdefault(requirement.notice.case_id, []).append(
            {
                "notice": f"NOV-{requirement.notice_id}",
                "requirement": requirement.get_kind_display(),
                "particulars": requirement.particulars,
            }
        )
    for deadline in Deadline.objects.filter(
        case_id__in=case_ids, status=Deadline.Status.OPEN
    ).order_by("due_date", "id"):
        deadlines.setdefault(deadline.case_id, []).append(
            {"label": deadline.label, "due": human_date(deadline.due_date)}
        )
    return parties, requirements, deadlines


def _inspection(
    inspection, last_visit, parties, requirements, deadlines, photos
) -> dict:
    case = inspection.case
    return {
        "id": inspection.pk,
        "version": inspection_version(inspection),
        "kind": inspection.get_kind_display(),
        "scheduled_for": inspection.scheduled_for.isoformat(),
        "scheduled_words": human_datetime(inspection.scheduled_for),
        "purpose": inspection.purpose,
        "premises": inspection.premises.address,
        "facility": inspection.facility.name if inspection.facility else "",
        "case": case.number if case else "",
        "case_summary": case.summary if case else "",
        "parties": parties.get(inspection.case_id, []),
        "requirements": requirements.get(inspection.case_id, []),
        "deadlines": deadlines.get(inspection.case_id, []),
        "last_visit": (
            {
                "when": human_datetime(last_visit.performed_at),
                "access": last_visit.get_access_outcome_display(),
                "findings": last_visit.findings,
                "photos": photos.get(last_visit.pk, []),
            }
            if last_visit
            else None
        ),
    }


def _outfalls() -> list[dict]:
    outfalls = (
        Outfall.objects.filter(active=True)
        .annotate(last_screened=Max("screenings__screened_at"))
        .order_by(F("last_screened").asc(nulls_first=True), "code")
        .prefetch_related(
            Prefetch(
                "screenings",
                queryset=OutfallScreening.objects.order_by("-screened_at", "-id"),
            )
        )[:OUTFALLS]
    )
    lasts = {
        outfall.pk: next(iter(outfall.screenings.all()), None) for outfall in outfalls
    }
    photos = _thumbnails(
        ScreeningPhoto, "screening", [last.pk for last in lasts.values() if last]
    )
    rows = []
    for outfall in outfalls:
        last = lasts[outfall.pk]
        rows.append(
            {
                "id": outfall.pk,
                "version": outfall_version(outfall),
                "code": outfall.code,
                "location": outfall.location_description,
                "receiving_water": outfall.receiving_water,
                "latitude": str(outfall.latitude) if outfall.latitude else "",
                "longitude": str(outfall.longitude) if outfall.longitude else "",
                "last_screening": (
                    {
                        "when": human_datetime(last.screened_at),
                        "severity": last.get_severity_display(),
                        "flow": last.get_flow_rate_display(),
                        "photos": photos.get(last.pk, []),
                    }
                    if last
                    else None
                ),
            }
        )
    return rows


def day_of_work(user, now: dt.datetime | None = None) -> dict:
    """What `user` (SMO staff: the view checks) takes offline at `now`."""
    now = now or timezone.now()
    inspections = list(assigned_inspections(user, now))
    last_visits = _last_visits({i.premises_id for i in inspections})
    photos = _thumbnails(
        InspectionPhoto, "inspection", [v.pk for v in last_visits.values()]
    )
    parties, requirements, deadlines = _case_parts(
        {i.case_id for i in inspections if i.case_id}
    )
    return {
        "downloaded_at": now.isoformat(),
        "downloaded_words": human_datetime(now),
        "inspector": user.get_full_name() or user.get_username(),
        "inspections": [
            _inspection(
                inspection,
                last_visits.get(inspection.premises_id),
                parties,
                requirements,
                deadlines,
                photos,
            )
            for inspection in inspections
        ],
        "outfalls": _outfalls(),
        "choices": form_choices(),
    }
