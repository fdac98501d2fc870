"""Notices of violation (R-NOV-1, R-NOV-2): draft, issue, serve, correct and
close. Only the SMO writes notices."""

import datetime as dt
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from cases.models import CaseStatus, Party
from cases.services import case_run_transition
from kernel.citations import cited
from kernel.humanize import human_date, human_long_date
from kernel.input_guard import article_number_clean
from kernel.roles import Role, require_role
from kernel.timeline import record_event

from .. import charges
from ..documents.notice import notice_document_issue
from ..models import (
    MAX_COMPLIANCE_DAYS,
    REQUIREMENTS_WITH_DAYS,
    NoticeFrozenError,
    NoticeOfViolation,
    NoticeRequirement,
    NoticeStatus,
    RequirementKind,
    ServiceCorrection,
    ServiceRecord,
)
from ..penalties import fine_error, tier_for_party
from .flow import Refused, run_step

DRAFTABLE_CASE_STATUSES = (CaseStatus.VIOLATION_CONFIRMED, CaseStatus.ENFORCEMENT)


def case_recipients(case):
    """The parties a notice on `case` may be addressed to: the responsible party
    and every party named on the case."""
    ids = set(case.case_parties.values_list("party_id", flat=True))
    if case.responsible_party_id:
        ids.add(case.responsible_party_id)
    return Party.objects.filter(pk__in=ids).order_by("name")


def _validate_content(
    *,
    case,
    recipient,
    requirements,
    remediation_days,
    proposed_fine,
    violation_date,
    compliance_days=None,
):
    errors = {}
    if case.status not in DRAFTABLE_CASE_STATUSES:
        raise Refused(
            "A notice of violation can be drafted only once the violation is "
            f"confirmed; the case is “{case.get_status_display()}”."
        )
    if not case_recipients(case).filter(pk=recipient.pk).exists():
        errors["recipient"] = "The recipient must be a party named on the case."
    kinds = [kind for kind, _ in requirements]
    if not kinds:
        errors["requirements"] = cited(
            "R-NOV-1", "Choose at least one requirement of {section}."
        )
    if len(set(kinds)) != len(kinds):
        errors["requirements"] = "Each requirement may be chosen once."
    for kind, particulars in requirements:
        if kind not in RequirementKind.values:
            errors["requirements"] = f"Unknown requirement {kind!r}."
        elif not particulars.strip():
            errors["requirements"] = (
                f"Give the particulars of “{RequirementKind(kind).label}”."
            )
    if RequirementKind.ABATEMENT in kinds:
        if not remediation_days:
            errors["remediation_days"] = (
                "Abatement or restoration is required: set the number of days to "
                "complete it (R-NOV-2)."
            )
    elif remediation_days:
        errors["remediation_days"] = (
            "A remediation deadline goes with the abatement/restoration requirement."
        )
    for kind, days in (compliance_days or {}).items():
        if days is None:
            continue
        label = RequirementKind(kind).label if kind in RequirementKind.values else kind
        if kind not in REQUIREMENTS_WITH_DAYS:
            errors[f"days_{kind}"] = (
                f"“{label}” takes no compliance date of its own"
                + (
                    ": set the remediation deadline (R-NOV-2)."
                    if kind == RequirementKind.ABATEMENT
                    else "."
                )
            )
        elif kind not in kinds:
            errors[f"days_{kind}"] = (
                f"A compliance date goes with the requirement “{label}”: choose it "
                "or leave the days empty."
            )
        elif isinstance(days, bool) or not isinstance(days, int) or days < 1:
            errors[f"days_{kind}"] = "Give a whole number of days, at least 1."
        elif days > MAX_COMPLIANCE_DAYS:
            errors[f"days_{kind}"] = f"At most {MAX_COMPLIANCE_DAYS} days."
    if RequirementKind.FINE in kinds:
        message = fine_error(
            tier_for_party(recipient, violation_date, exclude_case=case), proposed_fine
        )
        if message:
            errors["proposed_fine"] = message
    elif proposed_fine is not None:
        errors["proposed_fine"] = (
            "A fine goes with the “payment of a fine” requirement."
        )
    if violation_date > timezone.localdate():
        errors["violation_date"] = "The violation date cannot be in the future."
    if errors:
        raise Refused.invalid(errors)


