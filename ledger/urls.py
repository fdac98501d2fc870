from django.urls import path

from cases.exports import export_paths

from . import views

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
    path("treasurer/", views.treasurer_report, name="treasurer"),
    *export_paths("treasurer/payments", views.payments_export, "payments"),
]
