"""Deadline panels for the dashboard and the case page (read stored deadlines;
never compute dates here)."""

from django import template

from deadlines import selectors
from kernel.panels import render_panel
from kernel.roles import Role, has_role

register = template.Library()


@register.simple_tag(takes_context=True)
def dashboard_deadline_panels(context):
    """Due this week and overdue, for the signed-in user's role: SMO staff the
    SMO/discharger/facility duties of their cases and all unassigned ones; the
    clerk the clerk/Board duties. Other roles: only their calendar feed link."""
    request = context.get("request")
    user = context.get("user") or getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return ""
    if not has_role(user, Role.SMO, Role.CLERK):
        return render_panel(context, "deadlines/_dashboard_feed_only.html")
    panels = selectors.dashboard_panels(
        user,
        limit=selectors.DASHBOARD_PANEL_SIZE,
        rows=selectors.PANEL_ROWS,
    )
    return render_panel(context, "deadlines/_dashboard_panels.html", panels)


@register.simple_tag(takes_context=True)
def case_deadlines_panel(context, case):
    """The deadlines of `case`: rule id, due date, explanation, status, and the
    reminders sent about each."""
    request = context.get("request")
    user = context.get("user") or getattr(request, "user", None)
    deadlines = list(selectors.case_deadlines(case))
    return render_panel(
        context,
        "deadlines/_case_panel.html",
        {
            "case": case,
            "deadlines": deadlines,
            # On a closed case: the Village's own duties still open (R-APL-3).
            "still_owed": [d for d in deadlines if d.is_open],
            "today": selectors.today(),
            "linkable": has_role(user, Role.SMO, Role.CLERK),
        },
    )


@register.filter
def days_left(due):
    """ "due today", "3 days left", "overdue by 2 days": the engine's words for
    a due date, counted on the village's today (never computed here)."""
    from deadlines import engine

    if not due:
        return ""
    return engine.days_left_words(due, selectors.today())