def _set_requirements(notice, requirements, compliance_days=None):
    days = compliance_days or {}
    for requirement in list(notice.requirements.all()):
        requirement.delete()
    for kind, particulars in requirements:
        NoticeRequirement.objects.create(
            notice=notice,
            kind=kind,
            particulars=particulars.strip(),
            compliance_days=days.get(kind) or None,
        )


@transaction.atomic
def notice_draft(
    *,
    case,
    actor,
    recipient,
    violation_date: dt.date,
    findings: str,
    requirements: list[tuple[str, str]],
    remediation_days: int | None = None,
    proposed_fine: Decimal | None = None,
    supersedes: NoticeOfViolation | None = None,
    compliance_days: dict[str, int | None] | None = None,
) -> NoticeOfViolation:
    """Draft a notice of violation on `case`. Who: SMO. `compliance_days` gives
    the days to comply with a requirement that may have its own date
    (REQUIREMENTS_WITH_DAYS: kind → days, R-NOV-1); abatement/restoration has
    `remediation_days` (R-NOV-2). Raises Refused (wrong role, violation not
    confirmed) or ValidationError (bad content)."""
    require_role(actor, Role.SMO, doing="write notices of violation")
    _validate_content(
        case=case,
        recipient=recipient,
        requirements=requirements,
        remediation_days=remediation_days,
        proposed_fine=proposed_fine,
        violation_date=violation_date,
        compliance_days=compliance_days,
    )
    notice = NoticeOfViolation.objects.create(
        case=case,
        recipient=recipient,
        violation_date=violation_date,
        findings=findings,
        remediation_days=remediation_days or None,
        proposed_fine=proposed_fine,
        supersedes=supersedes,
        created_by=actor,
    )
    _set_requirements(notice, requirements, compliance_days)
    summary = f"Notice of violation {notice.pk} drafted to {recipient.name}"
    if supersedes is not None:
        summary += f" (correction of notice {supersedes.pk})"
    record_event(
        case=case,
        actor=actor,
        kind="notice",
        summary=summary,
        rule_id="R-NOV-1",
        subject=notice,
    )
    return notice


@transaction.atomic
def notice_update(
    *,
    notice,
    actor,
    recipient,
    violation_date,
    findings,
    requirements,
    remediation_days=None,
    proposed_fine=None,
    compliance_days=None,
) -> NoticeOfViolation:
    """Change a draft notice (as notice_draft). Who: SMO. An issued notice is
    frozen: raises NoticeFrozenError (issue a correction instead)."""
    require_role(actor, Role.SMO, doing="write notices of violation")
    notice = NoticeOfViolation.objects.select_for_update().get(pk=notice.pk)
    if notice.status != NoticeStatus.DRAFT:
        raise NoticeFrozenError(
            "This notice has been issued and is frozen; issue a correction that "
            "supersedes it."
        )
    _validate_content(
        case=notice.case,
        recipient=recipient,
        requirements=requirements,
        remediation_days=remediation_days,
        proposed_fine=proposed_fine,
        violation_date=violation_date,
        compliance_days=compliance_days,
    )
    notice.recipient = recipient
    notice.violation_date = violation_date
    notice.findings = findings
    notice.remediation_days = remediation_days or None
    notice.proposed_fine = proposed_fine
    notice.save()
    _set_requirements(notice, requirements, compliance_days)
    record_event(
        case=notice.case,
        actor=actor,
        kind="notice",
        summary=f"Draft notice of violation {notice.pk} changed",
        rule_id="R-NOV-1",
        subject=notice,
    )
    return notice


