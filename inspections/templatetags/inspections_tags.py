"""Panels the inspections app adds to other pages (the case page)."""

from django import template

register = template.Library()


@register.simple_tag(takes_context=True)
def case_inspections_panel(context, case):
    """Inspections, spills, screenings… of `case`, for the case page."""
    return ""
