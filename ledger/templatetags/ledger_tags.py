"""The case page's ledger panel (issue 27)."""

from django import template

from cases.panels import render_panel

from .. import selectors

register = template.Library()


def settled_words(charges) -> str:
    """Whether the case may be resolved as far as money goes, in words."""
    open_ = [c for c in charges if not c.settled]
    if open_:
        refs = ", ".join(c.reference for c in open_)
        return (
            f"Unpaid balance on {refs}: the case can be resolved once it is paid, "
            "written off by the Stormwater Management Officer with a reason, or "
            "referred to the Justice Court."
        )
    return "Every charge is paid, written off, referred or cancelled."


@register.simple_tag(takes_context=True)
def case_ledger_panel(context, case):
    charges = selectors.case_charges(case)
    return render_panel(
        context,
        "ledger/_case_panel.html",
        {"charges": charges, "settled_words": settled_words(charges)},
    )
