"""Signing in with the roles read with the user (issue 28).

Django's ModelBackend reads the signed-in user on every request, then the roles
need a second query (the user's groups). This backend reads both in one: an
EXISTS per role beside the user's columns, kept where `cases.roles` looks first.
Everything else (passwords, permissions, inactive users) is ModelBackend's."""

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.models import Group
from django.db.models import Exists, OuterRef

from .roles import Role, remember_group_roles


def _flag(role: Role) -> str:
    return f"holds_{role.name.lower()}"


class RoleBackend(ModelBackend):
    def get_user(self, user_id):
        flags = {
            _flag(role): Exists(Group.objects.filter(user=OuterRef("pk"), name=role))
            for role in Role
        }
        user = (
            get_user_model()
            ._default_manager.annotate(**flags)
            .filter(pk=user_id)
            .first()
        )
        if user is None or not self.user_can_authenticate(user):
            return None
        remember_group_roles(
            user, frozenset(role for role in Role if getattr(user, _flag(role)))
        )
        return user
