"""Appeals to the Board of Trustees (R-APL-1..3): the clerk's records. The clerk
and the SMO may record; the decision drives the notice (R-COR-1 or withdrawal)."""

import datetime as dt

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from cases.clocks import apply as apply_clocks
from deadlines.services import deadlines_for, open_deadline_for
from kernel.humanize import human_datetime, human_long_date
from kernel.input_guard import article_number_clean
from kernel.models import CaseEvent
from kernel.roles import Role, has_role, require_role
from kernel.timeline import record_event
from kernel.uploads import process_filed_document, sha256_of, sniffed_type

from ..models import (
    Appeal,
    AppealDocument,
    AppealStatus,
    Decision,
    NoticeOfViolation,
)
from .flow import Refused, run_step
from .notices import case_recipients

MAX_DOCUMENT_BYTES = 20 * 1024 * 1024


def _require_recorder(actor):
    require_role(actor, Role.CLERK, Role.SMO, doing="record appeals")


def appeal_due_date(notice) -> dt.date | None:
    """The last day to appeal: the due date of the notice's R-APL-1 deadline."""
    deadline = (
        deadlines_for(notice).filter(rule_id="R-APL-1").order_by("-due_date").first()
    )
    return deadline.due_date if deadline else None


@transaction.atomic
def appeal_file(
    *, notice, actor, appellant, filed_on: dt.date, grounds: str, documents=()
) -> Appeal:
    """Record an appeal of `notice` filed on `filed_on`. Who: clerk or SMO.

    Never refused for lateness: an appeal filed after the last day (R-APL-1) is
    recorded and flagged late; the Board decides. Opens the hearing-by deadline
    (R-APL-2). Raises Refused (wrong role, notice not in force) or
    ValidationError (bad input)."""
    _require_recorder(actor)
    if filed_on > timezone.localdate():
        raise Refused.invalid({"filed_on": "The filing date cannot be in the future."})
    appeal = _file(
        notice=notice,
        appellant=appellant,
        filed_on=filed_on,
        grounds=grounds,
        actor=actor,
        summary_by="",
    )
    for upload in documents:
        appeal_add_document(appeal=appeal, actor=actor, upload=upload)
    return appeal


@transaction.atomic
def appeal_file_online(
    *, access, notice, grounds: str, address: str, email="", phone="", documents=()
) -> Appeal:
    """An appeal filed by the notice's recipient on their page (issue 18):
    received now, its date the village's date of this moment (§ 132-14, "within
    15 days of its issuance"), from `address`; a receipt number; the same rules
    as a paper appeal the clerk records (`_file`): late ones accepted and
    flagged, R-APL-1 met, R-APL-2 opened. Raises Refused or ValidationError."""
    from django.core.validators import validate_email

    from kernel.timeline import record_portal_event

    if notice.case_id != access.case_id or notice.recipient_id != access.party_id:
        raise Refused("This notice was not addressed to you.")
    errors = {}
    email, phone = (email or "").strip(), (phone or "").strip()[:40]
    if email:
        try:
            validate_email(email)
        except ValidationError:
            errors["email"] = "That is not an e-mail address."
    if errors:
        raise Refused.invalid(errors)
    filed = []
    for upload in documents:
        _check_document(upload, field="documents")
        try:
            filed.append(
                (upload, process_filed_document(upload, limit=MAX_DOCUMENT_BYTES))
            )
        except ValidationError as exc:
            raise Refused.invalid({"documents": exc.messages}) from exc
    received_at = timezone.now()
    appeal = _file(
        notice=notice,
        appellant=access.party,
        filed_on=timezone.localdate(received_at),
        grounds=grounds,
        actor=None,
        summary_by=" on the respondent's page",
        online={
            "filed_online": True,
            "received_at": received_at,
            "received_from": address or None,
            "contact_email": email,
            "contact_phone": phone,
        },
    )
    appeal.receipt_number = f"APL-{appeal.pk}-{appeal.received_at:%Y%m%d}"
    appeal.save(update_fields=["receipt_number"])
    for upload, document in filed:
        _store_document(appeal=appeal, actor=None, upload=upload, filed=document)
    record_portal_event(
        access,
        address,
        f"filed appeal {appeal.pk} of NOV-{notice.pk} online (receipt "
        f"{appeal.receipt_number})",
        subject=appeal,
        detail=grounds,
    )
    if email:
        _queue_receipt(appeal, email)
    return appeal


