"""The site's edge: what it lets caches between it and the browser keep.

First in MIDDLEWARE, so that every response passes through it on the way out."""

from django.utils.cache import patch_cache_control

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


class EdgeMiddleware:
    """`Cache-Control: private, no-store` on every response to a signed-in user
    (only staff have accounts) and on everything under PRIVATE_PREFIXES, so
    neither a shared proxy nor the browser's disk keeps a page with personal
    data."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if self._is_private(request):
            patch_cache_control(response, private=True, no_store=True)
        return response

    @staticmethod
    def _is_private(request) -> bool:
        if request.path_info.startswith(PRIVATE_PREFIXES):
            return True
        # Absent when a middleware below this one answered before
        # AuthenticationMiddleware ran (a redirect to HTTPS, say).
        user = getattr(request, "user", None)
        return bool(user is not None and user.is_authenticated)
