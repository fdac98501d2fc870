"""What the enforcement views share: who may read and write them, and the one
view helper of every workflow (kernel.actions)."""

from kernel.actions import attempt, put_errors_on
from kernel.roles import Role

__all__ = ["attempt", "put_errors_on"]

READERS = (Role.SMO, Role.CLERK)
SMO_ONLY = (Role.SMO,)
APPEAL_RECORDERS = (Role.SMO, Role.CLERK)
