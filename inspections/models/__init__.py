from .approvals import DischargeApproval, DyeTestNotice
from .common import LockedRecordError
from .facilities import (
    CONSTRUCTION_MIN_ACRES,
    BMPRequirement,
    Calibration,
    ComplianceProofRequest,
    Facility,
    MonitoringEquipment,
)
from .inspections import (
    Inspection,
    InspectionCorrection,
    InspectionPhoto,
    InspectionStatus,
    Sample,
    WarrantApplication,
    WarrantStatus,
)
from .outfalls import Level, OutfallScreening
from .spills import SpillNotification, SpillStatus

__all__ = [
    "CONSTRUCTION_MIN_ACRES",
    "BMPRequirement",
    "Calibration",
    "ComplianceProofRequest",
    "DischargeApproval",
    "DyeTestNotice",
    "Facility",
    "Inspection",
    "InspectionCorrection",
    "InspectionPhoto",
    "InspectionStatus",
    "Level",
    "LockedRecordError",
    "MonitoringEquipment",
    "OutfallScreening",
    "Sample",
    "SpillNotification",
    "SpillStatus",
    "WarrantApplication",
    "WarrantStatus",
]
