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
from .notices import (
    IN_FORCE,
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
    "CorrectiveAction",
    "CorrectiveStatus",
    "CostItem",
    "Decision",
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
