"""Receiving what an inspector's phone recorded, once each, and the SMO's
decision on what was kept.

A record arrives with the key the phone made for it (kernel.idempotency): sent
twice, it is stored once and the second sending gets the first's answer. It is
applied through the same services as the office's forms (the same role check,
guards and chronology) when its item is as the phone downloaded it; when the
office changed the item since (cancelled, recorded, rescheduled, reassigned;
an outfall taken out of service) it is kept, whole, for the SMO to apply or set
aside. Input the office's forms would refuse is refused, and nothing is kept of
it: the phone keeps the record and shows the refusal beside it.

Photos follow their record, each with its own key: kept here (FieldPhoto) and
placed on the inspection or the screening once the record is applied."""

from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.db import transaction
from django.utils import timezone

from cases.models import Outfall
from inspections.models import Inspection, InspectionStatus
from inspections.services import (
    inspection_record,
    photo_add,
    sample_add,
    screening_photo_add,
    screening_record,
)
from kernel.humanize import human_datetime, human_time
from kernel.idempotency import is_key, store_once
from kernel.roles import Role, require_role
from kernel.timeline import record_event
from kernel.uploads import process_image_upload
from kernel.workflow import Refused, chronology_links, run

from . import forms
from .models import FieldPhoto, FieldRecord
from .package import inspection_version, outfall_version

SCOPE = "fieldwork"
PHOTO_SCOPE = "fieldwork-photo"
# The most photos one record carries (the office form takes one at a time).
PHOTOS_MAX = 12
DOING = "send field work"


class NotYours(Refused):
    """The item is another inspector's: nothing was recorded."""

    nothing_done = True


def provenance(record: FieldRecord) -> str:
    """How the chronology says where a record came from: "recorded on site Tue,
    Dec 8, 9:42 AM (offline) at 40.95231, -73.08870 (±12 m), received 2:05 PM"
    (the position when the phone gave it)."""
    on_site = record.recorded_on_site_at
    received = record.received_at
    same_day = timezone.localdate(on_site) == timezone.localdate(received)
    position = record.fields.get("position")
    at = (
        f" at {float(position['latitude']):.5f}, {float(position['longitude']):.5f} "
        f"(±{float(position['accuracy']):.0f} m)"
        if position
        else ""
    )
    return (
        f"recorded on site {human_datetime(on_site)} (offline){at}, received "
        f"{human_time(received) if same_day else human_datetime(received)}"
    )


def _position(raw) -> None:
    """The phone's GPS position, when the inspector allowed it: latitude,
    longitude and accuracy in metres, as numbers."""
    if raw is None:
        return
    try:
        latitude, longitude, accuracy = (
            float(raw[name]) for name in ("latitude", "longitude", "accuracy")
        )
        plausible = (
            -90 <= latitude <= 90 and -180 <= longitude <= 180 and 0 <= accuracy < 1e6
        )
    except (KeyError, TypeError, ValueError):
        plausible = False
    if not plausible:
        raise Refused.invalid(
            {"position": "The phone's position could not be read; save it again."}
        )


def _valid(form_class, data) -> dict:
    form = form_class(data=data if isinstance(data, dict) else {})
    if not form.is_valid():
        raise Refused.invalid(forms.refusals(form))
    return form.cleaned_data


def _samples(raw) -> list[dict]:
    if raw in (None, ""):
        return []
    if not isinstance(raw, list) or len(raw) > forms.SAMPLES_MAX:
        raise Refused.invalid(
            {"samples": f"Send at most {forms.SAMPLES_MAX} samples, as a list."}
        )
    return [_valid(forms.SampleForm, sample) for sample in raw]


def _visit_conflict(inspection: Inspection, version: str) -> str:
    """Why a visit for `inspection` is not applied as sent ("" when it is)."""
    if inspection.status == InspectionStatus.CANCELLED:
        return "The inspection was cancelled in the office after the download."
    if inspection.status != InspectionStatus.SCHEDULED:
        return "The visit was already recorded in the office after the download."
    if inspection_version(inspection) != version:
        return (
            "The inspection was rescheduled or reassigned in the office after the "
            "download."
        )
    return ""


def _apply_visit(record: FieldRecord, *, actor, words: str) -> None:
    fields = _valid(forms.VisitForm, record.fields)
    samples = _samples(record.fields.get("samples"))
    inspection = inspection_record(
        actor=actor,
        inspection=record.inspection,
        expected_status=InspectionStatus.SCHEDULED,
        provenance=words,
        **fields,
    )
    sampled_on = timezone.localdate(fields["performed_at"])
    for sample in samples:
        sample_add(
            actor=actor,
            inspection=inspection,
            parameter=sample["parameter"],
            chain_of_custody_number=sample["bottle"],
            sampled_on=sampled_on,
        )