def notice_issue(
    *, notice, actor, issued_on: dt.date | None = None
) -> NoticeOfViolation:
    """Issue a draft notice. Who: SMO. Freezes the recipient's name and mailing
    address, stores the fine tier computation, opens the appeal window (R-APL-1),
    the remediation deadline (R-NOV-2) and each requirement's own compliance
    date (R-NOV-1), supersedes the notice it corrects,
    and moves the case into enforcement; issues the notice's document (kind
    notice_of_violation, a new version superseding the corrected notice's) in
    the same transaction. Raises Refused with the reason, or
    FactsInvalid / DocumentError from the document (nothing is saved)."""
    issued_on = issued_on or timezone.localdate()
    fields = {"issued_on": issued_on, "issued_by": actor}
    fresh = NoticeOfViolation.objects.get(pk=notice.pk)

    def before(locked):
        # What the issue form implies: the fine tier of the recipient's offense
        # (R-PEN-1..3), computed on the locked row so `fine_within_tier` checks it.
        if locked.status == NoticeStatus.DRAFT and locked.requires_fine():
            computation = tier_for_party(
                locked.recipient, locked.violation_date, exclude_case=locked.case
            )
            locked.fine_tier = computation.tier.number
            locked.fine_min = computation.tier.minimum
            locked.fine_max = computation.tier.maximum
            locked.fine_computation = computation.explanation
            fine = locked.proposed_fine
            tier = computation.tier
            if fine is not None and not (tier.minimum <= fine <= tier.maximum):
                raise Refused(
                    f"propose {tier.range_words} for a {tier.name} "
                    f"(tier {tier.number}, {tier.rule_id})",
                    lead="Not issued:",
                )

    def after(issued):
        # The clocks the issue starts (R-APL-1, R-NOV-2, R-NOV-1) are the clock
        # table's (cases.clocks), opened by the kernel before this runs.
        case = issued.case
        if issued.supersedes_id:
            old = NoticeOfViolation.objects.get(pk=issued.supersedes_id)
            run_step(
                obj=old,
                transition="supersede",
                actor=actor,
                event_kind="notice",
                detail=f"Corrected by notice of violation {issued.pk}.",
            )
        if case.status == CaseStatus.VIOLATION_CONFIRMED:
            case_run_transition(case=case, transition="begin_enforcement", actor=actor)
        # The printed notice (R-NOV-1), frozen in this transaction from the stored
        # deadlines above; its PDF renders in Celery on commit. Invalid facts
        # (FactsInvalid) roll the issue back. The fine it requires is a charge on
        # the ledger first (issue 27), so the notice can say by when it is due.
        charges.notice_issued(issued, actor)
        notice_document_issue(notice=issued, actor=actor)

    return run_step(
        obj=notice,
        transition="issue",
        actor=actor,
        fields=fields,
        event_kind="notice",
        before=before,
        detail=f"Addressed to {fresh.recipient.name}, {fresh.recipient.mailing_address}",
        after=after,
    )


def notice_record_compliance(
    *, notice, actor, complied_on, note=""
) -> NoticeOfViolation:
    """Record that the recipient complied. Who: SMO. Meets the remediation or
    correction deadline (late if after it)."""
    if complied_on and complied_on > timezone.localdate():
        raise Refused.invalid({"complied_on": "The date cannot be in the future."})
    if complied_on and notice.issued_on and complied_on < notice.issued_on:
        # The clocks it meets (R-NOV-1, R-NOV-2) count from the issue.
        raise Refused.invalid(
            {
                "complied_on": "The notice was issued on "
                f"{human_date(notice.issued_on)}; compliance with it cannot be "
                "dated before that."
            }
        )
    return run_step(
        obj=notice,
        transition="record_compliance",
        actor=actor,
        event_kind="notice",
        fields={"complied_on": complied_on, "compliance_note": note},
        detail=note,
    )


def notice_record_noncompliance(*, notice, actor, note="") -> NoticeOfViolation:
    """Record that the compliance deadline passed without compliance. Who: SMO.
    Refused before the deadline or while an appeal is pending."""
    return run_step(
        obj=notice,
        transition="record_noncompliance",
        actor=actor,
        event_kind="notice",
        detail=note,
    )


def notice_escalate(*, notice, actor, note) -> NoticeOfViolation:
    """Escalate a notice not complied with (corrective measures, court). Who: SMO."""
    return run_step(
        obj=notice,
        transition="escalate",
        actor=actor,
        event_kind="notice",
        fields={"escalation_note": note},
        detail=note,
    )


def notice_withdraw(*, notice, actor, reason) -> NoticeOfViolation:
    """Withdraw an issued notice. Who: SMO. Waives its open deadlines."""
    return run_step(
        obj=notice,
        transition="withdraw",
        actor=actor,
        event_kind="notice",
        fields={"withdrawn_reason": reason},
        detail=reason,
    )


def modified_decision_words(appeal) -> str:
    """How a superseding notice names the Board's modified decision it carries
    out (§ 132-14)."""
    return (
        f"This notice supersedes notice of violation NOV-{appeal.notice_id} as "
        f"modified by the decision of the Board of Trustees of "
        f"{appeal.decided_on:%B} {appeal.decided_on.day}, {appeal.decided_on:%Y} "
        f"on appeal {appeal.pk}. What the Board modified: "
        f"{appeal.modification.strip()}"
    )


