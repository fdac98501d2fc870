"""Read-mostly admin views of the field-work records (services do the writes)."""

from django.contrib import admin

from .models import (
    BMPRequirement,
    DischargeApproval,
    DyeTestNotice,
    Facility,
    Inspection,
    MonitoringEquipment,
    OutfallScreening,
    SpillNotification,
    WarrantApplication,
)


class ReadOnlyAdmin(admin.ModelAdmin):
    """Listed for lookup; changes go through the app's pages and services so the
    timeline and deadlines stay right."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Facility)
class FacilityAdmin(ReadOnlyAdmin):
    list_display = ("name", "permit_type", "permit_number", "permit_expires_on")
    search_fields = ("name", "permit_number")


@admin.register(Inspection)
class InspectionAdmin(ReadOnlyAdmin):
    list_display = ("pk", "kind", "premises", "officer", "scheduled_for", "status")
    list_filter = ("status", "kind", "access_outcome")


@admin.register(SpillNotification)
class SpillAdmin(ReadOnlyAdmin):
    list_display = ("pk", "material", "premises", "known_at", "hazardous", "status")


for model in (
    BMPRequirement,
    DischargeApproval,
    DyeTestNotice,
    MonitoringEquipment,
    OutfallScreening,
    WarrantApplication,
):
    admin.site.register(model, ReadOnlyAdmin)
