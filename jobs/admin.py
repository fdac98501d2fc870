"""The administrator's view of background jobs: who asked for what, its state
and its error. Jobs are made by the staff pages and the worker only; the
administrator may delete one (its file goes with it), never change it."""

from django.contrib import admin

from .models import Job


@admin.register(Job)
class JobAdmin(admin.ModelAdmin):
    list_display = (
        "title",
        "owner",
        "kind",
        "state",
        "rows_done",
        "rows_total",
        "created_at",
        "finished_at",
        "expires_at",
    )
    list_filter = ("state", "kind")
    search_fields = ("title", "owner__username", "kind")
    date_hierarchy = "created_at"

    def get_readonly_fields(self, request, obj=None):
        return [f.name for f in self.model._meta.fields]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def delete_model(self, request, obj):
        if obj.file:
            obj.file.delete(save=False)
        super().delete_model(request, obj)

    def delete_queryset(self, request, queryset):
        for job in queryset:
            if job.file:
                job.file.delete(save=False)
        super().delete_queryset(request, queryset)
