"""Signing in with the roles read with the user (issue 28).

Django's ModelBackend reads the signed-in user on every request, then the roles
need a second query (the user's groups). This backend reads both in one: the
names of the user's groups that are roles, joined in one column beside the
user's columns, kept where `kernel.roles` looks first. Everything else
(passwords, permissions, inactive users) is ModelBackend's.

The query is written out once (`_user_with_roles_sql`) rather than built by the
ORM on every request: four annotated EXISTS cost 1.2 ms of Python to compile,
more than the query they save (bench, session 4). One subquery, not an EXISTS
per role: PostgreSQL planned four EXISTS in 0.8 ms on every signed-in request,
the one subquery in 0.1 ms (bench/NOTES.md)."""

from functools import cache

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.models import Group
from django.db import connection

from .roles import Role, remember_group_roles

ROLES = tuple(Role)
ROLE_NAMES = "ms4_role_names"  # the column of the user's roles, joined by commas


@cache
def _user_with_roles_sql() -> str:
    user = get_user_model()
    link = user.groups.through._meta
    quote = connection.ops.quote_name
    placeholders = ", ".join(["%s"] * len(ROLES))
    names = f"g.{quote('name')}"
    joined = (
        f"string_agg({names}, ',')"
        if connection.vendor == "postgresql"
        else f"group_concat({names}, ',')"
    )
    return (
        f"SELECT u.*, (SELECT {joined} FROM {quote(link.db_table)} ug "
        f"JOIN {quote(Group._meta.db_table)} g "
        f"ON g.{quote(Group._meta.pk.column)} = "
        f"ug.{quote(link.get_field('group').column)} "
        f"WHERE ug.{quote(link.get_field('user').column)} = "
        f"u.{quote(user._meta.pk.column)} AND {names} IN ({placeholders})) "
        f"AS {ROLE_NAMES} FROM {quote(user._meta.db_table)} u "
        f"WHERE u.{quote(user._meta.pk.column)} = %s"
    )


class RoleBackend(ModelBackend):
    def get_user(self, user_id):
        rows = list(
            get_user_model()._default_manager.raw(
                _user_with_roles_sql(), [*(role.value for role in ROLES), user_id]
            )
        )
        if not rows or not self.user_can_authenticate(rows[0]):
            return None
        user = rows[0]
        # Only role names are joined (no role's name holds a comma).
        names = set((getattr(user, ROLE_NAMES) or "").split(","))
        remember_group_roles(
            user, frozenset(role for role in ROLES if role.value in names)
        )
        return user
