"""The case page's ledger panel (issue 27)."""

from django import template

from documents.contracts import how_to_pay
from kernel.panels import render_panel

from .. import selectors

register = template.Library()

PAST_DUE_ON_DASHBOARD = 10


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


@register.simple_tag(takes_context=True)
def respondent_charges(context, access):
    """The respondent's page: each amount the Village asks of this person on
    this case, what was paid, the balance and how to pay (no payment online)."""
    charges = selectors.party_charges(access.party, cases=[access.case])
    for c in charges:
        c.payments_counted = [p for p in c.payments.all() if not p.is_voided]
        c.how_to_pay = how_to_pay(c.reference) if c.balance() else ""
    return render_panel(context, "ledger/_respondent.html", {"charges": charges})


@register.simple_tag(takes_context=True)
def smo_past_due_queue(context):
    """The SMO's work queue: charges past due, each offering "Refer to the
    Justice Court" (issue 27)."""
    head, count = selectors.past_due_head(PAST_DUE_ON_DASHBOARD)
    return render_panel(
        context, "ledger/_past_due_queue.html", {"rows": head, "count": count}
    )
