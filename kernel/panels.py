"""Rendering a page's panel (a template tag's own template) inside the page.

`render_to_string(name, values, request=request)` builds a new RequestContext,
which runs every context processor again (the navigation bar's URLs, the user's
roles, messages) for each panel: five times on the case page. A panel rendered
here reuses the page's context, as Django's inclusion tags do: only `values`,
plus the page's csrf token, request and user."""

from django.template import Context

PASSED_ON = ("csrf_token", "request", "user")


def render_panel(context: Context, template_name: str, values: dict | None = None):
    template = context.template.engine.get_template(template_name)
    panel = context.new(values or {})
    for key in PASSED_ON:
        if key not in panel and key in context:
            panel[key] = context[key]
    return template.render(panel)
