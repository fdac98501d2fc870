from .access import (
    AccessSuspension,
    AccessTermination,
    SuspensionStatus,
    TerminationStatus,
    UnauthorizedReinstatement,
)
from .alternatives import (
    AlternativeKind,
    AlternativeRemedy,
    AlternativeRemedyItem,
    AlternativeStatus,
)
from .appeals import Appeal, AppealDocument, AppealStatus, Decision
from .meetings import BoardMeeting, HearingNoticeService
from .notices import (
    IN_FORCE,
    MAX_COMPLIANCE_DAYS,
    REQUIREMENTS_WITH_DAYS,
    NoticeFrozenError,
    NoticeOfViolation,
    NoticeRequirement,
    NoticeStatus,
    RequirementKind,
    ServiceRecord,
)
from .offenses import OffenseRecord
from .remedies import (
    AbatementStatus,
    CorrectiveAction,
    CorrectiveStatus,
    CostItem,
    InjunctionReferral,
    InjunctionStatus,
    NuisanceAbatement,
    PerformedBy,
)

__all__ = [
    "IN_FORCE",
    "MAX_COMPLIANCE_DAYS",
    "REQUIREMENTS_WITH_DAYS",
    "AbatementStatus",
    "AccessSuspension",
    "AccessTermination",
    "AlternativeKind",
    "AlternativeRemedy",
    "AlternativeRemedyItem",
    "AlternativeStatus",
    "Appeal",
    "AppealDocument",
    "AppealStatus",
    "BoardMeeting",
    "CorrectiveAction",
    "CorrectiveStatus",
    "CostItem",
    "Decision",
    "HearingNoticeService",
    "InjunctionReferral",
    "InjunctionStatus",
    "NoticeFrozenError",
    "NoticeOfViolation",
    "NoticeRequirement",
    "NoticeStatus",
    "NuisanceAbatement",
    "OffenseRecord",
    "PerformedBy",
    "RequirementKind",
    "ServiceRecord",
    "SuspensionStatus",
    "TerminationStatus",
    "UnauthorizedReinstatement",
]
