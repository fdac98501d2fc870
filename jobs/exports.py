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
from kernel.paging import query_without_page
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
        query=query_without_page(request),
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
    encoded = query_without_page(request)
    return {
        fmt: reverse(f"{name}_{fmt}") + (f"?{encoded}" if encoded else "")
        for fmt in FORMATS
    }


def refused(list_url: str, request):
    """A malformed filter: back to the list with the same query string, where the
    list's own form says what is wrong (nothing exported, the input kept)."""
    encoded = query_without_page(request)
    return redirect(reverse(list_url) + (f"?{encoded}" if encoded else ""))
