"""The SMO's field-work card on the dashboard: the way to take the day's work
offline, and the records sent from phones kept for a decision. A template tag,
so the dashboard of cases below need not import this app (STYLE.md,
"Layers")."""

from django import template

from kernel.panels import render_panel

from .. import selectors

register = template.Library()


@register.simple_tag(takes_context=True)
def fieldwork_queue(context):
    return render_panel(
        context,
        "fieldwork/_dashboard.html",
        {"kept_count": selectors.waiting_count()},
    )
