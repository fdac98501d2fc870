"""Writes: closing a report at triage without investigating it — as unfounded,
as an exempt discharge of § 132-6 A(1) (R-PRO-2), as referred to another agency,
or as a duplicate of a case already open.

The outcome is recorded on a case, not on the report: each service opens a case
from the report and takes the case's own closing step through the workflow kernel
(`cases.services.case_run_transition`), in one transaction. So the case's triage
fields (closing reason, exempt category, agency, merged into) hold the outcome,
the chronology records it, the resident's status page and status e-mail follow
it (intake.public_status), the Open311 feed says "closed", a referral's
answer can be recorded later on the case page, and the annual report counts it
as a triage outcome (reporting.annual.selectors.TRIAGE_OUTCOMES) — none of which a
field on the report would give. Nothing is saved when one of them raises."""

from django.db import transaction
from django.utils import timezone

from intake.models import ExemptCategory, Report
from kernel.humanize import human_long_date
from kernel.roles import Role, require_role
from kernel.workflow import Refused

from .models import Case, CaseStatus
from .services import (
    case_merge_duplicate,
    case_open_from_reports,
    case_run_transition,
)


def _require_writer(actor) -> None:
    require_role(actor, Role.SMO, doing="close reports at triage")


def _summary(report: Report, words: str) -> str:
    first_line = " ".join(report.description.split())
    return f"Report {report.tracking_code} {words}: {first_line}"[:200]


def _open(report: Report, *, actor, words: str) -> Case:
    """The case that records the outcome (status "new"); the caller's
    transaction. Refused when the report is no longer in the queue."""
    if report.case_id is not None:
        raise Refused(
            f"Report {report.tracking_code} is already on a case; close the case "
            "from its page instead."
        )
    return case_open_from_reports(
        reports=[report], actor=actor, summary=_summary(report, words)
    )


def _record(lines: list[tuple[str, str]], note: str) -> str:
    text = [f"{label}: {value}" for label, value in lines if value]
    if note.strip():
        text.append(note.strip())
    return "\n".join(text)


def report_close_unfounded(
    *, report: Report, actor, reason: str, public: bool = False
) -> Case:
    """Close `report` as unfounded: nothing the article forbids was found.
    `reason` is required (the case's `close_unfounded` guard). `public` shows the
    reason to the resident. Who: SMO staff. Raises Refused."""
    _require_writer(actor)
    with transaction.atomic():
        case = _open(report, actor=actor, words="closed at triage as unfounded")
        return case_run_transition(
            case=case,
            transition="close_unfounded",
            actor=actor,
            reason=_record([("Reasons the report is unfounded", reason)], ""),
            public=public,
            expected_status=CaseStatus.NEW,
            closing_reason=reason,
        )


def report_close_exempt(
    *,
    report: Report,
    actor,
    exempt_category: ExemptCategory,
    note: str = "",
    public: bool = False,
) -> Case:
    """Close `report` as an exempt discharge of a § 132-6 A(1) category (R-PRO-2).
    A category determined a substantial contributor of pollutants no longer
    exempts: the case's `has_valid_exemption` guard refuses it. Who: SMO staff.
    Raises Refused."""
    _require_writer(actor)
    with transaction.atomic():
        case = _open(report, actor=actor, words="closed at triage as exempt")
        return case_run_transition(
            case=case,
            transition="close_exempt",
            actor=actor,
            reason=_record([("Exempt category", exempt_category.name)], note),
            public=public,
            expected_status=CaseStatus.NEW,
            exemption_basis=Case.ExemptionBasis.CATEGORY,
            exempt_category=exempt_category,
            exemption_reference="",
            closing_reason=note.strip(),
        )


def report_refer(
    *,
    report: Report,
    actor,
    referred_to: str,
    referred_on=None,
    note: str = "",
    public: bool = False,
) -> Case:
    """Close `report` as referred to another agency (`referred_to`, on
    `referred_on`, today by default); the agency's answer is recorded later on
    the case page. Who: SMO staff. Raises Refused."""
    _require_writer(actor)
    referred_on = referred_on or timezone.localdate()
    if referred_on > timezone.localdate():
        raise Refused("The referral date cannot be in the future.")
    with transaction.atomic():
        case = _open(report, actor=actor, words="referred at triage")
        return case_run_transition(
            case=case,
            transition="refer",
            actor=actor,
            reason=_record(
                [
                    ("Agency referred to", referred_to.strip()),
                    ("Referred on", human_long_date(referred_on)),
                ],
                note,
            ),
            public=public,
            expected_status=CaseStatus.NEW,
            referred_to=referred_to.strip(),
            referred_on=referred_on,
            closing_reason=note.strip(),
        )


def report_close_duplicate(
    *, report: Report, actor, of_case: Case, note: str = "", public: bool = False
) -> Case:
    """Close `report` as a duplicate of `of_case`: the case that records it is
    merged into `of_case` (`mark_duplicate`), so the report moves there and the
    resident follows that case; the resident's page says the reports were
    combined. Returns the case that records the duplicate.
    Who: SMO staff. Raises Refused (`of_case` is itself a duplicate)."""
    _require_writer(actor)
    if of_case.status == CaseStatus.DUPLICATE:
        raise Refused(
            f"{of_case.number} is itself a duplicate of {of_case.merged_into}; "
            "choose that case."
        )
    with transaction.atomic():
        case = _open(report, actor=actor, words="closed at triage as a duplicate")
        return case_merge_duplicate(
            case=case,
            into=of_case,
            actor=actor,
            reason=_record([("Duplicate of", of_case.number)], note),
            expected_status=CaseStatus.NEW,
            public=public,
        )