def _file(*, notice, appellant, filed_on, grounds, actor, summary_by, online=None):
    """The one implementation of an appeal's filing, paper or online."""
    notice = NoticeOfViolation.objects.select_for_update().get(pk=notice.pk)
    if not notice.can_be_appealed():
        earlier = notice.appeals.exclude(status=AppealStatus.WITHDRAWN).first()
        if earlier is not None:
            raise Refused(
                f"Notice NOV-{notice.pk} has already been appealed (appeal "
                f"{earlier.pk}, {earlier.get_status_display().lower()}); a notice "
                "is appealed once."
            )
        raise Refused(
            "Only an issued notice in force can be appealed; this one is "
            f"“{notice.get_status_display()}”."
        )
    errors = {}
    if not case_recipients(notice.case).filter(pk=appellant.pk).exists():
        errors["appellant"] = "The appellant must be a party named on the case."
    if notice.issued_on and filed_on < notice.issued_on:
        errors["filed_on"] = "An appeal cannot be filed before the notice was issued."
    if not grounds.strip():
        errors["grounds"] = "Give the grounds of the appeal."
    if errors:
        raise Refused.invalid(errors)
    due = appeal_due_date(notice)
    late = due is not None and filed_on > due
    appeal = Appeal.objects.create(
        notice=notice,
        appellant=appellant,
        filed_on=filed_on,
        grounds=grounds,
        appeal_due=due or filed_on,
        is_late=late,
        recorded_by=actor,
        **(online or {}),
    )
    summary = (
        f"Appeal {appeal.pk} of notice {notice.pk} filed by {appellant.name}"
        f"{summary_by} on {human_long_date(filed_on)}"
    )
    if late:
        summary += f" — LATE: the last day to appeal was {human_long_date(due)}"
    record_event(
        case=notice.case,
        actor=actor,
        by=CaseEvent.ActorKind.RESPONDENT if online else CaseEvent.ActorKind.SYSTEM,
        kind="appeal",
        summary=summary,
        detail=grounds,
        rule_id="R-APL-1",
        subject=appeal,
    )
    # R-APL-1 met; the hearing-by clock (R-APL-2) starts unless it is late.
    apply_clocks(appeal, "file", actor=actor)
    return appeal


def _queue_receipt(appeal, email):
    """The acknowledgment e-mail with the receipt number, through the outbox."""
    from django.conf import settings
    from django.template.loader import render_to_string

    from outbox import services as outbox
    from outbox.models import OutgoingMessage

    body = render_to_string(
        "enforcement/email/appeal_receipt.txt",
        {
            "appeal": appeal,
            "village": settings.VILLAGE,
            "hearing_by": hearing_by(appeal),
        },
    )
    outbox.message_queue(
        kind=OutgoingMessage.Kind.APPEAL_RECEIPT,
        source=appeal,
        recipient=email,
        cause=f"Receipt of appeal {appeal.receipt_number} filed online",
        subject=f"Your appeal to the Board of Trustees: receipt {appeal.receipt_number}",
        body=body,
        case=appeal.case,
    )


@transaction.atomic
def appeal_add_document(*, appeal, actor, upload, description="") -> AppealDocument:
    """Keep a document filed with the appeal (private, with its SHA-256).
    Who: clerk or SMO."""
    _require_recorder(actor)
    _check_document(upload)
    return _store_document(
        appeal=appeal, actor=actor, upload=upload, description=description
    )


