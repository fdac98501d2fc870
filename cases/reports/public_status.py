"""What a resident (or an Open311 client) may know about a report's progress.

The one mapping from the case's workflow status to plain words. Everything shown
publicly is derived here: never names, contacts, other reports, the case number or
staff-only fields. Used by the status page, the status-change e-mail and Open311."""

from dataclasses import dataclass

from ..models import CaseStatus


@dataclass(frozen=True)
class PublicStatus:
    key: str  # stable: stored on ReportNotification, used in tests
    label: str  # what the resident reads
    explanation: str
    open311: str  # "open" or "closed" (GeoReport v2)


RECEIVED = PublicStatus(
    "received",
    "Received",
    "Your report is waiting for the Stormwater Management Officer to review it.",
    "open",
)
INVESTIGATING = PublicStatus(
    "investigating",
    "Being investigated",
    "The Stormwater Management Officer is looking into what you reported.",
    "open",
)
BEING_ADDRESSED = PublicStatus(
    "being_addressed",
    "Being addressed",
    "The officer found a problem and is working to have it corrected.",
    "open",
)
RESOLVED = PublicStatus(
    "resolved",
    "Resolved",
    "The problem was corrected and the correction checked.",
    "closed",
)
NOT_A_VIOLATION = PublicStatus(
    "not_a_violation",
    "Closed — not a violation",
    "The officer looked into it and found no illicit discharge, or found that "
    "the discharge is one the law allows.",
    "closed",
)
REFERRED = PublicStatus(
    "referred",
    "Referred to another agency",
    "This is handled by another agency; the officer passed your report on.",
    "closed",
)
COMBINED = PublicStatus(
    "combined",
    "Combined with another report",
    "Someone reported the same problem; both reports are handled together.",
    "closed",
)

BY_CASE_STATUS = {
    CaseStatus.NEW: RECEIVED,
    CaseStatus.INVESTIGATING: INVESTIGATING,
    CaseStatus.VIOLATION_CONFIRMED: BEING_ADDRESSED,
    CaseStatus.ENFORCEMENT: BEING_ADDRESSED,
    CaseStatus.RESOLVED: RESOLVED,
    CaseStatus.UNFOUNDED: NOT_A_VIOLATION,
    CaseStatus.EXEMPT: NOT_A_VIOLATION,
    CaseStatus.REFERRED: REFERRED,
    CaseStatus.DUPLICATE: COMBINED,
}
ALL = (
    RECEIVED,
    INVESTIGATING,
    BEING_ADDRESSED,
    RESOLVED,
    NOT_A_VIOLATION,
    REFERRED,
    COMBINED,
)


def follows_merged(case_status: str, merged_into_id) -> bool:
    """Whether a report on a case in `case_status`, merged into `merged_into_id`,
    follows that other case: a duplicate follows the case it was merged into
    (one hop; the Open311 status filter uses the same rule)."""
    return case_status == CaseStatus.DUPLICATE and bool(merged_into_id)


def effective_case(case):
    """The case whose progress the resident follows (`follows_merged`)."""
    if case is None:
        return None
    if follows_merged(case.status, case.merged_into_id):
        return case.merged_into
    return case


def for_case_status(status: str | None) -> PublicStatus:
    """The public status of a report whose followed case is in `status` (None:
    in the triage queue): `for_case` on plain values, for lists read as rows."""
    return BY_CASE_STATUS.get(status, RECEIVED) if status else RECEIVED


def for_case(case) -> PublicStatus:
    case = effective_case(case)
    return for_case_status(case.status if case is not None else None)


def words_for_case(case) -> str:
    """What happened, in the resident's words, for a report whose followed case
    is `case` (`effective_case`): how it was closed — the kind of discharge the
    law allows, the agency it went to — else the status's own explanation.
    Never the case number, names or staff notes."""
    status = for_case(case)
    case = effective_case(case)
    if case is None:
        return status.explanation
    if case.status == CaseStatus.UNFOUNDED:
        return (
            "Closed: the officer looked into your report and found no illicit "
            "discharge."
        )
    if case.status == CaseStatus.EXEMPT:
        category = case.exempt_category
        if category is not None:
            return (
                "Closed: the discharge is of a kind the law allows: "
                f"{category.plain_description}."
            )
        return (
            "Closed: the discharge is allowed by a written approval or a permit "
            "in force."
        )
    if case.status == CaseStatus.REFERRED and case.referred_to.strip():
        return (
            f"Referred to {case.referred_to.strip()}: that agency handles this "
            "kind of problem, and the officer passed your report on."
        )
    return status.explanation


def words_for_report(report) -> str:
    """`words_for_case` for a report; a report in the triage queue is waiting."""
    return words_for_case(report.case) if report.case_id else RECEIVED.explanation


def for_report(report) -> PublicStatus:
    """A report waiting in the triage queue is "received"; once attached, it
    follows its case."""
    return for_case(report.case) if report.case_id else RECEIVED
