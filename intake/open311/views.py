"""GeoReport v2 endpoints. Thin: parse, call the reports service or selectors,
render with serializers. Every answer under /open311/v2/ is the spec's, errors
included: an unknown route is a 404 and a method an endpoint does not take a
405, each as <errors> (or its JSON) in the format of the path's extension, never
Django's HTML page; never a 500 on bad input. No endpoint uses a session, so
none needs a CSRF token (API clients have none): the read-only ones refuse a
POST with the spec's 405 instead of Django's CSRF page."""

import functools
import math
from urllib.parse import urlencode

from django.utils import timezone
from django.views.decorators.csrf import csrf_exempt

from kernel.input_guard import ascii_digits
from kernel.site_url import site_url
from limits import ratelimit

from .. import selectors
from ..models import PollutantCategory, Report
from ..services import ReportRefused, report_submit
from . import documents, keys
from .forms import Open311Invalid, parse_datetime_param, parse_request
from .serializers import error, respond

DEFAULT_WINDOW_DAYS = 90  # the spec's default: the last 90 days
MAX_WINDOW_DAYS = 90  # the spec: start_date..end_date "may not span more than 90 days"
MAX_RESULTS = 1000  # the spec's maximum per response; more are on the next page
MAX_PAGE_DIGITS = 6
# Date parameters: far beyond any report, and far from datetime's own limits (a
# window or a zone offset taken from year 1 or 9999 overflows).
FIRST_YEAR, LAST_YEAR = 1900, 2999
# Parameters taken once: given twice, the request is a 400 (which one meant?).
# The list parameters (service_request_id, service_code, status) may be repeated
# instead of comma-separated: every value counts.
SINGLE_PARAMETERS = ("start_date", "end_date", "page")


def allow(*methods: str):
    """The view answers `methods` (GET brings HEAD); any other is the spec's
    405 with an Allow header. CSRF-exempt: see the module's docstring."""
    allowed = set(methods) | ({"HEAD"} if "GET" in methods else set())

    def decorator(view):
        @functools.wraps(view)
        def wrapper(request, *args, fmt="json", **kwargs):
            if request.method not in allowed:
                response = error(
                    fmt, 405, f"Use {' or '.join(methods)} on this endpoint."
                )
                response["Allow"] = ", ".join(sorted(allowed))
                return response
            return view(request, *args, fmt=fmt, **kwargs)

        return csrf_exempt(wrapper)

    return decorator


@csrf_exempt
def not_found(request, path=""):
    """Any other path under /open311/v2/: the spec's 404, in XML if the path
    ends in .xml, else JSON."""
    fmt = "xml" if path.lower().endswith(".xml") else "json"
    return error(
        fmt,
        404,
        "No such GeoReport v2 endpoint; see discovery.json (every endpoint ends "
        "in .json or .xml).",
    )


@allow("GET")
def discovery(request, fmt):
    return respond(fmt, "discovery", documents.discovery(site_url(request)))


@allow("GET")
def services(request, fmt):
    return respond(fmt, "services", documents.services())


@allow("GET")
def service_definition(request, code, fmt):
    category = PollutantCategory.objects.filter(code=code, active=True).first()
    if category is None:
        return error(fmt, 404, f"service_code {code!r} was not found.")
    return respond(fmt, "service_definition", documents.definition(category))


@allow("GET", "POST")
def requests(request, fmt):
    if request.method == "POST":
        return _post_request(request, fmt)
    return _list_requests(request, fmt)


def _too_many(fmt, wait: int, message: str):
    """The spec's error format, 429, with Retry-After: the real wait, in
    seconds, until the limit's window ends."""
    minutes = max(1, math.ceil(wait / 60))
    response = error(
        fmt,
        429,
        f"{message} Try again in {minutes} minute{'' if minutes == 1 else 's'}.",
    )
    response["Retry-After"] = str(wait)
    return response


def _too_many_wrong_keys(request, fmt):
    return _too_many(
        fmt,
        ratelimit.seconds_left(ratelimit.OPEN311_WRONG_KEY, request),
        "Too many wrong api_key values from this address.",
    )


def _post_request(request, fmt):
    try:
        client = keys.api_client_by_key(request)
    except keys.TooManyWrongKeys:
        return _too_many_wrong_keys(request, fmt)
    if client is None:
        return error(fmt, 403, "api_key was not provided, is invalid or was revoked.")
    # Per key, not per address: an aggregator forwards many residents from one
    # server (issue 29). A keyless or unknown key never gets here (403, and the
    # wrong-key limit per address).
    allowance, subject = ratelimit.open311_client_allowance(client)
    if not ratelimit.hit(allowance, request, subject=subject):
        return _too_many(
            fmt,
            ratelimit.seconds_left(allowance, request, subject=subject),
            f"This api_key may send {allowance.count} reports an hour.",
        )
    try:
        parsed = parse_request(request.POST, request.FILES)
    except Open311Invalid as exc:
        return error(fmt, exc.status, *exc.messages)
    try:
        report = report_submit(
            channel=Report.Channel.OPEN311, api_client=client, **parsed
        )
    except ReportRefused as exc:
        return error(fmt, 400, str(exc))
    notice = (
        f"Received. Tracking code {report.tracking_code}: the resident can follow "
        f"it at {site_url(request)}/status/. {documents.hazard_notice()}"
    )
    body = [
        {
            "service_request_id": str(report.pk),
            "token": report.tracking_code,
            "service_notice": notice,
            "account_id": None,
        }
    ]
    return respond(fmt, "service_requests", body, status=201)


