"""Exports of the staff lists: what a list shows, with its filters, as CSV (UTF-8
with a byte-order mark, so spreadsheets read the accents) and XLSX (issue 17).

Each list has a column spec (:class:`Column`: a human heading and a value
function of one row) and a function that gives its rows from the list's own
filtered queryset, so an export cannot drift from the page. The writers read the
rows with ``.iterator(chunk_size=…)`` and hold one chunk at a time: a CSV export
streams (``StreamingHttpResponse``); an XLSX export is written by openpyxl's
write-only workbook, row by row, to a temporary file that is then streamed
(bench/: 50,000 rows in constant memory).

A list's export is one :class:`ListExport` (issue 29): its rows come from the
list's filters as a request carries them (its query string and its user). An
export of more than EXPORT_BACKGROUND_ROWS rows is not written in the request:
a background job (the jobs app) is queued and the staff member watches its
progress; the worker re-creates the rows from the stored query string and the
same user (their role checked again) and writes them with the same writers.
Each app registers its lists' exports in its AppConfig.ready().

Whatever a resident typed can end up in a cell, and a spreadsheet must never run
it as a formula (OWASP "CSV injection"): in a CSV every such text goes through
:func:`neutralise` (a leading ``'``, the only way a CSV can say "text"); in an
XLSX it is written as a text cell, so it shows as typed. Numbers stay numbers;
dates and times are in the village's time zone (the headings say "village
time"), a moment written without a UTC offset ("2026-12-04 14:30:00") so that
spreadsheets read it as a date and time, not as text."""

import csv
import datetime as dt
import functools
import tempfile
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from decimal import Decimal
from itertools import islice
from typing import Any, NamedTuple
from urllib.parse import quote

from django.conf import settings
from django.db.models import QuerySet
from django.http import FileResponse, QueryDict, StreamingHttpResponse
from django.shortcuts import redirect
from django.urls import get_script_prefix, get_urlconf, path, reverse
from django.utils import timezone
from openpyxl import Workbook
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE

from jobs import registry as job_registry
from jobs.views import queue_and_show
from kernel.roles import has_role

CHUNK_SIZE = 2000
FORMATS = ("csv", "xlsx")
BOM = "\ufeff"
XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
# The characters a spreadsheet reads as the start of a formula (or that it
# strips before looking for one): OWASP, "CSV Injection".
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


@dataclass(frozen=True)
class Column:
    """One column of an export: its heading and the value of one row. A `link`
    column's value is a path on this site, written as an absolute address."""

    heading: str
    value: Callable[[Any], Any]
    link: bool = False


def neutralise(value):
    """`value` made safe for a spreadsheet cell: a text beginning with ``=``,
    ``+``, ``-``, ``@``, a tab or a carriage return gets a leading ``'`` so it
    stays text; anything else (numbers, negative ones too) is unchanged."""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


def plain(value):
    """A cell's value: text as text (each writer keeps it from being run),
    numbers as numbers, yes/no for a boolean, a date as a date and a moment in
    the village's time zone."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dt.datetime):
        if timezone.is_aware(value):
            value = timezone.localtime(value)
        return value.replace(microsecond=0)
    if isinstance(value, (dt.date, int, float, Decimal)):
        return value
    return str(value)


_PLACEHOLDER = "0000000000"


@functools.cache
def _route(url_name: str, _prefix: str, _urlconf) -> tuple[str, str]:
    return tuple(reverse(url_name, args=[_PLACEHOLDER]).split(_PLACEHOLDER, 1))


def page_of(url_name: str, key) -> str:
    """reverse(url_name, args=[key]) for a route with one argument, reversed once
    per route: reversing each of 50,000 rows was a fifth of an export's time."""
    head, tail = _route(url_name, get_script_prefix(), get_urlconf())
    return f"{head}{quote(str(key), safe='')}{tail}"


def person(user) -> str:
    """A staff member as the lists name them."""
    if user is None:
        return ""
    return user.get_full_name() or user.username


def chunks(queryset, *, size: int = CHUNK_SIZE) -> Iterator[list]:
    """`queryset` read in lists of `size` rows (a server-side cursor; its
    prefetches run per chunk), for rows that need a query per chunk."""
    rows = queryset.iterator(chunk_size=size)
    while chunk := list(islice(rows, size)):
        yield chunk


# --- writers -----------------------------------------------------------------------
def _cells(columns, row, absolute) -> list:
    cells = []
    for column in columns:
        value = column.value(row)
        if column.link and value:
            value = absolute(value)
        cells.append(plain(value))
    return cells


