"""What every enforcement workflow shares: the role predicates for FSM permissions
(from cases.roles), conditions that carry the reason they give when they fail, and
the row-lock-safe mixin. Transitions change only their own row; services save and write events."""

from django.db import models
from django_fsm import ConcurrentTransitionMixin

from cases.roles import attorney_or_inspector_permission as attorney_or_inspector
from cases.roles import attorney_permission as attorney
from cases.roles import building_inspector_permission as building_inspector
from cases.roles import smo_or_clerk_permission as smo_or_clerk
from cases.roles import smo_permission as smo

__all__ = [
    "FlowModel",
    "attorney",
    "attorney_or_inspector",
    "building_inspector",
    "condition",
    "smo",
    "smo_or_clerk",
]


def condition(reason: str):
    """Mark a side-effect-free guard with the words shown when it fails."""

    def decorate(fn):
        fn.refusal = reason
        return fn

    return decorate


class FlowModel(ConcurrentTransitionMixin, models.Model):
    """An enforcement record with an FSM `status` and a `case`."""

    class Meta:
        abstract = True

    def user_actions(self, user):
        """The transitions `user` may fire now, without the system-only ones."""
        return [
            t
            for t in self.get_available_user_status_transitions(user)
            if not t.custom.get("hidden")
        ]

    @property
    def status_label(self) -> str:
        return self.get_status_display()