def _values(params, name: str) -> list[str]:
    """Every value of a list parameter: comma-separated, repeated, or both."""
    return [
        part.strip()
        for raw in params.getlist(name)
        for part in raw.split(",")
        if part.strip()
    ]


def _list_requests(request, fmt):
    params = request.GET
    ids_raw = _values(params, "service_request_id")
    if ids_raw:
        # The spec: with service_request_id, the other parameters are ignored.
        if not all(ascii_digits(i) and len(i) <= 12 for i in ids_raw):
            return error(
                fmt, 400, "service_request_id must be numbers, comma-separated."
            )
        if len(ids_raw) > MAX_RESULTS:
            return error(
                fmt,
                400,
                f"At most {MAX_RESULTS} service_request_id values in one request.",
            )
        return _by_ids(request, fmt, [int(i) for i in ids_raw])
    problems = [
        f"{name} was given more than once."
        for name in SINGLE_PARAMETERS
        if len(params.getlist(name)) > 1
    ]
    start = end = None
    for name in ("start_date", "end_date"):
        raw = params.get(name, "")
        if raw:
            value = parse_datetime_param(raw, require_zone=True)
            if value is None:
                problems.append(
                    f"{name} must be an ISO 8601 date and time with zone, e.g. "
                    "2026-05-04T09:30:00-04:00 or 2026-05-04T13:30:00Z."
                )
            elif not FIRST_YEAR <= value.year <= LAST_YEAR:
                problems.append(
                    f"{name} must be between the years {FIRST_YEAR} and {LAST_YEAR}."
                )
            elif name == "start_date":
                start = value
            else:
                end = value
    statuses = [s.lower() for s in _values(params, "status")]
    if any(s not in ("open", "closed") for s in statuses):
        problems.append("status must be open, closed or open,closed.")
    codes = _values(params, "service_code")
    page_raw = params.get("page", "1").strip() or "1"
    if not (ascii_digits(page_raw) and len(page_raw) <= MAX_PAGE_DIGITS) or (
        int(page_raw) < 1
    ):
        problems.append("page must be a whole number from 1.")
    if problems:
        return error(fmt, 400, *problems)
    page = int(page_raw)
    if start and end and start > end:
        return error(fmt, 400, "start_date is after end_date.")
    if start and end and end - start > timezone.timedelta(days=MAX_WINDOW_DAYS):
        return error(
            fmt,
            400,
            f"start_date and end_date may not span more than {MAX_WINDOW_DAYS} "
            "days; ask for the span in parts.",
        )
    window = timezone.timedelta(days=DEFAULT_WINDOW_DAYS)
    if start is None and end is None:
        start = timezone.now() - window
    elif start is None:
        start = end - window
    elif end is None:
        end = start + window
    rows = selectors.open311_requests(
        service_codes=codes,
        start=start,
        end=end,
        statuses=statuses,
        limit=MAX_RESULTS + 1,  # one more: is there a next page?
        offset=(page - 1) * MAX_RESULTS,
    )
    response = respond(
        fmt, "service_requests", documents.service_requests(rows[:MAX_RESULTS])
    )
    if len(rows) > MAX_RESULTS:
        response["Link"] = f'<{_page_url(request, page + 1)}>; rel="next"'
    return response


def _page_url(request, page: int) -> str:
    """This list's URL on another page (the same parameters otherwise)."""
    query = [(k, v) for k, values in request.GET.lists() for v in values if k != "page"]
    query.append(("page", str(page)))
    return f"{site_url(request)}{request.path}?{urlencode(query)}"


def _by_ids(request, fmt, ids: list[int], *, one: bool = False):
    """Requests by their own ids, whatever their age (issue 29): a client
    following the reports it sent polls them by id, and no standard client sends
    an api_key on a GET. The 90-day window is the lists' (an explicit start_date
    reaches older reports too); by id or by date, a report shows only what the
    feed publishes. An api_key, if given, still counts when it is wrong."""
    try:
        keys.api_client_by_key(request)
    except keys.TooManyWrongKeys:
        return _too_many_wrong_keys(request, fmt)
    rows = selectors.open311_requests(ids=ids)
    if one and not rows:
        return error(fmt, 404, f"service_request_id {ids[0]} was not found.")
    return respond(fmt, "service_requests", documents.service_requests(rows))


@allow("GET")
def request_detail(request, pk, fmt):
    return _by_ids(request, fmt, [int(pk)], one=True)


@allow("GET")
def token(request, token, fmt):
    report = selectors.report_by_tracking_code(token)
    if report is None:
        return error(fmt, 404, "token was not found.")
    body = [{"service_request_id": str(report.pk), "token": report.tracking_code}]
    return respond(fmt, "service_requests", body)
