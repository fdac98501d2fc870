"""The columns of the export of the reports awaiting triage (jobs.exports writes
them; intake registers the list in its ready())."""

from jobs.exports import Column, page_of, person

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
