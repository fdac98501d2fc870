from django.urls import path

from .views import public, reports

app_name = "public"

urlpatterns = [
    path("", public.home, name="home"),
    path("privacy/", public.privacy, name="privacy"),
    path("report/", reports.report_new, name="report"),
    path("report/done/", reports.report_done, name="report_done"),
    path("report/sw.js", reports.report_service_worker, name="report_sw"),
    path("status/", reports.status, name="status"),
]
