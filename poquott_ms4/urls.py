from django.contrib import admin
from django.urls import include, path

from cases.views.auth import (
    StaffLoginView,
    ThrottledAdminAuthenticationForm,
    ThrottledPasswordResetView,
)
from intake.views import public
from operations import health

# /admin/login/ takes the staff sign-in's failed sign-in cool-off (limits.throttle).
admin.site.login_form = ThrottledAdminAuthenticationForm

urlpatterns = [
    path("", include("intake.urls_public")),
    path("staff/reports/", include("cases.urls_reports")),
    path("staff/documents/", include("documents.urls")),
    path("staff/outbox/", include("outbox.urls")),
    path("staff/annual/", include("reporting.annual.urls")),
    path("annual-report/", include("reporting.annual.urls_public")),
    path("staff/map/", include("reporting.map.urls")),
    path("staff/exports/", include("jobs.urls")),
    path("map/", include("reporting.map.urls_public")),
    path("respond/appeal/", include("portal.appeal_urls")),
    path("respond/", include("portal.urls")),
    path("staff/", include("portal.staff_urls")),
    path("staff/", include("cases.urls")),
    path("open311/v2/", include("intake.open311.urls")),
    path("inspections/", include("inspections.urls")),
    path("enforcement/", include("enforcement.urls")),
    path("staff/ledger/", include("ledger.urls")),
    path("staff/fieldwork/", include("fieldwork.urls")),
    path("", include("deadlines.urls")),
    path("accounts/login/", StaffLoginView.as_view(), name="login"),
    path(
        "accounts/password_reset/",
        ThrottledPasswordResetView.as_view(),
        name="password_reset",
    ),
    path("accounts/", include("django.contrib.auth.urls")),
    path("admin/", admin.site.urls),
    path("healthz", health.healthz, name="healthz"),
    path("favicon.ico", public.favicon, name="favicon"),
    path(".well-known/security.txt", public.security_txt, name="security_txt"),
]
