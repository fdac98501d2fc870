"""Section numbers on pages come from the one citation table, never typed in."""

from django import template

from ..citations import section_of

register = template.Library()


@register.simple_tag
def section(rule_id: str) -> str:
    """`{% section "R-ALT-1" %}` → "§ 132-17 A" (from kernel.Citation; the rule id
    itself if the table has no row for it)."""
    return section_of(rule_id)
