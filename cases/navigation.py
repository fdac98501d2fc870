"""The navigation bar: which role sees which page."""

from dataclasses import dataclass

from django.urls import reverse

from kernel.roles import Role, user_roles


@dataclass(frozen=True)
class NavItem:
    label: str
    url_name: str
    roles: tuple[Role, ...]


STAFF_NAV = (
    NavItem("Dashboard", "cases:dashboard", tuple(Role)),
    NavItem("Triage", "cases:triage", (Role.SMO,)),
    NavItem("Cases", "cases:list", (Role.SMO, Role.CLERK)),
    NavItem("Inspections", "inspections:index", (Role.SMO,)),
    NavItem("Spills", "inspections:spill_list", (Role.SMO,)),
    NavItem("Outfalls", "inspections:outfall_list", (Role.SMO,)),
    NavItem("Map", "map:staff", (Role.SMO, Role.CLERK)),
    NavItem("Notices", "enforcement:notice_list", (Role.SMO,)),
    NavItem("Appeals", "enforcement:appeal_list", (Role.SMO, Role.CLERK)),
    NavItem("Board meetings", "enforcement:meeting_list", (Role.SMO, Role.CLERK)),
    NavItem(
        "Sign-offs",
        "enforcement:signoff_list",
        (Role.ATTORNEY, Role.BUILDING_INSPECTOR),
    ),
    NavItem("Deadlines", "deadlines:list", (Role.SMO, Role.CLERK)),
    NavItem("Ledger", "ledger:list", (Role.SMO, Role.CLERK)),
    # R-ADM-1: the SMO records them; every member of staff may read who acts.
    NavItem("Delegations", "cases:delegations", tuple(Role)),
    NavItem("Annual report", "annual:index", (Role.SMO, Role.CLERK)),
)

PUBLIC_NAV = (
    NavItem("Report a discharge", "public:report", ()),
    NavItem("Check a report", "public:status", ()),
    NavItem("Deadline calculator", "deadlines:calculator", ()),
    NavItem("Map of reports", "public_map:page", ()),
    NavItem("Received a notice?", "portal:enter", ()),
)


def _resolve(items, user=None):
    roles = user_roles(user) if user is not None else None
    out = []
    for item in items:
        if roles is not None and not (roles & set(item.roles)):
            continue
        out.append({"label": item.label, "url": reverse(item.url_name)})
    return out


def nav_for(user):
    return {"public": _resolve(PUBLIC_NAV), "staff": _resolve(STAFF_NAV, user)}
