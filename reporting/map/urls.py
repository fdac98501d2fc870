"""The staff map, mounted at /staff/map/ (namespace "map")."""

from django.urls import path

from . import views

app_name = "map"

urlpatterns = [
    path("", views.staff_map, name="staff"),
    path("points.geojson", views.points, name="points"),
]
