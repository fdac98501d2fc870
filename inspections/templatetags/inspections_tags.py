"""Panels the inspections app adds to other pages (the case page)."""

from django import template

from cases.panels import render_panel
from cases.roles import CASE_READERS, CASE_WRITERS, has_role

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
    records = case_records(case)
    records["case"] = case
    records["can_schedule"] = has_role(user, *CASE_WRITERS) and not case.is_closed
    return render_panel(context, "inspections/_case_panel.html", records)
