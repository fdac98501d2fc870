"""Panels the enforcement app adds to other pages (the case page)."""

from django import template

from cases.citations import UnknownCitation, citation
from cases.panels import render_panel
from cases.roles import Role, has_role

from .. import selectors
from ..services.notices import DRAFTABLE_CASE_STATUSES

register = template.Library()

REMEDY_LABELS = (
    ("corrective", "Corrective measures"),
    ("nuisance", "Nuisance abatement"),
    ("injunction", "Injunction referral"),
    ("suspension", "Emergency suspension"),
    ("termination", "Termination of access"),
    ("alternative", "Alternative remedies"),
)
STARTS = (
    ("corrective", "Request access (corrective measures)"),
    ("nuisance", "Summary abatement"),
    ("injunction", "Refer for injunction"),
    ("suspension", "Emergency suspension"),
    ("termination", "Propose termination"),
    ("alternative", "Propose alternative remedies"),
)


@register.simple_tag(takes_context=True)
def case_enforcement_panel(context, case):
    """Notices, appeals, remedies of `case` with status and key dates, and the
    actions the user may take (from each FSM's available transitions)."""
    request = context.get("request")
    user = getattr(request, "user", None) or context.get("user")
    if not has_role(user, Role.SMO, Role.CLERK):
        return ""
    data = selectors.case_enforcement(case)
    for notice in data["notices"]:
        notice.panel_deadline = notice.compliance_deadline()
        notice.panel_actions = notice.user_actions(user)
    remedies = [(slug, label, data["remedies"][slug]) for slug, label in REMEDY_LABELS]
    try:
        cumulative = citation("R-REM-1").notice_text
    except UnknownCitation:
        cumulative = ""
    return render_panel(
        context,
        "enforcement/_panel.html",
        {
            "case": case,
            "data": data,
            "remedies": remedies,
            "any_remedy": any(items for _, _, items in remedies),
            "can_write": has_role(user, Role.SMO) and not case.is_closed,
            "can_draft": case.status in DRAFTABLE_CASE_STATUSES,
            "can_record_appeal": has_role(user, Role.SMO, Role.CLERK),
            "starts": STARTS,
            "cumulative": cumulative,
        },
    )