def _csv_text(value) -> Any:
    """A date in ISO form; a moment in village time without a UTC offset
    ("2026-12-04 14:30:00": with the offset spreadsheets read it as text);
    text neutralised."""
    if isinstance(value, dt.datetime):
        return value.replace(tzinfo=None).isoformat(sep=" ")
    if isinstance(value, dt.date):
        return value.isoformat()
    return neutralise(value)


class _Echo:
    """A file the csv writer writes one line to, handed straight back."""

    def write(self, value):
        return value


def csv_lines(columns, rows: Iterable, absolute) -> Iterator[str]:
    writer = csv.writer(_Echo())
    yield BOM + writer.writerow([c.heading for c in columns])
    for row in rows:
        yield writer.writerow([_csv_text(v) for v in _cells(columns, row, absolute)])


def _xlsx_value(value, sheet):
    if isinstance(value, str):
        # XML 1.0 cannot hold most control characters (openpyxl refuses them).
        value = ILLEGAL_CHARACTERS_RE.sub("", value)
        if value.startswith(FORMULA_START):
            # Text that would be taken for a formula: a text cell, shown as
            # typed (a leading ' would show in the cell).
            from openpyxl.cell import WriteOnlyCell

            cell = WriteOnlyCell(sheet, value=value)
            cell.data_type = "s"
            return cell
        return value
    if isinstance(value, dt.datetime):
        return value.replace(tzinfo=None)  # village time, as the heading says
    return value


def write_xlsx(columns, rows: Iterable, absolute, out, *, title: str) -> None:
    """The rows as one worksheet of a write-only workbook saved into `out`."""
    from openpyxl.cell import WriteOnlyCell
    from openpyxl.styles import Font

    book = Workbook(write_only=True)
    sheet = book.create_sheet(title=title[:31])
    bold = Font(bold=True)
    heading = []
    for column in columns:
        cell = WriteOnlyCell(sheet, value=column.heading)
        cell.font = bold
        heading.append(cell)
    sheet.append(heading)
    for row in rows:
        # Plain values (openpyxl gives dates their number format): a cell object
        # per value took twice the time (bench/exports.py); only a text that
        # would be taken for a formula gets one (_xlsx_value).
        sheet.append([_xlsx_value(v, sheet) for v in _cells(columns, row, absolute)])
    book.save(out)


def filename(name: str, fmt: str) -> str:
    return f"{name}-{timezone.localdate():%Y-%m-%d}.{fmt}"


def export_response(request, *, name: str, title: str, columns, rows, fmt: str):
    """The export of `rows` (an iterable, read once) in `fmt` ("csv" or "xlsx")
    as a download named after the list and today's date."""
    absolute = request.build_absolute_uri
    if fmt == "csv":
        response = StreamingHttpResponse(
            csv_lines(columns, rows, absolute), content_type="text/csv; charset=utf-8"
        )
        response["Content-Disposition"] = (
            f'attachment; filename="{filename(name, "csv")}"'
        )
    else:
        # FileResponse streams the file and closes it when the download is done.
        out = tempfile.TemporaryFile()  # noqa: SIM115
        write_xlsx(columns, rows, absolute, out, title=title)
        out.seek(0)
        response = FileResponse(
            out,
            as_attachment=True,
            filename=filename(name, "xlsx"),
            content_type=XLSX_TYPE,
        )
    response["Cache-Control"] = "private, no-store"
    response["X-Content-Type-Options"] = "nosniff"
    return response


# --- a list's export, at once or in the background ----------------------------------
class Counted(NamedTuple):
    """Rows that are not a queryset or a list (a generator), with their number."""

    total: int
    rows: Iterable


@dataclass(frozen=True)
class ListExport:
    """One list's export. `rows(asked)` reads the list's filters from `asked` (a
    request, or :class:`Asked` in the worker: its ``GET`` and ``user``) and gives
    a QuerySet, a list or :class:`Counted` rows, or None for a malformed filter
    (then the staff member is sent back to `list_url`). `roles` may read it."""

    name: str
    title: str
    columns: tuple
    rows: Callable[[Any], Any]
    roles: tuple
    list_url: str = ""


class Asked:
    """What a list's filters read of a request, for the worker that has none:
    the query string the staff member exported with, and who they are."""

    def __init__(self, user, query: str):
        self.user = user
        self.GET = QueryDict(query)


def background_rows() -> int:
    """Above this many rows an export is a background job."""
    return int(getattr(settings, "EXPORT_BACKGROUND_ROWS", 5000))


