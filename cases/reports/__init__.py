"""Resident reports: the online form, staff entry, the public status page and the
status-change e-mails. Open311 lives beside it in cases/open311/."""
