"""The documents panel of the case page."""

from django import template

from documents.selectors import documents_for_case
from kernel.panels import render_panel
from kernel.roles import CASE_READERS, has_role

from ..selectors import has_panel_records

register = template.Library()


@register.simple_tag(takes_context=True)
def case_documents_panel(context, case):
    """Issued documents of `case` (every version, rendering and failed ones too)
    with version, status, who issued them and when, and the download link. Empty
    for a user who may not read the case."""
    request = context.get("request")
    user = getattr(request, "user", None) or context.get("user")
    if user is None or not has_role(user, *CASE_READERS):
        return ""
    return render_panel(
        context,
        "documents/staff/case_panel.html",
        {
            "documents": list(documents_for_case(case))
            if has_panel_records(case, "documents")
            else []
        },
    )