def _counted(rows) -> Counted:
    if isinstance(rows, Counted):
        return rows
    if isinstance(rows, QuerySet):
        return Counted(rows.count(), rows.iterator(chunk_size=CHUNK_SIZE))
    rows = list(rows)
    return Counted(len(rows), rows)


def _job_kind(spec: ListExport) -> str:
    return f"export:{spec.name}"


def _list_query(request) -> str:
    query = request.GET.copy()
    query.pop("page", None)
    return query.urlencode()


def export_list(request, spec: ListExport, fmt: str):
    """The export of the list `spec` with the request's filters: a download at
    once, or, above EXPORT_BACKGROUND_ROWS rows, a background job (written in
    this request's transaction, handed to the worker on commit) and its page."""
    rows = spec.rows(request)
    if rows is None:
        return refused(spec.list_url, request)
    total, rows = _counted(rows)
    if total <= background_rows():
        return export_response(
            request,
            name=spec.name,
            title=spec.title,
            columns=spec.columns,
            rows=rows,
            fmt=fmt,
        )
    return queue_and_show(
        request,
        kind=_job_kind(spec),
        title=f"{spec.title} ({fmt.upper()}, {total:,} rows)",
        fmt=fmt,
        query=_list_query(request),
        rows=total,
    )


def _reporting(rows: Iterable, total: int, progress) -> Iterator:
    """`rows`, calling progress(done, total) after every chunk and at the end."""
    done = 0
    for row in rows:
        yield row
        done += 1
        if done % CHUNK_SIZE == 0:
            progress(done, max(total, done))
    progress(done, max(total, done))


def _may_read(spec: ListExport, user, job=None) -> bool:
    return user.is_active and has_role(user, *spec.roles)


def run_export_job(spec: ListExport, job, out, progress) -> str:
    """The worker's side of a background export: the same rows as the list
    shows its owner now, written into `out`; returns the file's name."""
    if not _may_read(spec, job.owner):
        raise job_registry.JobRefused(
            "Your role no longer gives access to this list, so the file was not made."
        )
    rows = spec.rows(Asked(job.owner, job.query))
    if rows is None:
        raise job_registry.JobRefused(
            "The list's filter is not valid any more: open the list, correct the "
            "filter and export again."
        )
    total, rows = _counted(rows)
    progress(0, total)
    rows = _reporting(rows, total, progress)
    base = job.base_url

    def absolute(path_: str) -> str:
        return base + path_

    if job.fmt == "csv":
        for line in csv_lines(spec.columns, rows, absolute):
            out.write(line.encode("utf-8"))
    else:
        write_xlsx(spec.columns, rows, absolute, out, title=spec.title)
    return filename(spec.name, job.fmt if job.fmt == "csv" else "xlsx")


def register(*specs: ListExport) -> None:
    """Let the worker make these lists' exports (from an AppConfig.ready())."""
    for spec in specs:
        job_registry.register(
            job_registry.Work(
                name=_job_kind(spec),
                run=functools.partial(run_export_job, spec),
                may_read=functools.partial(_may_read, spec),
            )
        )


# --- urls and links ----------------------------------------------------------------
def export_paths(route: str, view, name: str) -> list:
    """URL patterns of a list's exports: ``<route>.csv`` and ``<route>.xlsx``,
    named ``<name>_csv`` / ``<name>_xlsx``; the view takes ``fmt``."""
    return [
        path(f"{route}.{fmt}", view, {"fmt": fmt}, name=f"{name}_{fmt}")
        for fmt in FORMATS
    ]


def export_links(request, name: str) -> dict:
    """The list's export addresses carrying its current filters (the query
    string, without the page): {"csv": …, "xlsx": …}."""
    query = request.GET.copy()
    query.pop("page", None)
    encoded = query.urlencode()
    return {
        fmt: reverse(f"{name}_{fmt}") + (f"?{encoded}" if encoded else "")
        for fmt in FORMATS
    }


def refused(list_url: str, request):
    """A malformed filter: back to the list with the same query string, where the
    list's own form says what is wrong (nothing exported, the input kept)."""
    query = request.GET.copy()
    query.pop("page", None)
    encoded = query.urlencode()
    return redirect(reverse(list_url) + (f"?{encoded}" if encoded else ""))


# --- the column spec of each list ---------------------------------------------------
def _plain_label(label) -> str:
    from kernel.templatetags.human_tags import plain_name

    return plain_name(label)


CASES = (
    Column("Case number", lambda c: c.number),
    Column("Link", lambda c: page_of("cases:detail", c.number), link=True),
    Column("Summary", lambda c: c.summary),
    Column("Status", lambda c: c.get_status_display()),
    Column("Kind", lambda c: _plain_label(c.get_kind_display())),
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
