from .case import (
    CLOSED_STATUSES,
    Case,
    CaseKind,
    CaseNumberSequence,
    CaseSource,
    CaseStatus,
    ConnectionType,
)
from .premises import Outfall, Party, Premises
from .records import Attachment, CaseParty, EventKind, Note
from .reference import ExemptCategory, PollutantCategory
from .reports import ApiKey, Report, ReportNotification, ReportPhoto

__all__ = [
    "CLOSED_STATUSES",
    "ApiKey",
    "Attachment",
    "Case",
    "CaseKind",
    "CaseNumberSequence",
    "CaseParty",
    "CaseSource",
    "CaseStatus",
    "ConnectionType",
    "EventKind",
    "ExemptCategory",
    "Note",
    "Outfall",
    "Party",
    "PollutantCategory",
    "Premises",
    "Report",
    "ReportNotification",
    "ReportPhoto",
]
