"""The respondent's session: after the code, a signed session for that one case
(Django's session, its key cycled), ended after PORTAL_SESSION_SECONDS idle, or
at once when the SMO revokes the code."""

from functools import wraps

from django.conf import settings
from django.contrib import messages
from django.shortcuts import redirect

from .models import PortalAccess

SESSION_KEY = "respondent_access"


def open_session(request, access: PortalAccess) -> None:
    request.session.cycle_key()
    request.session[SESSION_KEY] = access.pk
    if not request.user.is_authenticated:
        request.session.set_expiry(settings.PORTAL_SESSION_SECONDS)


def close_session(request) -> None:
    request.session.pop(SESSION_KEY, None)


def current_access(request) -> PortalAccess | None:
    pk = request.session.get(SESSION_KEY)
    if not pk:
        return None
    return (
        PortalAccess.objects.select_related("case", "case__premises", "party")
        .filter(pk=pk, revoked_at__isnull=True)
        .first()
    )


def respondent_required(view):
    """The view runs with `request.portal` (the live access of the session), or
    the visitor is sent to enter the code again."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        access = current_access(request)
        if access is None:
            if request.session.get(SESSION_KEY):
                close_session(request)
                messages.info(request, "Your session has ended; enter the code again.")
            return redirect("portal:enter")
        request.portal = access
        return view(request, *args, **kwargs)

    return wrapper
