from .approvals import DischargeApproval, DyeTestNotice
from .common import LockedRecordError, StoredPhoto
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
from .outfalls import Level, OutfallScreening, ScreeningPhoto
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
    "ScreeningPhoto",
    "StoredPhoto",
    "SpillNotification",
    "SpillStatus",
    "WarrantApplication",
    "WarrantStatus",
]
