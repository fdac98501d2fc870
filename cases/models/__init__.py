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
from .documents import DocumentFrozenError, IssuedDocument
from .events import AppendOnlyError, CaseEvent, actor_words
from .outbox import OutgoingMessage
from .premises import Outfall, Party, Premises
from .records import Attachment, CaseParty, Delegation, Note
from .reference import Citation, ExemptCategory, PollutantCategory
from .reports import ApiKey, Report, ReportNotification, ReportPhoto

__all__ = [
    "CLOSED_WITHOUT_DUTY",
    "CLOSED_STATUSES",
    "ApiKey",
    "AppendOnlyError",
    "Attachment",
    "CalendarFeedToken",
    "Case",
    "CaseEvent",
    "actor_words",
    "CaseKind",
    "CaseNumberSequence",
    "CaseParty",
    "CaseSource",
    "CaseStatus",
    "Citation",
    "ConnectionType",
    "Deadline",
    "Delegation",
    "DocumentFrozenError",
    "ExemptCategory",
    "IssuedDocument",
    "Note",
    "OfficeClosure",
    "OutgoingMessage",
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
