"""Meetings of the Board of Trustees (R-APL-2): the clerk records them; a hearing
is scheduled at one (`appeals.appeal_schedule_hearing(meeting=...)`)."""

import datetime as dt

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.utils import timezone

from kernel.humanize import human_long_date
from kernel.input_guard import article_number_clean
from kernel.roles import Role, require_role
from kernel.workflow import Refused

from ..models import BoardMeeting, HearingNoticeService
from .notices import service_errors


def _require_clerk(actor):
    require_role(actor, Role.CLERK, doing="record the Board's meetings")


def _check(date, time, place):
    errors = {}
    if date is None:
        errors["date"] = "Give the date of the meeting."
    elif date < timezone.localdate():
        errors["date"] = "A meeting cannot be set on a day that has passed."
    if time is None:
        errors["time"] = "Give the time the meeting starts."
    if not (place or "").strip():
        errors["place"] = "Give the place of the meeting."
    if errors:
        raise Refused.invalid(errors)


@transaction.atomic
def meeting_create(
    *, actor, date: dt.date, time: dt.time, place: str, notes: str = ""
) -> BoardMeeting:
    """Record a Board meeting. Who: the clerk. Not on a day that has passed."""
    _require_clerk(actor)
    _check(date, time, place)
    return BoardMeeting.objects.create(
        date=date, time=time, place=place.strip(), notes=notes, created_by=actor
    )


@transaction.atomic
def meeting_for(*, actor, date, time, place: str) -> BoardMeeting:
    """The meeting at that date, time and place: the one recorded, or a new one.
    Who: the clerk."""
    _require_clerk(actor)
    _check(date, time, place)
    found = BoardMeeting.objects.filter(
        date=date, time=time, place__iexact=place.strip()
    ).first()
    return found or meeting_create(actor=actor, date=date, time=time, place=place)


@transaction.atomic
def meeting_update(*, meeting, actor, notes: str) -> BoardMeeting:
    """Change a meeting's notes. Who: the clerk. (Moving a meeting is moving each
    hearing: schedule them again at the new meeting.)"""
    _require_clerk(actor)
    meeting.notes = notes
    meeting.save(update_fields=["notes"])
    return meeting


def _has_email_address(text: str) -> bool:
    """Whether `text` (to whom it was sent) holds a valid e-mail address."""
    for word in text.replace(",", " ").replace("<", " ").replace(">", " ").split():
        if "@" in word:
            try:
                validate_email(word)
            except ValidationError:
                continue
            return True
    return False


@transaction.atomic
def hearing_notice_record_service(
    *, appeal, actor, method, served_on, sent_to, article_number="", served_by=""
) -> HearingNoticeService:
    """Record how and when the issued notice of hearing was sent (to the
    appellant, or the SMO's copy). Who: the clerk. Certified mail needs its
    article number; e-mail, the address in `sent_to`. Raises Refused or ValidationError."""
    from kernel.timeline import record_event

    require_role(actor, Role.CLERK, doing="record the sending of a notice of hearing")
    document = appeal.hearing_notice()
    if document is None:
        raise Refused("Issue the notice of hearing before recording its sending.")
    if appeal.hearing_notice_is_out_of_date():
        raise Refused(
            f"Notice of hearing {document.document_number} (version "
            f"{document.version}) gives the hearing as it was before it was moved: "
            "issue the corrected notice, then record its sending."
        )
    errors = service_errors(
        method=method,
        served_on=served_on,
        article_number=article_number,
        issued_on=dt.date.fromisoformat(document.facts["issued_on"]),
        too_early="It cannot be sent before it was issued.",
    )
    if not sent_to.strip():
        errors["sent_to"] = "Say to whom it was sent."
    elif method == HearingNoticeService.Method.EMAIL and not _has_email_address(
        sent_to
    ):
        errors["sent_to"] = (
            "Give the e-mail address it was sent to (for example "
            "Pat Owner, pat@example.org)."
        )
    if errors:
        raise Refused.invalid(errors)
    record = HearingNoticeService.objects.create(
        appeal=appeal,
        document=document,
        sent_to=sent_to.strip(),
        method=method,
        served_on=served_on,
        article_number=article_number_clean(article_number, required=False),
        served_by=served_by,
        recorded_by=actor,
    )
    extra = f", article {record.article_number}" if record.article_number else ""
    record_event(
        case=appeal.case,
        actor=actor,
        kind="appeal",
        summary=f"Notice of hearing {document.document_number} (version "
        f"{document.version}) sent to {record.sent_to}: "
        f"{record.get_method_display()} on {human_long_date(served_on)}{extra}",
        rule_id="R-APL-2",
        subject=record,
    )
    return record
