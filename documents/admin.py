"""Read-only admin of issued documents: they are changed by no one."""

from django.contrib import admin

from .models import IssuedDocument


@admin.register(IssuedDocument)
class IssuedDocumentAdmin(admin.ModelAdmin):
    list_display = (
        "__str__",
        "case",
        "kind",
        "version",
        "status",
        "issued_by",
        "issued_at",
    )
    list_filter = ("kind", "status", "pdfa")
    search_fields = ("document_number", "case__number", "sha256")
    exclude = ("html",)

    def get_readonly_fields(self, request, obj=None):
        return [f.name for f in self.model._meta.fields if f.name != "html"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
