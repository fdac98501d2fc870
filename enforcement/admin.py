"""Admin: enforcement records are read here; their workflows run through the
screens (services), so status is never edited in the admin."""

from django.contrib import admin

from . import models


class ReadOnlyStatus(admin.ModelAdmin):
    readonly_fields = ("status",)
    list_display = ("__str__", "status")
    list_filter = ("status",)

    def has_delete_permission(self, request, obj=None):
        return False


for model in (
    models.NoticeOfViolation,
    models.Appeal,
    models.CorrectiveAction,
    models.NuisanceAbatement,
    models.InjunctionReferral,
    models.AccessSuspension,
    models.AccessTermination,
    models.AlternativeRemedy,
):
    admin.site.register(model, ReadOnlyStatus)


@admin.register(models.OffenseRecord)
class OffenseRecordAdmin(admin.ModelAdmin):
    list_display = ("party", "committed_on", "outcome", "case")
    list_filter = ("outcome",)
    search_fields = ("party__name", "description")

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(models.BoardMeeting)
class BoardMeetingAdmin(admin.ModelAdmin):
    list_display = ("date", "time", "place")
    date_hierarchy = "date"

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(models.HearingNoticeService)
class HearingNoticeServiceAdmin(admin.ModelAdmin):
    list_display = ("appeal", "sent_to", "method", "served_on", "article_number")
    readonly_fields = ("appeal", "document")

    def has_delete_permission(self, request, obj=None):
        return False