def _apply_screening(record: FieldRecord, *, actor, words: str) -> None:
    record.screening = screening_record(
        actor=actor,
        outfall=record.outfall,
        provenance=words,
        **_valid(forms.ScreeningForm, record.fields),
    )


def _item(*, actor, kind, item_id, version, fields) -> tuple[dict, str]:
    """The record's inspection or outfall ({field: item}) and why it is not to
    be applied as sent ("" when it is). Refuses input the office's forms would
    refuse, before anything is kept."""
    try:
        pk = int(item_id)
    except (TypeError, ValueError):
        raise Refused.invalid(
            {"item": "The record names no inspection or outfall."}
        ) from None
    if kind == FieldRecord.Kind.VISIT:
        inspection = (
            Inspection.objects.select_related("premises", "case").filter(pk=pk).first()
        )
        if inspection is None:
            raise Refused.invalid({"item": "There is no such inspection."})
        # Theirs now, or when they downloaded it (reassigned since: kept below).
        downloaded_as_theirs = version.rsplit("|", 1)[-1] == str(actor.pk)
        if inspection.officer_id != actor.pk and not downloaded_as_theirs:
            raise NotYours(
                "This inspection is assigned to another inspector: nothing was "
                "recorded."
            )
        _valid(forms.VisitForm, fields)
        _samples(fields.get("samples"))
        return {"inspection": inspection}, _visit_conflict(inspection, version)
    outfall = Outfall.objects.filter(pk=pk).first()
    if outfall is None:
        raise Refused.invalid({"item": "There is no such outfall."})
    _valid(forms.ScreeningForm, fields)
    conflict = (
        "The outfall was taken out of service in the office after the download."
        if outfall_version(outfall) != version
        else ""
    )
    return {"outfall": outfall}, conflict


def field_record_receive(
    *, actor, key: str, kind: str, item_id, version: str, recorded_on_site_at, fields
) -> FieldRecord:
    """Receive a record made on `actor`'s phone. Who: SMO staff (the inspector).
    Returns the stored FieldRecord (applied, or kept for the SMO: `problem` says
    why); the same one again when `key` was sent before with the same contents.
    Raises Refused (bad input: nothing kept), NotYours, KeyReused."""
    require_role(actor, Role.SMO, doing=DOING)
    if not is_key(key):
        raise Refused.invalid({"key": "The record has no valid key; save it again."})
    if kind not in FieldRecord.Kind.values:
        raise Refused.invalid({"kind": "Send a visit or a screening."})
    if not isinstance(fields, dict):
        raise Refused.invalid({"fields": "The record's fields are missing."})
    _position(fields.get("position"))
    if recorded_on_site_at is None:
        raise Refused.invalid({"recorded_on_site_at": "When was it recorded?"})
    if recorded_on_site_at > timezone.now() + forms.CLOCK_SLACK:
        raise Refused.invalid(
            {
                "recorded_on_site_at": "The phone says it was recorded in the "
                "future: check the phone's date and time, then send it again."
            }
        )
    content = {
        "kind": kind,
        "item": str(item_id),
        "version": version,
        "recorded_on_site_at": recorded_on_site_at.isoformat(),
        "fields": fields,
    }

    def create():
        item, conflict = _item(
            actor=actor, kind=kind, item_id=item_id, version=version, fields=fields
        )
        record = FieldRecord(
            key=key,
            kind=kind,
            inspector=actor,
            fields=fields,
            downloaded_version=version,
            recorded_on_site_at=recorded_on_site_at,
            received_at=timezone.now(),
            state=(
                FieldRecord.State.NEEDS_ATTENTION
                if conflict
                else FieldRecord.State.APPLIED
            ),
            problem=conflict,
            **item,
        )
        if conflict:
            record.save()
            case, premises = chronology_links(record)
            record_event(
                case=case,
                premises=premises,
                actor=actor,
                kind="fieldwork",
                summary=f"{record.get_kind_display()} sent from a phone kept for "
                f"the SMO to decide: {conflict} ({provenance(record)})",
                subject=record,
            )
            return record
        apply = _apply_visit if kind == FieldRecord.Kind.VISIT else _apply_screening
        apply(record, actor=actor, words=provenance(record))
        record.save()
        return record

    return store_once(scope=SCOPE, key=key, content=content, create=create)


