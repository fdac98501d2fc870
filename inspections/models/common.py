"""Helpers shared by the inspection models: the SMO-only transition permission."""

# Transition permission: only SMO staff drive field-work records.
from cases.roles import smo_permission as is_smo

__all__ = ["LockedRecordError", "is_smo"]


class LockedRecordError(Exception):
    """A finalized record was about to be changed; corrections are added instead."""
