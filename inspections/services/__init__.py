"""Writes of the inspections app: every change to field-work records goes here.

Each service takes the acting user, runs in one transaction, and writes the case
chronology event (kinds "inspection", "spill", "outfall") on the record, its
premises and its case if it has one; every step of a state machine runs through
kernel.workflow.run. Legal dates come only from deadlines.services.open_deadline."""

from .approvals import approval_record, dye_test_record
from .facilities import (
    bmp_mark_satisfied_by_permit,
    bmp_require,
    bmp_verify,
    calibration_record,
    equipment_create,
    facility_save,
    proof_record,
    proof_request_create,
)
from .inspections import (
    CORRECTABLE_FIELDS,
    WARRANT_STEPS,
    inspection_add_correction,
    inspection_cancel,
    inspection_finalize,
    inspection_open_case,
    inspection_record,
    inspection_schedule,
    inspection_update_findings,
    photo_add,
    sample_add,
    warrant_advance,
    warrant_start,
    warrant_update_draft,
)
from .outfalls import (
    outfall_save,
    screening_open_case,
    screening_photo_add,
    screening_record,
)
from .spills import (
    spill_close,
    spill_mark_confirmation_missing,
    spill_open_case,
    spill_record,
    spill_record_confirmation,
)

__all__ = [
    "CORRECTABLE_FIELDS",
    "WARRANT_STEPS",
    "approval_record",
    "bmp_mark_satisfied_by_permit",
    "bmp_require",
    "bmp_verify",
    "calibration_record",
    "dye_test_record",
    "equipment_create",
    "facility_save",
    "inspection_add_correction",
    "inspection_cancel",
    "inspection_finalize",
    "inspection_open_case",
    "inspection_record",
    "inspection_schedule",
    "inspection_update_findings",
    "outfall_save",
    "photo_add",
    "proof_record",
    "proof_request_create",
    "sample_add",
    "screening_open_case",
    "screening_photo_add",
    "screening_record",
    "spill_close",
    "spill_mark_confirmation_missing",
    "spill_open_case",
    "spill_record",
    "spill_record_confirmation",
    "warrant_advance",
    "warrant_start",
    "warrant_update_draft",
]
