"""Django admin for the case side (the pollutant and exempt categories are
intake's: intake.admin). Citations are edited here by staff; the timeline is read-only; a case's status is
never edited here (it is a protected FSM field changed only by services)."""

from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from .models import Attachment, Case, CaseParty, Note, Outfall, Party, Premises


class CasePartyInline(admin.TabularInline):
    model = CaseParty
    extra = 0
    autocomplete_fields = ["party"]


@admin.register(Case)
class CaseAdmin(SimpleHistoryAdmin):
    list_display = [
        "number",
        "status",
        "kind",
        "premises",
        "assigned_officer",
        "opened_at",
    ]
    list_filter = ["status", "kind", "source"]
    search_fields = [
        "number",
        "summary",
        "premises__address",
        "premises__tax_map_number",
    ]
    readonly_fields = ["number", "status", "version", "opened_at", "closed_at"]
    autocomplete_fields = ["premises", "responsible_party", "merged_into"]
    inlines = [CasePartyInline]

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Premises)
class PremisesAdmin(SimpleHistoryAdmin):
    list_display = ["address", "tax_map_number", "land_use"]
    search_fields = ["address", "tax_map_number"]
    list_filter = ["land_use"]


@admin.register(Party)
class PartyAdmin(SimpleHistoryAdmin):
    list_display = ["name", "kind", "contact_person", "phone", "email"]
    search_fields = ["name", "contact_person", "email"]


@admin.register(Outfall)
class OutfallAdmin(SimpleHistoryAdmin):
    list_display = ["code", "receiving_water", "is_303d_listed", "has_tmdl", "active"]
    search_fields = ["code", "receiving_water", "location_description"]


@admin.register(Note)
class NoteAdmin(admin.ModelAdmin):
    list_display = ["case", "created_at", "author", "public"]
    readonly_fields = ["case", "author", "created_at"]

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Attachment)
class AttachmentAdmin(admin.ModelAdmin):
    list_display = ["case", "original_name", "size", "sha256", "uploaded_at"]
    readonly_fields = [
        "case",
        "file",
        "original_name",
        "content_type",
        "size",
        "sha256",
        "uploaded_by",
        "uploaded_at",
    ]

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
