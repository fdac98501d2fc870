"""The columns of the deadline list's export (jobs.exports writes it)."""

from django.utils import timezone

from jobs.exports import Column, page_of, person


def deadline_state(d) -> str:
    """The deadline's status as the list's badge says it."""
    if d.is_overdue():
        return "Overdue"
    if d.is_open:
        return "Open"
    if d.was_met:
        return "Met"
    if d.was_missed:
        return "Missed (done late)"
    return "Waived"


def _reminders(d) -> str:
    return "; ".join(
        f"{r.kind_label} → {r.recipient}: "
        + (
            f"sent {timezone.localtime(r.sent_at):%Y-%m-%d %H:%M}"
            if r.sent_at
            else "not sent yet"
        )
        for r in d.reminders.all()
    )


DEADLINES = (
    Column("Due date", lambda d: d.due_date),
    Column("Rule", lambda d: d.rule_id),
    Column("Deadline", lambda d: d.label),
    Column("Link", lambda d: page_of("deadlines:detail", d.pk), link=True),
    Column("Case number", lambda d: d.case.number if d.case else ""),
    Column("Who must act", lambda d: d.get_responsible_display()),
    Column("Assigned to", lambda d: person(d.assigned_to)),
    Column("Status", deadline_state),
    Column("Done on", lambda d: d.met_on),
    Column("Waived because", lambda d: d.waived_reason),
    Column("Counts from", lambda d: d.counts_from),
    Column("Event date", lambda d: d.event_date),
    Column("How it was computed", lambda d: d.explanation),
    Column("Reminders", _reminders),
)
