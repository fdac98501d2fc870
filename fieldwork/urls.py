from django.urls import path

from . import views

app_name = "fieldwork"

urlpatterns = [
    path("", views.page, name="page"),
    path("sw.js", views.service_worker, name="service_worker"),
    path("day.json", views.day, name="day"),
    path("records/", views.receive, name="receive"),
    path("records/<str:key>/photos/", views.receive_photo, name="receive_photo"),
    path("photos/<int:pk>/", views.photo, name="photo"),
    path("kept/", views.kept, name="kept"),
    path("kept/<int:pk>/apply/", views.apply, name="apply"),
    path("kept/<int:pk>/set-aside/", views.set_aside, name="set_aside"),
]