def _check_document(upload, field="document"):
    if upload.size > MAX_DOCUMENT_BYTES:
        raise Refused.invalid({field: f"“{upload.name}” is larger than 20 MB."})
    if upload.size == 0:
        raise Refused.invalid({field: f"“{upload.name}” is empty."})


def _store_document(
    *, appeal, actor, upload, description="", filed=None
) -> AppealDocument:
    """`filed`: the document as kernel.uploads.process_filed_document checked it
    (a document from the respondent's page: sniffed type, images stripped of
    their metadata); without it, the upload as the clerk or SMO recorded it (its
    type is sniffed again when it is served)."""
    document = AppealDocument(
        appeal=appeal,
        original_name=(upload.name or "document")[:200],
        content_type=(
            filed.content_type
            if filed
            else sniffed_type(_head(upload)) or "application/octet-stream"
        ),
        size=filed.size if filed else upload.size,
        sha256=filed.sha256 if filed else sha256_of(upload),
        description=description,
        uploaded_by=actor if getattr(actor, "is_authenticated", False) else None,
    )
    document.file.save("upload", filed.content if filed else upload, save=False)
    document.save()
    record_event(
        case=appeal.case,
        actor=actor,
        kind="appeal",
        summary=f"Appeal {appeal.pk}: document “{document.original_name}” filed",
        detail=f"SHA-256 {document.sha256}",
        rule_id="R-APL-1",
        subject=document,
    )
    return document


def _head(upload) -> bytes:
    upload.seek(0)
    head = upload.read(16)
    upload.seek(0)
    return head


def hearing_by(appeal) -> dt.date | None:
    """The date the Board must hear the appeal by (R-APL-2)."""
    deadline = (
        deadlines_for(appeal).filter(rule_id="R-APL-2").order_by("-due_date").first()
    )
    return deadline.due_date if deadline else None


@transaction.atomic
def appeal_schedule_hearing(
    *, appeal, actor, hearing_at=None, location="", meeting=None
) -> tuple[Appeal, str]:
    """Schedule (or move) the Board's hearing. Who: the clerk (the Board's act,
    not the SMO's: kernel.roles.clerk_permission). A date after
    the hearing-by date (R-APL-2) is allowed, flagged and warned about.

    At a Board meeting: `meeting` (one recorded), or `hearing_at` and `location`
    (the meeting at that moment and place, recorded if new); the hearing's date,
    time and place are the meeting's. Returns (appeal, warning or '')."""
    moment = timezone.localtime(hearing_at) if hearing_at else None
    if (
        meeting is None
        and moment is not None
        and location.strip()
        and moment.date() >= max(timezone.localdate(), appeal.filed_on)
        and has_role(actor, Role.CLERK)
    ):
        # Otherwise the step's own guards and permission say why not.
        from .meetings import meeting_for

        meeting = meeting_for(
            actor=actor,
            date=moment.date(),
            time=moment.time().replace(second=0, microsecond=0),
            place=location,
        )
    if meeting is not None:
        hearing_at = meeting.starts_at()
        location = meeting.place
    limit = hearing_by(appeal)
    day = timezone.localtime(hearing_at).date() if hearing_at else None
    past = bool(limit and day and day > limit)
    warning = (
        f"The hearing on {human_long_date(day)} is after the hearing-by date, "
        f"{human_long_date(limit)} (30 days after filing, R-APL-2)."
        if past
        else ""
    )
    appeal = run_step(
        obj=appeal,
        transition="schedule_hearing",
        actor=actor,
        event_kind="appeal",
        fields={
            "hearing_at": hearing_at,
            "hearing_location": location,
            "hearing_past_limit": past,
            "meeting": meeting,
        },
        detail=(
            f"Hearing {human_datetime(hearing_at)}"
            + (f", {location.strip()}" if location.strip() else "")
            if hearing_at
            else ""
        )
        + (f" {warning}" if warning else ""),
    )
    return appeal, warning


