"""The columns of the inspection list's and the outfall list's exports
(jobs.exports writes them)."""

from jobs.exports import Column, page_of, person

INSPECTIONS = (
    Column("Inspection", lambda i: i.pk),
    Column(
        "Link",
        lambda i: page_of("inspections:inspection_detail", i.pk),
        link=True,
    ),
    Column("Scheduled for (village time)", lambda i: i.scheduled_for),
    Column("Kind", lambda i: i.get_kind_display()),
    Column("Premises", lambda i: i.premises.address if i.premises else ""),
    Column("Facility", lambda i: i.facility.name if i.facility else ""),
    Column("Officer", lambda i: person(i.officer)),
    Column("Status", lambda i: i.get_status_display()),
    Column("Access", lambda i: i.get_access_outcome_display()),
    Column("Case number", lambda i: i.case.number if i.case else ""),
)


def _screening(row, fn):
    _outfall, screening = row
    return fn(screening) if screening is not None else None


# One row per screening of each outfall (an outfall never screened: one row, the
# screening's columns empty), newest screening first.
OUTFALLS = (
    Column("Outfall", lambda r: r[0].code),
    Column(
        "Link",
        lambda r: page_of("inspections:outfall_detail", r[0].pk),
        link=True,
    ),
    Column("Location", lambda r: r[0].location_description),
    Column("Receiving water", lambda r: r[0].receiving_water),
    Column("303(d)-listed water", lambda r: r[0].is_303d_listed),
    Column("TMDL applies", lambda r: r[0].has_tmdl),
    Column("TMDL approved on", lambda r: r[0].tmdl_approved_on),
    Column("Active", lambda r: r[0].active),
    Column("Latitude", lambda r: r[0].latitude),
    Column("Longitude", lambda r: r[0].longitude),
    Column("Screened (village time)", lambda r: _screening(r, lambda s: s.screened_at)),
    Column(
        "Screening link",
        lambda r: _screening(
            r, lambda s: page_of("inspections:screening_detail", s.pk)
        ),
        link=True,
    ),
    Column("Screened by", lambda r: _screening(r, lambda s: person(s.screened_by))),
    Column("Hours since rain", lambda r: _screening(r, lambda s: s.hours_since_rain)),
    Column("Flow present", lambda r: _screening(r, lambda s: s.flow_present)),
    Column("Flow rate", lambda r: _screening(r, lambda s: s.get_flow_rate_display())),
    Column(
        "Overall severity", lambda r: _screening(r, lambda s: s.get_severity_display())
    ),
    Column("Suspicious", lambda r: _screening(r, lambda s: s.is_suspicious)),
    Column(
        "Indicators present",
        lambda r: _screening(
            r, lambda s: "; ".join(str(i) for i in s.indicators_present)
        ),
    ),
    Column(
        "Case number",
        lambda r: _screening(r, lambda s: s.case.number if s.case else ""),
    ),
    Column("Notes", lambda r: _screening(r, lambda s: s.notes)),
)