def _place(photo: FieldPhoto, record: FieldRecord, *, actor) -> None:
    """Add `photo` to its applied record's inspection or screening (through the
    office's photo services); when the office refuses (the inspection was
    finalized before the photo arrived), keep it here and say why."""
    with photo.original.open("rb") as stored:
        upload = ContentFile(stored.read(), name=photo.original_name)
    add, owner = (
        (photo_add, {"inspection": record.inspection})
        if record.kind == FieldRecord.Kind.VISIT
        else (screening_photo_add, {"screening": record.screening})
    )
    try:
        with transaction.atomic():
            add(
                actor=actor,
                upload=upload,
                caption=photo.caption,
                taken_by=photo.uploaded_by,
                **owner,
            )
    except ValidationError as exc:  # Refused: the inspection was locked meanwhile
        photo.problem = " ".join(exc.messages)
        photo.save(update_fields=["problem"])
        case, premises = chronology_links(record)
        record_event(
            case=case,
            premises=premises,
            actor=actor,
            kind="fieldwork",
            summary="Photo sent from a phone kept with the "
            f"{record.get_kind_display().lower()}, not added: {photo.problem}",
            subject=photo,
        )
        return
    photo.placed_at = timezone.now()
    photo.save(update_fields=["placed_at"])


def field_photo_receive(*, actor, record_key: str, key: str, upload, caption=""):
    """Receive a photo taken with the record `record_key` on `actor`'s phone.
    Who: SMO staff (the inspector who sent the record). Placed with the record
    when it is applied; kept with it while it waits for the SMO. Returns the
    FieldPhoto; the same one when `key` was sent before with the same photo.
    Raises Refused (not a photo, the record not received yet: nothing kept),
    NotYours, KeyReused."""
    require_role(actor, Role.SMO, doing=DOING)
    if not is_key(key):
        raise Refused.invalid({"key": "The photo has no valid key; take it again."})
    if upload is None:
        raise Refused.invalid({"photo": "No photo was sent."})
    record = FieldRecord.objects.filter(key=str(record_key)).first()
    if record is None:
        raise Refused.invalid(
            {"record": "Its record has not arrived yet: it is sent again after it."}
        )
    if record.inspector_id != actor.pk:
        raise NotYours("This photo's record was sent by another inspector.")
    try:
        processed = process_image_upload(upload)
    except ValidationError as exc:
        raise Refused.invalid({"photo": exc.messages}) from None
    caption = str(caption or "")[:200]
    content = {"record": record.key, "sha256": processed.original_sha256}

    def create():
        locked = FieldRecord.objects.select_for_update().get(pk=record.pk)
        if locked.photos.count() >= PHOTOS_MAX:
            raise Refused.invalid(
                {"photo": f"A record takes at most {PHOTOS_MAX} photos."}
            )
        photo = FieldPhoto.of(
            processed, record=locked, key=key, caption=caption, uploaded_by=actor
        )
        photo.save()
        if locked.state == FieldRecord.State.APPLIED:
            _place(photo, locked, actor=actor)
        return photo

    return store_once(scope=PHOTO_SCOPE, key=key, content=content, create=create)


def field_record_apply(*, actor, record: FieldRecord) -> FieldRecord:
    """Apply a kept record as it was sent, through the office's own services (a
    visit only to an inspection still scheduled). Who: SMO staff. Raises
    Refused."""

    def after(locked):
        words = (
            f"{provenance(locked)}; applied after review by "
            f"{actor.get_full_name() or actor.get_username()}"
        )
        if locked.kind == FieldRecord.Kind.VISIT:
            if locked.inspection.status != InspectionStatus.SCHEDULED:
                raise Refused(
                    f"Inspection {locked.inspection_id} is "
                    f"{locked.inspection.get_status_display().lower()}: a visit "
                    "cannot be recorded on it. Set this record aside (its "
                    "contents stay here), or schedule a new inspection.",
                    lead="Not applied:",
                )
            _apply_visit(locked, actor=actor, words=words)
        else:
            _apply_screening(locked, actor=actor, words=words)
            locked.save(update_fields=["screening"])
        for photo in locked.photos.filter(placed_at=None):
            _place(photo, locked, actor=actor)

    return run(
        record,
        "apply",
        actor=actor,
        field_name="state",
        expected_status=FieldRecord.State.NEEDS_ATTENTION,
        fields={"decided_by": actor, "decided_at": timezone.now()},
        event_kind="fieldwork",
        summary=lambda label, was, now: (
            f"{record.get_kind_display()} sent from a phone applied by the SMO"
        ),
        after=after,
    )


def field_record_set_aside(*, actor, record: FieldRecord, note: str) -> FieldRecord:
    """Keep a kept record as sent without applying it; `note` says why. Who: SMO
    staff. Raises Refused (no note)."""
    return run(
        record,
        "set_aside",
        actor=actor,
        field_name="state",
        expected_status=FieldRecord.State.NEEDS_ATTENTION,
        fields={
            "decided_by": actor,
            "decided_at": timezone.now(),
            "decision_note": note.strip(),
        },
        event_kind="fieldwork",
        summary=lambda label, was, now: (
            f"{record.get_kind_display()} sent from a phone set aside by the SMO"
        ),
        detail=note.strip(),
    )
