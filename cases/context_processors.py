from django.conf import settings

from .navigation import nav_for
from .roles import user_roles


def site(request):
    user = getattr(request, "user", None)
    return {
        "village": settings.VILLAGE,
        "nav": nav_for(user),
        "user_roles": user_roles(user) if user is not None else frozenset(),
    }
