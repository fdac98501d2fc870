"""Panels the enforcement app adds to other pages (the case page)."""

from django import template

register = template.Library()


@register.simple_tag(takes_context=True)
def case_enforcement_panel(context, case):
    """Notices, appeals, remedies… of `case`, with the actions the user may take."""
    return ""
