"""Outfall inventory (R-DEF-2) and dry-weather screening visits."""

from django.db import transaction

from cases.clocks import apply as apply_clocks
from cases.models import CaseKind, CaseSource, Outfall
from cases.services import case_open
from kernel.humanize import human_short_date
from kernel.roles import Role, require_role
from kernel.uploads import process_image_upload
from kernel.workflow import Refused

from ..models import Level, OutfallScreening, ScreeningPhoto
from ._common import FIELD_WORK, local_date, not_future, record_on

OUTFALL_FIELDS = (
    "code",
    "location_description",
    "latitude",
    "longitude",
    "receiving_water",
    "is_303d_listed",
    "has_tmdl",
    "tmdl_approved_on",
    "active",
)


def outfall_save(*, actor, outfall: Outfall | None = None, **fields) -> Outfall:
    """Create or edit an outfall of the inventory. Recording (or correcting) the
    date EPA approved a TMDL opens the six-month program-modification deadline
    (R-DEF-2); a corrected date waives the old deadline and opens a new one.
    Who: SMO staff. Raises ValidationError."""
    require_role(actor, Role.SMO, doing=FIELD_WORK)
    outfall = outfall or Outfall()
    for name in OUTFALL_FIELDS:
        if name in fields:
            setattr(outfall, name, fields[name])
    not_future(outfall.tmdl_approved_on, "tmdl_approved_on", "The TMDL approval")
    if outfall.tmdl_approved_on and not outfall.has_tmdl:
        raise Refused.invalid(
            {"has_tmdl": "Tick “TMDL applies” when giving a TMDL approval date."}
        )
    outfall.full_clean()
    with transaction.atomic():
        outfall.save()
        # R-DEF-2 started, replaced on a corrected date, ended when removed:
        # the clock table (cases.clocks).
        apply_clocks(outfall, "save", actor=actor)
    return outfall


def screening_record(
    *, actor, outfall, provenance: str = "", **fields
) -> OutfallScreening:
    """Record a dry-weather screening visit; `provenance` as for
    `inspection_record`. Who: SMO staff. Raises ValidationError (a visit in the
    future; flow rate without flow)."""
    require_role(actor, Role.SMO, doing=FIELD_WORK)
    screening = OutfallScreening(outfall=outfall, screened_by=actor, **fields)
    not_future(screening.screened_at, "screened_at", "The screening visit")
    if not screening.flow_present and screening.flow_rate != "none":
        raise Refused.invalid(
            {"flow_rate": "A flow rate was given but “flow present” is not ticked."}
        )
    if screening.flow_present and screening.flow_rate == "none":
        raise Refused.invalid({"flow_rate": "Give the rate of the flow seen."})
    if screening.severity == OutfallScreening.Severity.NONE and any(
        getattr(screening, name) != Level.NONE for name in screening.INDICATORS
    ):
        raise Refused.invalid(
            {
                "severity": "Indicators were recorded, so the severity cannot be "
                "“unlikely”; choose potential, suspect or obvious."
            }
        )
    screening.full_clean()
    with transaction.atomic():
        screening.save()
        record_on(
            actor=actor,
            kind="outfall",
            summary=f"Outfall {outfall.code} screened: "
            f"{screening.get_severity_display()}"
            + (f"; {provenance}" if provenance else ""),
            subject=screening,
        )
    return screening


def screening_photo_add(
    *, actor, screening, upload, caption: str = "", taken_by=None
) -> ScreeningPhoto:
    """Attach a photo to a screening: decoded, re-encoded without metadata,
    original kept privately with its SHA-256; `taken_by` as for `photo_add`.
    Who: SMO staff. Raises ValidationError (not a photo we can read)."""
    require_role(actor, Role.SMO, doing=FIELD_WORK)
    processed = process_image_upload(upload)
    with transaction.atomic():
        photo = ScreeningPhoto.of(
            processed,
            screening=screening,
            caption=caption,
            uploaded_by=taken_by or actor,
        )
        photo.save()
        record_on(
            photo,
            of=screening,
            actor=actor,
            kind="outfall",
            summary=f"Outfall {screening.outfall.code} screening photo added "
            f"({processed.original_name})",
            detail=f"SHA-256 {processed.original_sha256}",
        )
    return photo


def screening_open_case(*, actor, screening):
    """Open a case linked to the outfall from a suspicious screening (suspect or
    obvious, or dry-weather flow with indicators). Who: SMO staff.
    Raises ValidationError."""
    require_role(actor, Role.SMO, doing=FIELD_WORK)
    with transaction.atomic():
        locked = OutfallScreening.objects.select_for_update().get(pk=screening.pk)
        if not locked.is_suspicious:
            raise Refused.invalid(
                "This screening found nothing suspicious; no case is opened from it."
            )
        if locked.case_id is not None:
            raise Refused.invalid(
                f"This screening already opened case {locked.case.number}."
            )
        outfall = locked.outfall
        indicators = ", ".join(locked.indicators_present) or "none"
        case = case_open(
            actor=actor,
            source=CaseSource.OUTFALL_SCREENING,
            kind=CaseKind.ILLICIT_DISCHARGE,
            summary=f"Outfall {outfall.code}: {locked.get_severity_display()} "
            f"on {human_short_date(local_date(locked.screened_at))}",
            description=f"Dry-weather screening. Flow: "
            f"{locked.get_flow_rate_display()}. Indicators: {indicators}. "
            f"{locked.notes}".strip(),
            outfall=outfall,
            location_description=outfall.location_description,
            latitude=outfall.latitude,
            longitude=outfall.longitude,
        )
        locked.case = case
        locked.save(update_fields=["case"])
        record_on(
            actor=actor,
            kind="outfall",
            summary=f"Outfall {outfall.code} screening linked "
            f"({locked.get_severity_display()})",
            detail=f"Indicators: {indicators}",
            subject=locked,
            rule_id="R-PRO-1",
        )
    return case
