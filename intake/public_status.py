"""What a resident (or an Open311 client) may know about a report's progress.

The public statuses, in plain words, and the one reading of a report's progress
from its case. Everything shown publicly is derived here: never names, contacts,
other reports, the case number or staff-only fields. Used by the status page, the
status-change e-mail and Open311.

Intake sits below the case workflow: which case status reads as which public
status, the words a closed case adds and the public entries of a case are the
case app's, registered with `register_case_progress` in its ready()."""

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.core.exceptions import ImproperlyConfigured


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

ALL = (
    RECEIVED,
    INVESTIGATING,
    BEING_ADDRESSED,
    RESOLVED,
    NOT_A_VIOLATION,
    REFERRED,
    COMBINED,
)


@dataclass(frozen=True)
class PublicUpdate:
    """One entry of a report's public history (the status page)."""

    at: datetime
    title: str
    text: str = ""


@dataclass(frozen=True)
class CaseProgress:
    """What a case's progress means to a resident, as the case app registers it."""

    # Each case status, as a resident reads it; a status "closed" for Open311
    # closes the report.
    statuses: Mapping[str, PublicStatus]
    # The status of a case merged into another: its reports follow that case.
    merged: str
    # What a closed case's own facts add (the kind the law allows, the agency it
    # went to), or None for its status's explanation.
    words: Callable[[Any], str | None]
    # A case's public entries (opened, status changes with their shared reason,
    # this report combined into it, public notes): updates(case, report).
    updates: Callable[[Any, Any], list[PublicUpdate]]
    # The public notes of cases: {case id: [(text, created_at), ...]}, oldest first.
    public_notes: Callable[[set[int]], dict[int, list[tuple[str, datetime]]]]

    @property
    def closed(self) -> frozenset[str]:
        """The case statuses whose reports Open311 lists as "closed"."""
        return frozenset(
            status
            for status, public in self.statuses.items()
            if public.open311 == "closed"
        )


_progress: list[CaseProgress] = []


def register_case_progress(progress: CaseProgress) -> None:
    """Called once by the case app in its ready()."""
    _progress[:] = [progress]


def case_progress() -> CaseProgress:
    if not _progress:
        raise ImproperlyConfigured("No app registered the case progress (cases).")
    return _progress[0]


def follows_merged(case_status: str, merged_into_id) -> bool:
    """Whether a report on a case in `case_status`, merged into `merged_into_id`,
    follows that other case: a duplicate follows the case it was merged into
    (one hop; the Open311 status filter uses the same rule)."""
    return case_status == case_progress().merged and bool(merged_into_id)


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
    return case_progress().statuses.get(status, RECEIVED) if status else RECEIVED


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
    return case_progress().words(case) or status.explanation


def words_for_report(report) -> str:
    """`words_for_case` for a report; a report in the triage queue is waiting."""
    return words_for_case(report.case) if report.case_id else RECEIVED.explanation


def for_report(report) -> PublicStatus:
    """A report waiting in the triage queue is "received"; once attached, it
    follows its case."""
    return for_case(report.case) if report.case_id else RECEIVED
