from django.conf import settings

from .navigation import nav_for


def site(request):
    """What every page may show: the village and the menu for this user. Never
    the user's role names: a page asks the view for what the user may do."""
    user = getattr(request, "user", None)
    return {
        "village": settings.VILLAGE,
        "nav": nav_for(user),
    }
