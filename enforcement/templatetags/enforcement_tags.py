"""Panels the enforcement app adds to other pages (the case page)."""

from dataclasses import dataclass

from django import template

from kernel.citations import UnknownCitation, citation
from kernel.panels import render_panel
from kernel.roles import Role, has_role

from .. import selectors, work_queues
from ..document_kinds import EnforcementDocument
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


# The remedies whose costs are invoiced (R-COR-2, R-NUI-1): the panel offers
# their invoice and its payment where the state machine does.
INVOICED_FLOWS = ("corrective", "nuisance")
PANEL_STEPS = ("invoice", "record_payment")


def _invoice_steps(remedy, user) -> list[dict]:
    """ "Issue the invoice" (work done, costs itemized) and "Record payment"
    (invoiced, not paid in full), each a link to the step on the remedy's page;
    the invoice also to its draft preview."""
    from django.contrib.contenttypes.models import ContentType
    from django.urls import reverse

    from kernel.workflow import actions

    found = []
    for action in actions(remedy, user):
        if action.name not in PANEL_STEPS or not action.enabled:
            continue
        step = {
            "label": action.label,
            "url": f"{remedy.get_absolute_url()}#step-{action.name}",
            "preview": "",
            "balance": "",
        }
        if action.name == "invoice":
            step["preview"] = reverse(
                "documents:draft_preview",
                args=[
                    EnforcementDocument.CORRECTIVE_INVOICE,
                    ContentType.objects.get_for_model(remedy).pk,
                    remedy.pk,
                ],
            )
            step["balance"] = f"${remedy.total_cost():,.2f} of itemized costs"
        else:
            step["balance"] = (
                f"${remedy.balance_due():,.2f} remains due on invoice "
                f"{remedy.invoice_number}"
            )
        found.append(step)
    return found


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
    for slug in INVOICED_FLOWS:
        for remedy in data["remedies"][slug]:
            remedy.panel_steps = _invoice_steps(remedy, user)
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


# --- the staff home's work queues (issue 16), in the dashboard of cases ---------
@dataclass(frozen=True)
class SignoffQueue:
    """What one sign-off role's queue says (R-ALT-1)."""

    role: Role
    key: str  # its section's id and test id
    title: str
    act: str
    since: str  # what the date waited from is
    empty: str


SIGNOFF_QUEUES = {
    "attorney": SignoffQueue(
        Role.ATTORNEY,
        "attorney",
        "Municipal Attorney: alternative remedies to recommend",
        "Recommend or decline",
        "proposed",
        "Nothing waits for your recommendation.",
    ),
    "building_inspector": SignoffQueue(
        Role.BUILDING_INSPECTOR,
        "inspector",
        "Building Inspector: alternative remedies to concur in",
        "Concur or decline",
        "recommended",
        "Nothing waits for your concurrence.",
    ),
}


@register.simple_tag(takes_context=True)
def clerk_queue(context):
    return render_panel(
        context,
        "enforcement/_clerk_queue.html",
        {"clerk": work_queues.clerk_queue(context["user"])},
    )


@register.simple_tag(takes_context=True)
def signoff_queue(context, who: str):
    queue = SIGNOFF_QUEUES[who]
    remedies = work_queues.signoff_queue(context["user"], queue.role)
    return render_panel(
        context,
        "enforcement/_signoff_queue.html",
        {"queue": queue, "remedies": remedies},
    )
