"""Admin for deadlines: office closures (SMO staff; adding or removing one goes
through the services, so open deadlines are recomputed), deadlines and reminders
read-only (they change only through deadlines.services)."""

from django.contrib import admin

from kernel.admin import ReadOnlyAdmin
from kernel.roles import Role, has_role

from . import services
from .models import Deadline, OfficeClosure, Reminder


@admin.register(OfficeClosure)
class OfficeClosureAdmin(admin.ModelAdmin):
    list_display = ("day", "reason", "created_by")
    fields = ("day", "reason")
    actions = None  # no bulk delete: each removal recomputes deadlines

    def get_readonly_fields(self, request, obj=None):
        # Moving a closure is a removal and an addition: do it as two steps.
        return ("day",) if obj is not None else ()

    def has_add_permission(self, request):
        return has_role(request.user, Role.SMO)

    def has_change_permission(self, request, obj=None):
        return has_role(request.user, Role.SMO)

    def has_delete_permission(self, request, obj=None):
        return has_role(request.user, Role.SMO)

    def save_model(self, request, obj, form, change):
        if change:
            obj.save(update_fields=["reason"])
            return
        created = services.add_office_closure(
            day=obj.day, reason=obj.reason, actor=request.user
        )
        obj.pk = created.pk

    def delete_model(self, request, obj):
        services.remove_office_closure(closure=obj, actor=request.user)


@admin.register(Deadline)
class DeadlineAdmin(ReadOnlyAdmin):
    list_display = ("rule_id", "label", "case", "due_date", "status", "responsible")
    list_filter = ("status", "responsible", "rule_id")
    search_fields = ("rule_id", "label", "case__number")
    date_hierarchy = "due_date"


@admin.register(Reminder)
class ReminderAdmin(ReadOnlyAdmin):
    list_display = ("deadline", "kind", "recipient", "created_at", "sent_at")
    list_filter = ("kind",)
    search_fields = ("recipient", "deadline__rule_id", "deadline__case__number")
