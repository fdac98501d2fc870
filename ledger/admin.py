"""The ledger in the Django admin: read only (the services are the only writers,
and a payment is voided, never deleted)."""

from django.contrib import admin

from .models import Charge, Payment


class ReadOnly(admin.ModelAdmin):
    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Charge)
class ChargeAdmin(ReadOnly):
    list_display = ("reference", "kind", "case", "payer", "amount", "issued_on")
    list_filter = ("kind",)
    search_fields = ("reference", "case__number", "payer__name")


@admin.register(Payment)
class PaymentAdmin(ReadOnly):
    list_display = ("receipt_number", "charge", "received_on", "amount", "method")
    search_fields = ("receipt_number", "charge__reference")
