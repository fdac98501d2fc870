"""Panels the inspections app adds to other pages (the case page)."""

from django import template

from kernel.panels import render_panel
from kernel.roles import CASE_READERS, Role, has_role

from ..selectors import case_records

register = template.Library()


@register.simple_tag(takes_context=True)
def case_inspections_panel(context, case):
    """Inspections, spills, screenings, samples… of `case`, with links, for the
    case page (readers of cases only)."""
    request = context.get("request")
    user = getattr(request, "user", None) or context.get("user")
    if not has_role(user, *CASE_READERS):
        return ""
    values = case_records(case)
    values.update(case=case, can_write=has_role(user, Role.SMO))
    return render_panel(context, "inspections/_case_panel.html", values)
