"""The columns of the notice list's and the appeal list's exports (jobs.exports
writes them)."""

from jobs.exports import Column, page_of

NOTICES = (
    Column("Notice", lambda n: f"NOV-{n.pk}"),
    Column("Link", lambda n: page_of("enforcement:notice_detail", n.pk), link=True),
    Column("Case number", lambda n: n.case.number),
    Column("Recipient", lambda n: n.recipient_name or n.recipient.name),
    Column("Status", lambda n: n.get_status_display()),
    Column("Issued on", lambda n: n.issued_on),
    Column("Violation date", lambda n: n.violation_date),
    Column(
        "Requirements",
        lambda n: " ".join(f"({r.number})" for r in n.requirements.all()),
    ),
    Column("Days to comply", lambda n: n.remediation_days),
    Column("Proposed fine", lambda n: n.proposed_fine),
)


def _due(deadline):
    return deadline.due_date if deadline else None


APPEALS = (
    Column("Appeal", lambda a: a.pk),
    Column("Link", lambda a: page_of("enforcement:appeal_detail", a.pk), link=True),
    Column("List", lambda a: a.export_list),
    Column("Status", lambda a: a.get_status_display()),
    Column("Appellant", lambda a: a.appellant.name),
    Column("Case number", lambda a: a.notice.case.number),
    Column("Filed on", lambda a: a.filed_on),
    Column("Filed late", lambda a: a.is_late),
    Column("Hear by (R-APL-2)", lambda a: _due(a.hearing_by)),
    Column("Hearing (village time)", lambda a: a.hearing_at),
    Column("Hearing location", lambda a: a.hearing_location),
    Column("Decision", lambda a: a.get_decision_display()),
    Column("Decided on", lambda a: a.decided_on),
    Column("File with the clerk by (R-APL-3)", lambda a: _due(a.file_by)),
    Column("Filed with the clerk on", lambda a: a.filed_with_clerk_on),
    Column("Mail by (R-APL-3)", lambda a: _due(a.mail_by)),
    Column("Mailed on", lambda a: a.mailed_on),
)
