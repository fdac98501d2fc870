"""Staff pages for reports, mounted at /staff/reports/ (namespace "reports")."""

from django.urls import path

from jobs.exports import export_paths

from ..views import reports

app_name = "reports"

urlpatterns = [
    path("", reports.staff_report_list, name="list"),
    *export_paths("export", reports.staff_report_export, "export"),
    path("new/", reports.staff_report_new, name="new"),
    path("<int:pk>/", reports.staff_report_detail, name="detail"),
    path("photos/<int:pk>/", reports.photo_display, name="photo"),
    path("photos/<int:pk>/original/", reports.photo_original, name="photo_original"),
]
