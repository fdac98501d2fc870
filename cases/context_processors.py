from django.conf import settings

from kernel.site_url import site_url

from .navigation import nav_for


def site(request):
    """What every page may show: the village and the menu for this user. Never
    the user's role names: a page asks the view for what the user may do."""
    user = getattr(request, "user", None)
    return {
        "village": settings.VILLAGE,
        # The site's address as this page was asked for (kernel.site_url).
        "site_url": site_url(request),
        "nav": nav_for(user),
    }
