"""Helpers shared by the inspection models: the SMO-only transition permission."""

from cases.roles import Role, has_role


def is_smo(instance, user) -> bool:
    """Transition permission: only SMO staff drive field-work records."""
    return has_role(user, Role.SMO)


class LockedRecordError(Exception):
    """A finalized record was about to be changed; corrections are added instead."""
