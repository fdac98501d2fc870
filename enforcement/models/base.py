"""What every enforcement workflow shares: the role predicates for FSM permissions
(from kernel.roles), the guard decorator (from kernel.workflow) and the row-lock-safe
mixin. Transitions change only their own row; `kernel.workflow.run` saves and writes
the event."""

from django.db import models
from django_fsm import ConcurrentTransitionMixin

from kernel.roles import attorney_or_inspector_permission as attorney_or_inspector
from kernel.roles import attorney_permission as attorney
from kernel.roles import building_inspector_permission as building_inspector
from kernel.roles import clerk_permission as clerk
from kernel.roles import smo_or_clerk_permission as smo_or_clerk
from kernel.roles import smo_permission as smo
from kernel.workflow import actions, guard

__all__ = [
    "FlowModel",
    "attorney",
    "attorney_or_inspector",
    "building_inspector",
    "clerk",
    "guard",
    "smo",
    "smo_or_clerk",
]


class FlowModel(ConcurrentTransitionMixin, models.Model):
    """An enforcement record with an FSM `status` and a `case`."""

    class Meta:
        abstract = True

    def user_actions(self, user):
        """The steps `user` may take from here (kernel.workflow.actions)."""
        return actions(self, user)

    @property
    def status_label(self) -> str:
        return self.get_status_display()