def appeal_decide(
    *,
    appeal,
    actor,
    decision,
    decided_on: dt.date,
    resolution: str,
    modification: str = "",
) -> Appeal:
    """Record the Board's decision. Who: the clerk (the Board's act, not the
    SMO's whose notice is appealed).

    Meets the hearing deadline (R-APL-2) on the hearing day; opens the two
    five-day deadlines to file the decision with the municipal clerk and to mail
    it by certified mail (R-APL-3). Then, by the decision:

    - upheld: opens the five business days to correct (R-COR-1) on the notice,
      after which the SMO requests access to abate;
    - modified: records what the Board modified (required: the guard
      `states_what_was_modified`). No R-COR-1 clock opens: § 132-15 A runs it
      "within five business days of the decision of the municipal authority
      upholding the decision of the SMO", and a modified decision does not
      uphold it. The notice appealed no longer states the requirements that
      stand, so its remediation deadline (R-NOV-2) is waived; the SMO issues a
      notice superseding it with the requirements as modified (the correction
      pipeline, `notice_start_correction` then `notice_issue`), and that notice's
      own terms govern — "not corrected pursuant to the requirements set forth
      in the notice of violation" (§ 132-15 A, first branch): its R-NOV-2
      deadline, or R-COR-1 after a decision upholding it if it is appealed;
    - reversed: the notice is withdrawn and its open deadlines waived.

    Raises Refused (with every failing guard) or ValidationError (a decision
    dated in the future)."""
    if decided_on and decided_on > timezone.localdate():
        raise Refused.invalid(
            {"decided_on": "The decision date cannot be in the future."}
        )

    def after(decided):
        # The clocks (R-APL-2 met, R-APL-3 started, R-COR-1 replacing the
        # notice's own dates when upheld) are the clock table's (cases.clocks).
        notice = decided.notice
        if decided.decision == Decision.MODIFIED:
            _requirements_modified(decided, actor)
        elif decided.decision == Decision.UPHELD:
            deadline = open_deadline_for(notice, "R-COR-1")
            record_event(
                case=notice.case,
                actor=actor,
                kind="enforcement",
                summary=f"Corrective-measures clock started: correct by "
                f"{human_long_date(deadline.due_date)}, or the SMO requests access to "
                "abate (R-COR-1)",
                rule_id="R-COR-1",
                subject=notice,
            )
        elif decided.decision == Decision.REVERSED:
            run_step(
                obj=notice,
                transition="withdraw_on_reversal",
                actor=actor,
                event_kind="notice",
                detail=f"The Board of Trustees reversed the SMO on {human_long_date(decided_on)}.",
            )

    return run_step(
        obj=appeal,
        transition="decide",
        actor=actor,
        event_kind="appeal",
        fields={
            "decision": decision,
            "decided_on": decided_on,
            "resolution": resolution,
            "modification": modification or "",
        },
        detail=resolution
        + (f"\nWhat the Board modified: {modification}" if modification else ""),
        after=after,
    )


def _requirements_modified(decided, actor):
    """After a modified decision the notice appealed keeps no compliance clock
    of its own (the clock table ends them); the chronology says what the SMO
    does next."""
    notice = decided.notice
    on = decided.decided_on
    record_event(
        case=notice.case,
        actor=actor,
        kind="enforcement",
        summary=f"Modified by the Board on {human_long_date(on)}: no five-business-day "
        f"correction clock on NOV-{notice.pk} (R-COR-1 runs from a decision "
        "upholding the SMO); the SMO issues a notice superseding it with the "
        "requirements as modified, whose own dates govern",
        detail=decided.modification,
        rule_id="R-COR-1",
        subject=notice,
    )


# The clock table's step for each act the clerk records (cases.clocks).
_RECORD_STEPS = {"filed": "record_filing", "mailed": "record_mailing"}


