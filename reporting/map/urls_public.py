"""The public map of reports, mounted at /map/ (namespace "public_map")."""

from django.urls import path

from . import views

app_name = "public_map"

urlpatterns = [
    path("", views.public_map, name="page"),
    path("reports.geojson", views.public_reports, name="reports"),
]
