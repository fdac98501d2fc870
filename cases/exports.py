"""The columns of the case list's export (jobs.exports writes them; cases
registers the list in its ready())."""

from jobs.exports import Column, page_of, person
from kernel.templatetags.human_tags import plain_name

CASES = (
    Column("Case number", lambda c: c.number),
    Column("Link", lambda c: page_of("cases:detail", c.number), link=True),
    Column("Summary", lambda c: c.summary),
    Column("Status", lambda c: c.get_status_display()),
    Column("Kind", lambda c: plain_name(c.get_kind_display())),
    Column(
        "Where",
        lambda c: c.premises.address if c.premises else c.location_description,
    ),
    Column("Tax map number", lambda c: c.premises.tax_map_number if c.premises else ""),
    Column("Officer", lambda c: person(c.assigned_officer)),
    Column("Opened (village time)", lambda c: c.opened_at),
    Column("Closed (village time)", lambda c: c.closed_at),
)
