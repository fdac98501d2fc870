from django.urls import path

from jobs.exports import export_paths

from . import court_views, views

app_name = "ledger"

urlpatterns = [
    path("", views.ledger_list, name="list"),
    *export_paths("export", views.ledger_export, "export"),
    path("charges/<int:pk>/", views.charge_detail, name="charge_detail"),
    path("charges/<int:pk>/pay/", views.payment_record, name="payment_record"),
    path(
        "charges/<int:pk>/write-off/",
        views.charge_write_off,
        name="charge_write_off",
    ),
    path("payments/<int:pk>/void/", views.payment_void, name="payment_void"),
    path("charges/<int:pk>/refer/", court_views.charge_refer, name="charge_refer"),
    path("court/<int:pk>/", court_views.referral_detail, name="referral_detail"),
    path(
        "court/<int:pk>/disposition/",
        court_views.referral_disposition,
        name="referral_disposition",
    ),
    path("court/<int:pk>/packet/", court_views.referral_packet, name="packet"),
    path("treasurer/", views.treasurer_report, name="treasurer"),
    *export_paths("treasurer/payments", views.payments_export, "payments"),
]
