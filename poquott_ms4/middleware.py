"""The site's edge: what it believes of the proxies in front of it, and what it
lets caches between it and the browser keep.

First in MIDDLEWARE, so that on the way in nothing else (SecurityMiddleware's
HTTPS redirect above all) sees a forwarded header the site does not trust, and
on the way out every response passes through it."""

import logging

from django.db import InterfaceError, OperationalError
from django.http import HttpResponse
from django.template import loader
from django.utils.cache import patch_cache_control

from limits.throttle import is_trusted_proxy

logger = logging.getLogger(__name__)

# Pages with personal data (parties, addresses, evidence, notices) or sign-in
# forms. Public pages (home, report form, status, the deadline calculator) keep
# their own caching unless a member of staff is signed in.
PRIVATE_PREFIXES = (
    "/staff/",
    "/admin/",
    "/enforcement/",
    "/inspections/",
    "/accounts/",
    "/deadlines/ical/",  # a member of staff's deadlines, by a secret token
)

# Set by proxies; from anyone else they are whatever the visitor typed.
# X-Forwarded-Proto is what SECURE_PROXY_SSL_HEADER reads (production settings);
# gunicorn passes it on even from an address --forwarded-allow-ips does not
# trust (it only declines to act on it itself).
FORWARDED_PREFIX = "HTTP_X_FORWARDED_"
FORWARDED = "HTTP_FORWARDED"


class EdgeMiddleware:
    """On the way in: drop X-Forwarded-* and Forwarded unless the request came
    from one of settings.TRUSTED_PROXIES, so X-Forwarded-Proto cannot make a
    plain-HTTP request look secure, nor X-Forwarded-For choose a limit bucket.

    On the way out: `Cache-Control: private, no-store` on every response to a
    signed-in user (only staff have accounts) and on everything under
    PRIVATE_PREFIXES, so neither a shared proxy nor the browser's disk keeps a
    page with personal data."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if not is_trusted_proxy(request.META.get("REMOTE_ADDR", "")):
            for name in [n for n in request.META if self._is_forwarded(n)]:
                del request.META[name]
        response = self.get_response(request)
        if self._is_private(request):
            patch_cache_control(response, private=True, no_store=True)
        return response

    @staticmethod
    def _is_forwarded(name: str) -> bool:
        return name.startswith(FORWARDED_PREFIX) or name == FORWARDED

    @staticmethod
    def _is_private(request) -> bool:
        if request.path_info.startswith(PRIVATE_PREFIXES):
            return True
        # Absent when a middleware below this one answered before
        # AuthenticationMiddleware ran (a redirect to HTTPS, say).
        user = getattr(request, "user", None)
        return bool(user is not None and user.is_authenticated)


# --- cross-origin reads of the public data (issue 29) --------------------------------
# The public read endpoints a web page elsewhere (a county 311 app, a GIS viewer,
# a newspaper's map) may fetch: the Open311 GETs, the public reports GeoJSON and
# the published annual report's PDF. Only GET and HEAD, never with credentials
# (`*`), and never a staff URL or a POST: Open311's POST shares its URL with the
# GET list, so the header goes on GET responses only and a preflight offers GET.
PUBLIC_READ_VIEWS = frozenset(
    {
        "open311:discovery",
        "open311:services",
        "open311:service_definition",
        "open311:requests",
        "open311:request",
        "open311:token",
        "public_map:reports",
        "public_annual:pdf",
    }
)
READ_METHODS = ("GET", "HEAD")


def is_public_read(request) -> bool:
    match = getattr(request, "resolver_match", None)
    return match is not None and match.view_name in PUBLIC_READ_VIEWS


class PublicReadCorsMiddleware:
    """`Access-Control-Allow-Origin: *` on GETs of PUBLIC_READ_VIEWS, and their
    preflight (OPTIONS) answered 204 for GET only."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if request.method in READ_METHODS and is_public_read(request):
            response["Access-Control-Allow-Origin"] = "*"
        return response

    def process_view(self, request, view_func, view_args, view_kwargs):
        if request.method != "OPTIONS" or not is_public_read(request):
            return None
        response = HttpResponse(status=204)
        response["Allow"] = "GET, HEAD, OPTIONS"
        response["Access-Control-Allow-Origin"] = "*"
        response["Access-Control-Allow-Methods"] = "GET, HEAD"
        response["Access-Control-Allow-Headers"] = "Accept"
        response["Access-Control-Max-Age"] = "86400"
        return response


class DatabaseUnavailableMiddleware:
    """The database did not answer (stopped, restarting, its connection gone):
    503 with Retry-After and a page that says plainly that what was sent was
    not saved, instead of the server-error page (issue 31). The page is
    rendered without a request, as the 500 page is: nothing on it needs the
    database. Last in MIDDLEWARE, so it sees the views' exceptions first."""

    RETRY_AFTER_SECONDS = 60

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not isinstance(exception, OperationalError | InterfaceError):
            return None
        logger.error(
            "Database unavailable answering %s %s: %s",
            request.method,
            request.path,
            exception,
        )
        response = HttpResponse(loader.render_to_string("503.html"), status=503)
        response["Retry-After"] = str(self.RETRY_AFTER_SECONDS)
        return response