def _record_act(appeal, actor, purpose, on, field_values, what):
    _require_recorder(actor)
    with transaction.atomic():
        locked = Appeal.objects.select_for_update().get(pk=appeal.pk)
        still_to_record, recorded = {
            "filed": (locked.awaits_clerk_filing, "filing with the municipal clerk"),
            "mailed": (locked.awaits_mailing, "certified mailing"),
        }[purpose]
        if not still_to_record():
            if locked.decided_on:
                raise Refused(f"The {recorded} of the decision is already recorded.")
            raise Refused(
                f"Record this once the Board has decided; the appeal is "
                f"“{locked.get_status_display()}”."
            )
        if on < locked.decided_on:
            raise Refused.invalid(
                {f"{purpose}_on": "This cannot come before the decision."}
            )
        if on > timezone.localdate():
            raise Refused.invalid(
                {f"{purpose}_on": "The date cannot be in the future."}
            )
        for name, value in field_values.items():
            setattr(locked, name, value)
        locked.save(update_fields=list(field_values))
        deadline = open_deadline_for(
            locked, "R-APL-3", {"filed": "file", "mailed": "mail"}[purpose]
        )
        warning = ""
        if deadline is not None and on > deadline.due_date:
            warning = (
                f"{what} on {human_long_date(on)} is after the limit, "
                f"{human_long_date(deadline.due_date)} (five days after the "
                "decision, R-APL-3)."
            )
        apply_clocks(locked, _RECORD_STEPS[purpose], actor=actor)
        record_event(
            case=locked.case,
            actor=actor,
            kind="appeal",
            summary=f"Appeal {locked.pk}: {what} on {human_long_date(on)}"
            + (" (late)" if warning else ""),
            rule_id="R-APL-3",
            subject=locked,
        )
        if locked.is_filed_and_mailed():
            locked = run_step(
                obj=locked, transition="close", actor=actor, event_kind="appeal"
            )
    return locked, warning


def appeal_record_clerk_filing(
    *, appeal, actor, filed_on: dt.date
) -> tuple[Appeal, str]:
    """Record the date the decision was filed in the office of the municipal
    clerk. Who: clerk or SMO. Returns (appeal, warning if past the limit)."""
    return _record_act(
        appeal,
        actor,
        "filed",
        filed_on,
        {"filed_with_clerk_on": filed_on},
        "decision filed with the municipal clerk",
    )


def appeal_record_mailing(
    *, appeal, actor, mailed_on: dt.date, article_number: str
) -> tuple[Appeal, str]:
    """Record the certified mailing of the decision to the discharger, with the
    article number (20 or 22 digits, stored without spaces). Who: clerk or SMO.
    Returns (appeal, warning if late)."""
    try:
        digits = article_number_clean(article_number)
    except ValidationError as error:
        raise Refused.invalid({"article_number": error.messages}) from None
    return _record_act(
        appeal,
        actor,
        "mailed",
        mailed_on,
        {"mailed_on": mailed_on, "mail_article_number": digits},
        f"decision mailed by certified mail (article {digits})",
    )


def appeal_accept_late(*, appeal, actor) -> Appeal:
    """Record that the Board accepted an appeal filed after the 15 days
    (R-APL-1): its hearing-by clock starts, counted from the filing (R-APL-2;
    the clock table). Who: the clerk."""
    return run_step(
        obj=appeal, transition="accept_late", actor=actor, event_kind="appeal"
    )


def appeal_withdraw(*, appeal, actor, reason: str) -> Appeal:
    """Record that the appellant withdrew the appeal. Who: clerk or SMO. Its
    hearing-by clock ends (the clock table)."""
    return run_step(
        obj=appeal,
        transition="withdraw",
        actor=actor,
        event_kind="appeal",
        fields={"withdrawn_reason": reason},
        detail=reason,
    )
