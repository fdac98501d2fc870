"""The kernel's records in the admin: the chronology (read-only), the SMO's
written delegations and the citation table."""

from django.contrib import admin

from .models import CaseEvent, Citation, Delegation


class ReadOnlyAdmin(admin.ModelAdmin):
    """Listed for lookup only, in every app's admin: the records change through
    their pages and services, so the chronology and the clocks stay right."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(CaseEvent)
class CaseEventAdmin(ReadOnlyAdmin):
    """The chronology, read-only: append-only in the model and in the database."""

    list_display = ["at", "case", "kind", "summary", "actor", "rule_id"]
    list_filter = ["kind"]
    search_fields = ["case__number", "summary"]
    list_select_related = ["case", "actor"]


@admin.register(Delegation)
class DelegationAdmin(admin.ModelAdmin):
    """Written delegations of the SMO's powers (R-ADM-1)."""

    list_display = ["delegate", "starts_on", "ends_on", "instrument", "granted_by"]


@admin.register(Citation)
class CitationAdmin(admin.ModelAdmin):
    list_display = ["rule_id", "section", "heading"]
    search_fields = ["rule_id", "section", "heading"]
