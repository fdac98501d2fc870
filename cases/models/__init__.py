from .case import (
    CLOSED_STATUSES,
    Case,
    CaseKind,
    CaseNumberSequence,
    CaseSource,
    CaseStatus,
    ConnectionType,
)
from .deadlines import (
    CLOSED_WITHOUT_DUTY,
    CalendarFeedToken,
    Deadline,
    OfficeClosure,
    Reminder,
    StaffDigest,
)
from .premises import Outfall, Party, Premises
from .records import Attachment, CaseParty, Note
from .reference import ExemptCategory, PollutantCategory
from .reports import ApiKey, Report, ReportNotification, ReportPhoto

__all__ = [
    "CLOSED_WITHOUT_DUTY",
    "CLOSED_STATUSES",
    "ApiKey",
    "Attachment",
    "CalendarFeedToken",
    "Case",
    "CaseKind",
    "CaseNumberSequence",
    "CaseParty",
    "CaseSource",
    "CaseStatus",
    "ConnectionType",
    "Deadline",
    "ExemptCategory",
    "Note",
    "OfficeClosure",
    "Outfall",
    "Party",
    "PollutantCategory",
    "Premises",
    "Reminder",
    "Report",
    "ReportNotification",
    "ReportPhoto",
    "StaffDigest",
]
