"""What every enforcement workflow shares: role predicates for FSM permissions,
conditions that carry the reason they give when they fail, and the row-lock-safe
mixin. Transitions change only their own row; services save and write events."""

from django.db import models
from django_fsm import ConcurrentTransitionMixin

from cases.roles import Role, has_role


def smo(instance, user) -> bool:
    return has_role(user, Role.SMO)


def smo_or_clerk(instance, user) -> bool:
    return has_role(user, Role.SMO, Role.CLERK)


def attorney(instance, user) -> bool:
    return has_role(user, Role.ATTORNEY)


def building_inspector(instance, user) -> bool:
    return has_role(user, Role.BUILDING_INSPECTOR)


def attorney_or_inspector(instance, user) -> bool:
    return has_role(user, Role.ATTORNEY, Role.BUILDING_INSPECTOR)


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
