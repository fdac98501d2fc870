from django.urls import path

from jobs.exports import export_paths

from . import views

app_name = "deadlines"

urlpatterns = [
    path("deadlines/calculator/", views.calculator, name="calculator"),
    path("api/deadlines/compute", views.api_compute, name="api_compute"),
    path("deadlines/ical/<str:token>.ics", views.ical_feed, name="ical"),
    path("staff/deadlines/", views.deadline_list, name="list"),
    *export_paths("staff/deadlines/export", views.deadline_export, "export"),
    path("staff/deadlines/<int:pk>/", views.deadline_detail, name="detail"),
    path("staff/deadlines/<int:pk>/met/", views.deadline_meet, name="meet"),
    path("staff/deadlines/<int:pk>/waive/", views.deadline_waive, name="waive"),
    path("staff/deadlines/reminders/", views.reminders_sent, name="reminders"),
    path("staff/deadlines/closures/", views.closures, name="closures"),
    path(
        "staff/deadlines/closures/<int:pk>/remove/",
        views.closure_remove,
        name="closure_remove",
    ),
    path("staff/deadlines/calendar-feed/", views.feed_settings, name="feed_settings"),
]
