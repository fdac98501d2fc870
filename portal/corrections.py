"""Proof of correction from the respondent's page (issue 18): the respondent
sends a statement with photos or PDFs that the work a notice requires is done;
the SMO accepts it (and may record the notice complied, through the notice's
state machine, in the same step) or rejects it with a reason the respondent
reads. Every step is an entry of the case's chronology."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from kernel.humanize import human_datetime
from kernel.roles import Role, require_role
from kernel.timeline import record_portal_event
from kernel.uploads import ProcessedImage, process_photo_or_pdf, validate_upload_set
from kernel.workflow import Refused, run

from .models import CorrectionFile, CorrectionStatus, CorrectionSubmission

MAX_STATEMENT = 4000


def correctable_notice(access, notice_pk):
    """The notice `notice_pk` if it is addressed to the access's party on its
    case and still requires its work (issued or not complied); else None."""
    from enforcement.models import NoticeOfViolation
    from enforcement.models.notices import CORRECTABLE

    return NoticeOfViolation.objects.filter(
        pk=notice_pk,
        case_id=access.case_id,
        recipient_id=access.party_id,
        status__in=CORRECTABLE,
    ).first()


def correction_submit(
    *, access, notice, statement: str, uploads, address: str
) -> CorrectionSubmission:
    """Record the respondent's proof. Every file is checked (and a photo
    re-encoded) before anything is saved; nothing is kept when one fails.
    Raises ValidationError with words the respondent can act on."""
    from enforcement.models import NoticeOfViolation
    from enforcement.models.notices import CORRECTABLE

    statement = (statement or "").strip()
    uploads = list(uploads)
    errors = {}
    if len(statement) > MAX_STATEMENT:
        errors["statement"] = (
            f"Please keep the statement under {MAX_STATEMENT} characters."
        )
    if not statement and not uploads:
        errors["statement"] = "Say what was done, or attach a photo or document."
    processed = []
    try:
        validate_upload_set(uploads)
        processed = [process_photo_or_pdf(upload) for upload in uploads]
    except ValidationError as exc:
        errors["files"] = " ".join(exc.messages)
    if errors:
        raise Refused.invalid(errors)
    with transaction.atomic():
        notice = NoticeOfViolation.objects.select_for_update().get(pk=notice.pk)
        if notice.status not in CORRECTABLE:
            raise Refused(
                f"Notice NOV-{notice.pk} no longer requires its work "
                f"({notice.get_status_display().lower()}); nothing was sent."
            )
        submission = CorrectionSubmission.objects.create(
            access=access,
            notice=notice,
            statement=statement,
            submitted_from=address or None,
        )
        for item, upload in zip(processed, uploads, strict=True):
            _store_file(submission, item, upload)
        record_portal_event(
            access,
            address,
            f"sent proof of correction {submission.pk} of NOV-{notice.pk} "
            f"({_count(len(processed))})",
            subject=submission,
            detail=statement,
        )
    return submission


def _count(n: int) -> str:
    return "no file" if n == 0 else ("1 file" if n == 1 else f"{n} files")


def _store_file(submission, item, upload) -> CorrectionFile:
    photo = isinstance(item, ProcessedImage)
    stored = CorrectionFile(
        submission=submission,
        original=item.original,
        original_sha256=item.original_sha256,
        original_name=item.original_name,
        content_type="image/jpeg" if photo else "application/pdf",
        size=getattr(upload, "size", 0) or item.original.size,
    )
    if photo:
        stored.display = item.display
        stored.width, stored.height = item.width, item.height
    stored.save()
    return stored


def _decide(submission, name, *, actor, reason="", summary, after=None):
    """The SMO's decision on a proof, through the kernel (kernel.workflow.run):
    its lock, role and guards, one chronology event. Refused when it was
    reviewed already, with no reason for a refusal, or for another role."""
    try:
        return run(
            submission,
            name,
            actor=actor,
            fields={
                "decided_by": actor,
                "decided_at": timezone.now(),
                "reason": reason,
            },
            event_kind="portal",
            summary=lambda label, was, now: summary(_sent_by(submission))[:300],
            after=after,
        )
    except Refused:
        current = CorrectionSubmission.objects.get(pk=submission.pk)
        if current.status != CorrectionStatus.PENDING:
            raise Refused("This proof of correction was reviewed already.") from None
        raise


def _sent_by(submission) -> str:
    return (
        f"Proof of correction {submission.pk} of NOV-{submission.notice_id} sent by "
        f"{submission.access.party.name}"
    )


@transaction.atomic
def correction_accept(
    *, submission, actor, complied_on=None, record_compliance: bool = False
) -> CorrectionSubmission:
    """The SMO accepts the proof. With `record_compliance`, the notice is
    recorded complied on `complied_on` (default: the day the proof was sent)
    through its state machine in the same step; a refusal there keeps the proof
    waiting. Who: SMO."""
    require_role(actor, Role.SMO, doing="review proof of correction")
    locked = _decide(
        submission,
        "accept",
        actor=actor,
        summary=lambda words: f"{words} accepted",
    )
    if record_compliance:
        from enforcement.services.notices import notice_record_compliance

        notice_record_compliance(
            notice=locked.notice,
            actor=actor,
            complied_on=complied_on or timezone.localdate(locked.submitted_at),
            note=f"Shown by proof of correction {locked.pk}, sent on the "
            f"respondent's page {human_datetime(locked.submitted_at)} "
            "and accepted by the SMO.",
        )
    return locked


@transaction.atomic
def correction_reject(*, submission, actor, reason: str) -> CorrectionSubmission:
    """The SMO rejects the proof with a reason the respondent reads on their
    page. The notice's dates run on. Who: SMO."""
    require_role(actor, Role.SMO, doing="review proof of correction")
    reason = (reason or "").strip()[:2000]
    if not reason:  # the step's guard says the same; here in the page's words
        raise Refused("Say why the proof is not accepted; the respondent reads it.")
    return _decide(
        submission,
        "reject",
        actor=actor,
        reason=reason,
        summary=lambda words: f"{words} not accepted: {reason}",
    )


def corrections_of(access):
    """The party's proofs on the case (whichever of its codes sent them)."""
    return (
        CorrectionSubmission.objects.filter(
            access__case_id=access.case_id, access__party_id=access.party_id
        )
        .prefetch_related("files")
        .order_by("-submitted_at", "-id")
    )


def waiting_review(case=None):
    """Proofs waiting for the SMO's review, oldest first (one case or all)."""
    qs = CorrectionSubmission.objects.filter(status=CorrectionStatus.PENDING)
    if case is not None:
        qs = qs.filter(access__case=case)
    return qs.select_related("access__party", "access__case", "notice").order_by(
        "submitted_at", "id"
    )
