"""`{% record_documents record %}`: the documents of one enforcement or
inspection record — per kind a "Preview" link, an "Issue" (or "Issue a
correction") button for the roles that may issue it, and every version issued
with its status and download link."""

from django import template

from documents.services import document_actions
from kernel.panels import render_panel
from kernel.roles import CASE_READERS, has_role

from ..document_kinds import EnforcementDocument

register = template.Library()


@register.simple_tag(takes_context=True)
def record_documents(context, record):
    from ..views.documents import SOURCE_WORD, SOURCES, issue_confirmation

    request = context.get("request")
    user = getattr(request, "user", None) or context.get("user")
    if user is None or not has_role(user, *CASE_READERS):
        return ""
    from ..models import NoticeOfViolation

    word = SOURCE_WORD.get(type(record))
    if isinstance(record, NoticeOfViolation):
        kinds = (EnforcementDocument.NOTICE_OF_VIOLATION,)
    elif word is None:
        return ""  # a record without documents (e.g. an injunction referral)
    else:
        kinds = SOURCES[word][1]
    rows = document_actions(user, record, kinds)
    for row in rows:
        # a binding issue asks "I confirm: …" (issue 26)
        row["confirm"] = (
            issue_confirmation(record, row["kind"]) if row["may_issue"] else None
        )
    return render_panel(
        context,
        "enforcement/_record_documents.html",
        {
            "rows": rows,
            "source_word": word,
            "record": record,
            "here": request.get_full_path() if request else "",
        },
    )
