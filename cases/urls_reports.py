"""Staff pages for reports, mounted at /staff/reports/ (namespace "reports"):
intake's pages, and the report's own page, which is triage's (it offers the
closing forms)."""

from django.urls import path

from intake.views import reports
from jobs.exports import export_paths

from .views import triage

app_name = "reports"

urlpatterns = [
    path("", reports.staff_report_list, name="list"),
    *export_paths("export", reports.staff_report_export, "export"),
    path("new/", reports.staff_report_new, name="new"),
    path("<int:pk>/", triage.report_detail, name="detail"),
    path("photos/<int:pk>/", reports.photo_display, name="photo"),
    path("photos/<int:pk>/original/", reports.photo_original, name="photo_original"),
]
