"""The public pages: home, privacy notice, security.txt."""

from django.http import HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_GET

from kernel.site_url import site_url

from ..models import ExemptCategory, PollutantCategory


@require_GET
def home(request):
    return render(
        request,
        "public/home.html",
        {
            "exempt_categories": ExemptCategory.objects.filter(
                substantial_contributor=False
            ),
            "pollutant_categories": PollutantCategory.objects.filter(active=True),
        },
    )


@require_GET
def privacy(request):
    return render(request, "public/privacy.html")


@require_GET
def favicon(request):
    """Browsers ask for /favicon.ico whatever the page links: send them to the
    static file (not permanent: its hashed name changes with the icon)."""
    from django.shortcuts import redirect
    from django.templatetags.static import static

    return redirect(static("favicon.ico"))


@require_GET
def security_txt(request):
    from django.conf import settings

    expires = (timezone.now() + timezone.timedelta(days=365)).replace(microsecond=0)
    body = (
        f"Contact: mailto:{settings.VILLAGE['smo_email']}\n"
        f"Expires: {expires.isoformat()}\n"
        "Preferred-Languages: en\n"
        f"Canonical: {site_url(request)}/.well-known/security.txt\n"
    )
    return HttpResponse(body, content_type="text/plain; charset=utf-8")
