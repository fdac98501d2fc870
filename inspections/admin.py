"""Read-mostly admin views of the field-work records (services do the writes)."""

from django.contrib import admin

from kernel.admin import ReadOnlyAdmin

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
