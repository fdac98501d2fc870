"""Section numbers on pages come from the one citation table, never typed in."""

from django import template

from ..citations import UnknownCitation, citation

register = template.Library()


@register.simple_tag
def section(rule_id: str) -> str:
    """`{% section "R-ALT-1" %}` → "§ 132-17 A" (from cases.Citation)."""
    try:
        return citation(rule_id).section
    except UnknownCitation:
        return rule_id
