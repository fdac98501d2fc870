"""The respondent's page on staff pages: its panel on the case page and the
SMO's queue of what respondents sent (the dashboard). Template tags, so the
pages of cases below need not import this app (STYLE.md, "Layers")."""

from django import template

from kernel.panels import render_panel

from .. import selectors

register = template.Library()


@register.simple_tag(takes_context=True)
def case_portal_panel(context, case):
    return render_panel(
        context,
        "portal/_staff_panel.html",
        {
            "case": case,
            "can_write": context.get("can_write"),
            "portal_rows": selectors.staff_panel(case),
        },
    )


@register.simple_tag(takes_context=True)
def respondents_queue(context):
    return render_panel(
        context, "portal/_respondents_queue.html", selectors.respondents_queue()
    )
