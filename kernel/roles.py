"""Staff roles: the one place that says which group may do what.

Groups are created by a data migration (cases/migrations/0002_roles.py) and their
model permissions kept in step by `sync_role_permissions` after every migrate.
Views check roles through `has_role` / `RoleRequiredMixin` / `role_required` only.
"""

from enum import StrEnum
from functools import wraps

from django.contrib.auth.mixins import AccessMixin
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied


class Role(StrEnum):
    SMO = "SMO staff"
    CLERK = "Board clerk"
    ATTORNEY = "Municipal attorney"
    BUILDING_INSPECTOR = "Building inspector"


# Who may read a case file (the chronology, parties, documents).
CASE_READERS = (Role.SMO, Role.CLERK)
# Who may change a case, an inspection or a notice.
CASE_WRITERS = (Role.SMO,)
# Who may download the original bytes of a photo (a resident's report photo or a
# respondent's proof photo), with its GPS and camera data: staff otherwise see
# the re-encoded copy without them. See may_read_originals.
ORIGINAL_READERS = (Role.SMO,)

# Model permissions each group gets (used by the Django admin and has_perm).
# "view" = view only; "all" = add, change, view (never delete: records are kept).
ROLE_MODEL_PERMISSIONS = {
    Role.SMO: {
        "kernel": "all",
        "documents": "all",
        "outbox": "all",
        "deadlines": "all",
        "intake": "all",
        "cases": "all",
        "inspections": "all",
        "enforcement": "all",
        "ledger": "all",
        "fieldwork": "all",
    },
    Role.CLERK: {
        "kernel": "view",
        "documents": "view",
        "outbox": "view",
        "deadlines": "view",
        "intake": "view",
        "cases": "view",
        "inspections": "view",
        "enforcement": "view",
        "ledger": "view",
    },
    Role.ATTORNEY: {"enforcement": "view"},
    Role.BUILDING_INSPECTOR: {"enforcement": "view"},
}


def _group_roles(user) -> frozenset[str]:
    """The roles `user` holds in person: their groups (a superuser: every role)."""
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        return frozenset()
    if user.is_superuser:
        return frozenset(Role)
    cached = getattr(user, "_ms4_group_roles", None)
    if cached is None:
        cached = frozenset(user.groups.values_list("name", flat=True)) & set(Role)
        remember_group_roles(user, cached)
    return cached


def remember_group_roles(user, roles: frozenset) -> None:
    """Keep the roles read with the user (kernel.role_backend) for _group_roles."""
    user._ms4_group_roles = roles


def acting_delegation(user):
    """The SMO's written delegation (§ 132-5, R-ADM-1) under which `user` acts
    as the SMO today: one in force on today's date, when the user does not hold
    the SMO's role in person; else None. An expired or future delegation gives
    no power. The one place that decides acting by delegation."""
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        return None
    if Role.SMO in _group_roles(user):
        return None
    if not hasattr(user, "_ms4_delegation"):
        from django.utils import timezone

        from .models import Delegation

        user._ms4_delegation = (
            Delegation.in_force(timezone.localdate())
            .filter(delegate=user)
            .select_related("granted_by")
            .order_by("-starts_on", "-pk")
            .first()
        )
    return user._ms4_delegation


def user_roles(user) -> frozenset[str]:
    """The role names of `user`; a superuser holds every role; a user holding
    a delegation in force acts as the SMO (acting_delegation)."""
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        return frozenset()
    cached = getattr(user, "_ms4_roles", None)
    if cached is None:
        cached = _group_roles(user)
        if acting_delegation(user) is not None:
            cached = cached | {Role.SMO}
        user._ms4_roles = cached
    return cached


def may_delegate(user) -> bool:
    """Only the SMO in person delegates the SMO's powers (§ 132-5): never a
    delegate acting for the SMO."""
    return Role.SMO in _group_roles(user)


def has_role(user, *roles: Role) -> bool:
    return bool(user_roles(user) & set(roles))


def require_role(actor, *roles: Role, doing: str = "do that") -> None:
    """Services' role check: raise the one refusal (kernel.workflow.Refused) when
    `actor` holds none of `roles`."""
    if not has_role(actor, *roles):
        from .workflow import Refused

        raise Refused(f"Your role does not allow you to {doing}.")


def is_staff_member(user) -> bool:
    return bool(user_roles(user))


# django-fsm `permission=` predicates, (instance, user) -> bool: every state machine
# of the project takes its role checks from here.
def smo_permission(instance, user) -> bool:
    return has_role(user, Role.SMO)


def smo_or_clerk_permission(instance, user) -> bool:
    return has_role(user, Role.SMO, Role.CLERK)


def clerk_permission(instance, user) -> bool:
    """The Board's own acts (its hearing, its decision) are recorded by its clerk,
    never by the SMO whose notice is appealed; an SMO may be given the clerk's
    role explicitly, and the chronology shows who acted."""
    return has_role(user, Role.CLERK)


def attorney_permission(instance, user) -> bool:
    return has_role(user, Role.ATTORNEY)


def building_inspector_permission(instance, user) -> bool:
    return has_role(user, Role.BUILDING_INSPECTOR)


def attorney_or_inspector_permission(instance, user) -> bool:
    return has_role(user, Role.ATTORNEY, Role.BUILDING_INSPECTOR)


# Which roles each predicate admits (for docs/transitions.md and the role tests).
smo_permission.roles = (Role.SMO,)
smo_or_clerk_permission.roles = (Role.SMO, Role.CLERK)
clerk_permission.roles = (Role.CLERK,)
attorney_permission.roles = (Role.ATTORNEY,)
building_inspector_permission.roles = (Role.BUILDING_INSPECTOR,)
attorney_or_inspector_permission.roles = (Role.ATTORNEY, Role.BUILDING_INSPECTOR)


class RoleRequiredMixin(AccessMixin):
    """Anonymous → sign-in page; signed in without one of `required_roles` → 403."""

    required_roles: tuple[Role, ...] = ()

    def dispatch(self, request, *args, **kwargs):
        if not request.user.is_authenticated:
            return self.handle_no_permission()
        if not has_role(request.user, *self.required_roles):
            raise PermissionDenied("Your role does not give access to this page.")
        return super().dispatch(request, *args, **kwargs)


def may_read_originals(user) -> bool:
    """The one rule for photos' originals (report photos and proof photos): the
    SMO's only, as evidence."""
    return has_role(user, *ORIGINAL_READERS)


def role_required(*roles: Role):
    """The function-view form of RoleRequiredMixin."""

    def decorator(view):
        @wraps(view)
        def wrapped(request, *args, **kwargs):
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            if not has_role(request.user, *roles):
                raise PermissionDenied("Your role does not give access to this page.")
            return view(request, *args, **kwargs)

        return wrapped

    return decorator


def sync_role_permissions(*args, using="default", **kwargs):
    """Give each role group the model permissions of ROLE_MODEL_PERMISSIONS."""
    from django.contrib.auth.models import Group, Permission

    for role, apps in ROLE_MODEL_PERMISSIONS.items():
        group, _ = Group.objects.using(using).get_or_create(name=role.value)
        wanted = []
        for app_label, level in apps.items():
            actions = ("view",) if level == "view" else ("add", "change", "view")
            wanted.extend(
                Permission.objects.using(using).filter(
                    content_type__app_label=app_label,
                    codename__regex=r"^({})_".format("|".join(actions)),
                )
            )
        group.permissions.set(wanted)
