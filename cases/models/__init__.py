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

__all__ = [
    "CLOSED_STATUSES",
    "Attachment",
    "Case",
    "CaseKind",
    "CaseNumberSequence",
    "CaseParty",
    "CaseSource",
    "CaseStatus",
    "ConnectionType",
    "EventKind",
    "Note",
    "Outfall",
    "Party",
    "Premises",
]
