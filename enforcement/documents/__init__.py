"""The documents of enforcement, owned here: the facts (contracts) of each
letter with the legal checks the ordinance imposes on it, the builders that make
them from a record (a notice, an appeal, a corrective measure, a suspension, a
termination), and sample facts for the template preview; all registered with
the one registry of documents (documents.registry), keyed by kind.

Builders read what is stored: the recipient frozen at issue, the requirements
and their particulars, the stored deadlines (R-APL-1, R-NOV-1, R-NOV-2,
R-COR-1) — never date arithmetic. A draft notice has no stored deadline yet: its preview asks the
deadline engine (compute_due) what the R-APL-1 date would be if issued today.

One module per letter (issue 30): `notice` (the notice of violation), `access`
(suspension and termination of MS4 access), `corrective` (request for access,
invoices of costs), `appeal_decision` (the Board's decision), `hearing` (the
notice of hearing and the Board's agenda); `common` holds what they share.
Imported (so registered) by EnforcementConfig.ready(). Documents are issued
through documents.services.issue_for; the notice of violation is issued
by enforcement.services.notices.notice_issue in the same transaction as the
notice (notice_document_issue)."""

from . import access, appeal_decision, corrective, hearing, notice  # noqa: F401
