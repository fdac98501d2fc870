"""Resident intake (issue 30): every way a suspected discharge reaches the office
— the online form, Open311 clients, staff entering a call or a walk-in — the
public home and status pages, the status-change e-mails, and the published
street. Below cases: a report knows its case only as a foreign key; what a
case's progress means to a resident is registered by cases
(public_status.register_case_progress)."""
