"""GeoReport v2 routes: every document in .json and .xml; anything else under
/open311/v2/ is the spec's 404 error (views.not_found), not Django's page."""

from django.urls import re_path

from . import views

app_name = "open311"

FMT = r"\.(?P<fmt>json|xml)$"

urlpatterns = [
    re_path(r"^discovery" + FMT, views.discovery, name="discovery"),
    re_path(r"^services" + FMT, views.services, name="services"),
    re_path(
        r"^services/(?P<code>[-\w]{1,40})" + FMT,
        views.service_definition,
        name="service_definition",
    ),
    re_path(r"^requests" + FMT, views.requests, name="requests"),
    re_path(r"^requests/(?P<pk>\d{1,12})" + FMT, views.request_detail, name="request"),
    re_path(r"^tokens/(?P<token>[-\w]{1,40})" + FMT, views.token, name="token"),
    re_path(r"^(?P<path>.*)$", views.not_found, name="not_found"),
]
