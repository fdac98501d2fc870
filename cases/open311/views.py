"""GeoReport v2 endpoints. Thin: parse, call the reports service or selectors,
render with serializers. Every error is the spec's error body; never a 500 on
bad input. Only the POST of service requests is CSRF-exempt (API clients have no
session); everything else is read-only."""

from django.conf import settings
from django.utils import timezone
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET

from ..input_guard import ascii_digits
from ..models import ApiKey, PollutantCategory, Report
from ..reports import ratelimit, selectors
from ..reports.services import ReportRefused, report_submit
from . import documents
from .forms import Open311Invalid, parse_datetime_param, parse_request
from .serializers import error, respond

DEFAULT_WINDOW_DAYS = 90  # the spec's default: the last 90 days
MAX_RESULTS = 1000  # the spec's suggested maximum per response
# Date parameters: far beyond any report, and far from datetime's own limits (a
# window or a zone offset taken from year 1 or 9999 overflows).
FIRST_YEAR, LAST_YEAR = 1900, 2999


@require_GET
def discovery(request, fmt):
    return respond(fmt, "discovery", documents.discovery())


@require_GET
def services(request, fmt):
    return respond(fmt, "services", documents.services())


@require_GET
def service_definition(request, code, fmt):
    category = PollutantCategory.objects.filter(code=code, active=True).first()
    if category is None:
        return error(fmt, 404, f"service_code {code!r} was not found.")
    return respond(fmt, "service_definition", documents.definition(category))


@csrf_exempt
def requests(request, fmt):
    if request.method == "POST":
        return _post_request(request, fmt)
    if request.method in ("GET", "HEAD"):
        return _list_requests(request, fmt)
    return error(fmt, 405, "Use GET or POST.")


def _api_key(request) -> ApiKey | None:
    key = (request.POST.get("api_key") or request.GET.get("api_key") or "").strip()
    if not key:
        return None
    return ApiKey.objects.filter(key=key, active=True, revoked_at__isnull=True).first()


def _post_request(request, fmt):
    client = _api_key(request)
    if client is None:
        return error(fmt, 403, "api_key was not provided, is invalid or was revoked.")
    if not ratelimit.hit(ratelimit.OPEN311_POST, request):
        response = error(
            fmt,
            429,
            "Too many requests from this address; try again in "
            f"{ratelimit.OPEN311_POST.minutes} minutes.",
        )
        response["Retry-After"] = str(ratelimit.OPEN311_POST.seconds)
        return response
    try:
        parsed = parse_request(request.POST, request.FILES)
    except Open311Invalid as exc:
        return error(fmt, 400, *exc.messages)
    try:
        report = report_submit(
            channel=Report.Channel.OPEN311, api_client=client, **parsed
        )
    except ReportRefused as exc:
        return error(fmt, 400, str(exc))
    notice = (
        f"Received. Tracking code {report.tracking_code}: the resident can follow "
        f"it at {settings.VILLAGE['site_url']}/status/. {documents.hazard_notice()}"
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


def _split(raw: str) -> list[str]:
    return [part.strip() for part in raw.split(",") if part.strip()]


def _list_requests(request, fmt):
    params = request.GET
    ids_raw = _split(params.get("service_request_id", ""))
    if ids_raw:
        # The spec: with service_request_id, the other parameters are ignored.
        if not all(ascii_digits(i) for i in ids_raw):
            return error(
                fmt, 400, "service_request_id must be numbers, comma-separated."
            )
        ids = [int(i) for i in ids_raw[:MAX_RESULTS]]
        return _by_ids(request, fmt, ids)
    problems = []
    start = end = None
    for name in ("start_date", "end_date"):
        raw = params.get(name, "")
        if raw:
            value = parse_datetime_param(raw)
            if value is None:
                problems.append(f"{name} must be an ISO 8601 date and time with zone.")
            elif not FIRST_YEAR <= value.year <= LAST_YEAR:
                problems.append(
                    f"{name} must be between the years {FIRST_YEAR} and {LAST_YEAR}."
                )
            elif name == "start_date":
                start = value
            else:
                end = value
    statuses = _split(params.get("status", "").lower())
    if any(s not in ("open", "closed") for s in statuses):
        problems.append("status must be open, closed or open,closed.")
    codes = _split(params.get("service_code", ""))
    if problems:
        return error(fmt, 400, *problems)
    if start and end and start > end:
        return error(fmt, 400, "start_date is after end_date.")
    window = timezone.timedelta(days=DEFAULT_WINDOW_DAYS)
    if start is None and end is None:
        start = timezone.now() - window
    elif start is None:
        start = end - window
    rows = selectors.open311_requests(
        service_codes=codes,
        start=start,
        end=end,
        statuses=statuses,
        limit=MAX_RESULTS,
    )
    return respond(fmt, "service_requests", documents.service_requests(rows))


def _by_ids(request, fmt, ids: list[int], *, one: bool = False):
    """Requests by id, in the same window as the default list: reports received
    more than DEFAULT_WINDOW_DAYS ago are not found by id (ids are sequential, so
    anyone could read every report ever made), except by the client that sent
    them, with its api_key."""
    rows = selectors.open311_requests(
        ids=ids,
        received_since=timezone.now() - timezone.timedelta(days=DEFAULT_WINDOW_DAYS),
        own_client=_api_key(request),
    )
    if one and not rows:
        return error(fmt, 404, f"service_request_id {ids[0]} was not found.")
    return respond(fmt, "service_requests", documents.service_requests(rows))


@require_GET
def request_detail(request, pk, fmt):
    return _by_ids(request, fmt, [int(pk)], one=True)


@require_GET
def token(request, token, fmt):
    report = selectors.report_by_tracking_code(token)
    if report is None:
        return error(fmt, 404, "token was not found.")
    body = [{"service_request_id": str(report.pk), "token": report.tracking_code}]
    return respond(fmt, "service_requests", body)
