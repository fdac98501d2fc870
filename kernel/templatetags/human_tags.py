"""Staff pages' dates, times and names as people read them (issue 16):
"Thu, Dec 3, 2026", "2:04 PM", "Illicit discharge" with its rule id apart.
Letters and PDFs keep their own date style (they do not load these)."""

import re

from django import template
from django.utils.html import format_html

from .. import humanize

register = template.Library()

_RULE_IN_LABEL = re.compile(r"\s*\((R-[A-Z]+-\d+)\)\s*$")


def _time_element(value, text: str) -> str:
    """`text` in a `<time>` whose datetime= carries ISO for machines; words
    (not a date) and nothing stay as they are."""
    iso = humanize.machine_value(value)
    if not iso:
        return text
    return format_html('<time datetime="{}">{}</time>', iso, text)


@register.filter
def human_date(value) -> str:
    return _time_element(value, humanize.human_date(value))


@register.filter
def human_long_date(value) -> str:
    return _time_element(value, humanize.human_long_date(value))


@register.filter
def human_short_date(value) -> str:
    return _time_element(value, humanize.human_short_date(value))


# The same words without the <time> element, for plain-text e-mails.


@register.filter
def human_date_text(value) -> str:
    return humanize.human_date(value)


@register.filter
def human_long_date_text(value) -> str:
    return humanize.human_long_date(value)


@register.filter
def human_time(value) -> str:
    return _time_element(value, humanize.human_time(value))


@register.filter
def human_datetime(value) -> str:
    return _time_element(value, humanize.human_datetime(value))


@register.filter
def plain_name(label) -> str:
    """ "Illicit discharge (R-PRO-1)" → "Illicit discharge"."""
    return _RULE_IN_LABEL.sub("", str(label or ""))


@register.filter
def rule_in(label) -> str:
    """The rule id a label ends with ("R-PRO-1"), or ""."""
    found = _RULE_IN_LABEL.search(str(label or ""))
    return found.group(1) if found else ""


@register.inclusion_tag("workflow/_rule_id.html")
def rule_link(rule_id: str):
    """The rule id as small text beside a plain name (no query: pages with many
    steps stay within their query budgets)."""
    return {"rule_id": rule_id}


@register.filter
def money(value) -> str:
    """ "$1,234.50" (kernel.humanize.money)."""
    return humanize.money(value)
