"""Deadline panels for the dashboard and the case page."""

from django import template

register = template.Library()


@register.simple_tag(takes_context=True)
def dashboard_deadline_panels(context):
    """Due this week and overdue, for the signed-in user's role."""
    return ""


@register.simple_tag(takes_context=True)
def case_deadlines_panel(context, case):
    """The deadlines of `case` with their explanations."""
    return ""
