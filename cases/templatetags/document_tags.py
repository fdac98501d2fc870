"""The documents panel of the case page."""

from django import template

register = template.Library()


@register.simple_tag(takes_context=True)
def case_documents_panel(context, case):
    """Issued documents (and drafts) of `case`, with downloads for staff."""
    return ""
