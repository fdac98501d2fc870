"""The site's URLs plus the framework's floor: a bare view that renders nothing
and queries nothing, measured through the same middleware stack."""

from django.http import HttpResponse
from django.urls import path

from poquott_ms4.urls import urlpatterns as site_patterns


def bare(request):
    return HttpResponse("ok", content_type="text/plain")


urlpatterns = [path("__bench__/bare", bare, name="bench_bare"), *site_patterns]