@transaction.atomic
def notice_start_correction(*, notice, actor) -> NoticeOfViolation:
    """Start a correction: a new draft with the content of the issued `notice`,
    which it will supersede when issued. Who: SMO.

    After the Board modified `notice` on appeal (§ 132-14) this is how the
    requirements as modified are issued: the draft's finding names the decision
    and what was modified (printed on the notice), the SMO changes the
    requirements and their days to match, and the issued correction's own dates
    are the ones that run (R-NOV-2; see appeal_decide)."""
    require_role(actor, Role.SMO, doing="write notices of violation")
    old = NoticeOfViolation.objects.select_for_update().get(pk=notice.pk)
    if not old.can_be_corrected():
        existing = NoticeOfViolation.objects.filter(supersedes=old).first()
        if existing is not None:
            raise Refused(
                f"A correction of this notice already exists (notice {existing.pk})."
            )
        raise Refused(
            f"Only a notice in force can be corrected; this one is "
            f"“{old.get_status_display()}”."
        )
    findings = old.findings
    modified = old.board_modification()
    if modified is not None:
        findings = f"{findings.rstrip()}\n\n{modified_decision_words(modified)}"
    return notice_draft(
        case=old.case,
        actor=actor,
        recipient=old.recipient,
        violation_date=old.violation_date,
        findings=findings,
        requirements=[(r.kind, r.particulars) for r in old.requirements.all()],
        remediation_days=old.remediation_days,
        proposed_fine=old.proposed_fine,
        supersedes=old,
        compliance_days={
            r.kind: r.compliance_days
            for r in old.requirements.all()
            if r.compliance_days
        },
    )


def service_errors(
    *, method, served_on, article_number, issued_on, too_early: str
) -> dict[str, str]:
    """What is wrong with a record of how an issued paper was served or sent (a
    notice of violation, a notice of hearing), by field: certified mail needs its
    article number, any article number given is 20 or 22 digits
    (kernel.input_guard.article_number_clean), and the date is neither before the paper was issued
    (`too_early` says so) nor in the future."""
    errors = {}
    try:
        article_number_clean(
            article_number, required=method == ServiceRecord.Method.CERTIFIED
        )
    except ValidationError as error:
        errors["article_number"] = error.messages[0]
    if issued_on and served_on < issued_on:
        errors["served_on"] = too_early
    if served_on > timezone.localdate():
        errors["served_on"] = "The date cannot be in the future."
    return errors


@transaction.atomic
def notice_record_service(
    *, notice, actor, method, served_on, article_number="", served_by="", where=""
) -> ServiceRecord:
    """Record how the issued notice was served. Who: SMO. Certified mail needs
    its article number. Raises Refused or ValidationError."""
    require_role(actor, Role.SMO, doing="write notices of violation")
    notice = NoticeOfViolation.objects.select_for_update().get(pk=notice.pk)
    if not notice.can_record_service():
        if not notice.is_frozen:
            raise Refused("Issue the notice before recording its service.")
        raise Refused(
            f"Notice NOV-{notice.pk} was superseded by its correction: record the "
            "service of the correcting notice."
        )
    errors = service_errors(
        method=method,
        served_on=served_on,
        article_number=article_number,
        issued_on=notice.issued_on,
        too_early="A notice cannot be served before it was issued.",
    )
    if errors:
        raise Refused.invalid(errors)
    record = ServiceRecord.objects.create(
        notice=notice,
        method=method,
        served_on=served_on,
        article_number=article_number_clean(article_number, required=False),
        served_by=served_by,
        where=where,
        recorded_by=actor,
    )
    extra = f", article {record.article_number}" if record.article_number else ""
    record_event(
        case=notice.case,
        actor=actor,
        kind="notice",
        summary=f"Notice of violation {notice.pk} served: "
        f"{record.get_method_display()} on {human_long_date(served_on)}{extra}",
        rule_id="R-NOV-1",
        subject=record,
    )
    return record


SERVICE_FIELDS = ("method", "served_on", "article_number", "served_by", "where")


def _correction_words(old: dict, new: dict) -> str:
    labels = {
        "method": "method",
        "served_on": "date",
        "article_number": "article number",
        "served_by": "served by",
        "where": "where",
    }

    def shown(name, value):
        if name == "method":
            return ServiceRecord.Method(value).label.lower()
        if name == "served_on":
            return human_long_date(value)
        return value or "none"

    return "; ".join(
        f"{labels[name]} {shown(name, old[name])} → {shown(name, new[name])}"
        for name in SERVICE_FIELDS
        if old[name] != new[name]
    )


