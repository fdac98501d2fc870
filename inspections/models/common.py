"""Helpers shared by the inspection models: the SMO-only transition permission."""

# Transition permission: only SMO staff drive field-work records.
from kernel.roles import smo_permission as is_smo
from kernel.workflow import Refused

__all__ = ["LockedRecordError", "is_smo"]


class LockedRecordError(Refused):
    """A finalized record was about to be changed; corrections are added instead."""
