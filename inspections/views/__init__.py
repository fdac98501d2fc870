"""Pages of the inspections app: the readers of cases read, only the role that
changes field work writes (kernel.roles).

Each view checks the role, binds a form, calls one service and turns domain
errors into messages or form errors (the user's input is kept)."""

from .facilities import (  # noqa: F401
    bmp_detail,
    bmp_new,
    equipment_detail,
    facility_detail,
    facility_edit,
    facility_list,
    proof_record,
)
from .fieldwork import (  # noqa: F401
    calendar,
    index,
    inspection_action,
    inspection_detail,
    inspection_export,
    inspection_new,
    inspection_photo,
    inspection_step,
    premises_detail,
    warrant_detail,
    warrant_step,
)
from .outfalls import (  # noqa: F401
    outfall_detail,
    outfall_edit,
    outfall_export,
    outfall_list,
    screening_detail,
    screening_new,
    screening_photo,
    screening_photo_new,
)
from .spills import (  # noqa: F401
    approval_list,
    dyetest_list,
    spill_detail,
    spill_list,
    spill_new,
    spill_open_case,
    spill_step,
)
