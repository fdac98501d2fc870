"""The site's absolute address, for what is read outside the site: Open311
documents, calendar feeds, e-mail links.

settings.SITE_URL when it is set (production sets it: the public name behind
the proxy). Unset, a request names the host it was asked on
(request.build_absolute_uri, whose get_host() refuses a host not in
ALLOWED_HOSTS), so `make run` with PORT=8123 advertises 127.0.0.1:8123; without
a request (the worker's e-mails) it is settings.SITE_URL's default,
http://127.0.0.1:$PORT."""

from urllib.parse import urljoin

from django.conf import settings
from django.core.exceptions import DisallowedHost


def site_url(request=None) -> str:
    """The site's address without a trailing slash, e.g. http://127.0.0.1:8123.
    A host ALLOWED_HOSTS refuses is never named (the middleware has answered
    400 already; its error page gets settings.SITE_URL)."""
    if request is not None and not getattr(settings, "SITE_URL_SET", True):
        try:
            return request.build_absolute_uri("/").rstrip("/")
        except DisallowedHost:
            pass
    return settings.SITE_URL.rstrip("/")


def absolute_url(url: str, base: str | None = None) -> str:
    """``url`` on the site if it is a path; unchanged if it is already
    absolute. `base`: the site's address (site_url(request)); without it
    settings.SITE_URL."""
    return urljoin((base or site_url()).rstrip("/") + "/", url)