@transaction.atomic
def service_record_correct(
    *,
    record,
    actor,
    method,
    served_on,
    reason,
    article_number="",
    served_by="",
    where="",
) -> ServiceCorrection:
    """Correct a wrongly recorded service of a notice (issue 26): the record
    takes the corrected values, checked as a new record's are; a
    ServiceCorrection keeps what it said before, with the reason; the
    chronology says what changed and why. Nothing is deleted. Who: SMO.

    What reads the service date reads the record, so it follows the
    correction: whether the notice was served late (selectors.late_service)
    and how long its certified mail has waited (the work queue). The days to
    appeal count from the issue, not the service (R-APL-1): no deadline moves.
    A recorded delivery or return stays, so the mail stays certified and was
    sent no later than it came back. Raises ValidationError (nothing saved)."""
    require_role(actor, Role.SMO, doing="correct the service of a notice")
    locked = (
        ServiceRecord.objects.select_for_update()
        .select_related("notice__case")
        .get(pk=record.pk)
    )
    notice = locked.notice
    errors = {}
    if served_on is None:
        errors["served_on"] = "Give the date it was served."
    else:
        errors = service_errors(
            method=method,
            served_on=served_on,
            article_number=article_number,
            issued_on=notice.issued_on,
            too_early="A notice cannot be served before it was issued.",
        )
    if not (reason or "").strip():
        errors["reason"] = "Say why the service record is corrected."
    came_back_on = locked.delivered_on or locked.returned_on
    if came_back_on is not None:
        if method != ServiceRecord.Method.CERTIFIED:
            errors["method"] = (
                "The delivery or return of this certified mail is recorded: it "
                "was sent by certified mail."
            )
        elif served_on is not None and served_on > came_back_on:
            errors["served_on"] = (
                "The mail was delivered or came back on "
                f"{human_date(came_back_on)}: it was sent no later than that."
            )
    if errors:
        raise Refused.invalid(errors)
    old = {name: getattr(locked, name) for name in SERVICE_FIELDS}
    new = {
        "method": method,
        "served_on": served_on,
        "article_number": article_number_clean(article_number, required=False),
        "served_by": (served_by or "").strip(),
        "where": (where or "").strip(),
    }
    changes = _correction_words(old, new)
    if not changes:
        raise Refused.invalid(
            "These are the values already recorded: change what was wrong."
        )
    correction = ServiceCorrection.objects.create(
        record=locked,
        old_method=old["method"],
        old_served_on=old["served_on"],
        old_article_number=old["article_number"],
        old_served_by=old["served_by"],
        old_where=old["where"],
        reason=reason.strip(),
        corrected_by=actor,
    )
    for name, value in new.items():
        setattr(locked, name, value)
    locked.save(update_fields=list(SERVICE_FIELDS))
    record_event(
        case=notice.case,
        actor=actor,
        kind="notice",
        summary=f"Service record corrected: notice of violation {notice.pk}, "
        f"{changes} ({correction.reason})",
        rule_id="R-NOV-1",
        subject=locked,
    )
    return correction


def service_words(record) -> str:
    """What recording a notice's service did, in words, for the user."""
    from deadlines.services import open_deadline_for

    notice = record.notice
    how = record.get_method_display().lower()
    if record.article_number:
        how += f", article {record.article_number}"
    words = (
        f"Service of notice of violation NOV-{notice.pk} recorded: {how}, on "
        f"{human_date(record.served_on)}."
    )
    appeal = open_deadline_for(notice, "R-APL-1")
    if appeal is not None:
        words += (
            " The last day to appeal stays "
            f"{human_date(appeal.due_date)} (it counts from the notice's issue)."
        )
    return words


@transaction.atomic
def service_record_returned(*, record, actor, returned_on, reason) -> ServiceRecord:
    """Record that a mailed notice came back (the outcome of its certified
    mailing, enforcement.services.mail). Who: SMO."""
    from .mail import mail_record_outcome

    try:
        return mail_record_outcome(
            record=record,
            actor=actor,
            outcome="unclaimed",
            on=returned_on,
            reason=reason,
        )
    except ValidationError as error:
        if "on" in getattr(error, "message_dict", {}):
            raise Refused.invalid({"returned_on": error.message_dict["on"]}) from None
        raise
