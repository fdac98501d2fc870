"""The columns of the case list's and the report list's exports (jobs.exports
writes them; cases registers the lists in its ready())."""

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

REPORTS = (
    Column("Received (village time)", lambda r: r.received_at),
    Column("Tracking code", lambda r: r.tracking_code),
    Column("Link", lambda r: page_of("reports:detail", r.pk), link=True),
    Column("Channel", lambda r: r.get_channel_display()),
    Column(
        "Pollutant categories",
        lambda r: "; ".join(c.name for c in r.pollutant_categories.all()),
    ),
    Column(
        "Hazardous", lambda r: any(c.hazardous for c in r.pollutant_categories.all())
    ),
    Column("Description", lambda r: r.description),
    Column("Where", lambda r: r.address or "map pin"),
    Column("Latitude", lambda r: r.latitude),
    Column("Longitude", lambda r: r.longitude),
    Column("Photos", lambda r: len(r.photos.all())),
    Column("Entered by", lambda r: person(r.entered_by)),
)
