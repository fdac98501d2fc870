"""Admin for reports, their photos (originals read-only, downloaded through the
SMO-only view), Open311 API keys (one per client, revocable) and the reference
data staff edit: pollutant and exempt categories."""

from django.contrib import admin, messages
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html

from kernel.citations import cite

from .models import (
    ApiKey,
    ExemptCategory,
    PollutantCategory,
    Report,
    ReportNotification,
    ReportPhoto,
)
from .open311.keys import api_key_generate


class ReportPhotoInline(admin.TabularInline):
    model = ReportPhoto
    extra = 0
    can_delete = False
    fields = ["view_links", "original_name", "original_sha256", "width", "height"]
    readonly_fields = fields

    def has_add_permission(self, request, obj=None):
        return False

    @admin.display(description="Files")
    def view_links(self, photo):
        return _photo_links(photo)


def _photo_links(photo):
    return format_html(
        '<a href="{}">display copy</a> · <a href="{}">original</a>',
        reverse("reports:photo", args=[photo.pk]),
        reverse("reports:photo_original", args=[photo.pk]),
    )


@admin.register(Report)
class ReportAdmin(admin.ModelAdmin):
    list_display = ["tracking_code", "received_at", "channel", "address", "case"]
    list_filter = ["channel", ("case", admin.EmptyFieldListFilter)]
    search_fields = ["tracking_code", "address", "description"]
    date_hierarchy = "received_at"
    inlines = [ReportPhotoInline]
    readonly_fields = [
        "tracking_code",
        "channel",
        "received_at",
        "entered_by",
        "api_client",
        "service_code",
        "media_url",
    ]
    raw_id_fields = ["case"]

    def has_delete_permission(self, request, obj=None):
        return False  # reports are records of the village

    def has_add_permission(self, request):
        return False  # through the form, staff entry or Open311


@admin.register(ReportPhoto)
class ReportPhotoAdmin(admin.ModelAdmin):
    list_display = ["pk", "report", "original_name", "uploaded_at"]
    fields = [
        "report",
        "files",
        "original_name",
        "original_sha256",
        "width",
        "height",
        "uploaded_at",
    ]
    readonly_fields = fields

    @admin.display(description="Files")
    def files(self, photo):
        return _photo_links(photo)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(ReportNotification)
class ReportNotificationAdmin(admin.ModelAdmin):
    list_display = ["report", "status", "sent_at"]
    readonly_fields = ["report", "status", "sent_at"]

    def has_add_permission(self, request):
        return False


@admin.register(ApiKey)
class ApiKeyAdmin(admin.ModelAdmin):
    """Adding a client generates its key (intake.open311.keys) and shows it once,
    in the message after saving; only its hash and first characters are kept."""

    list_display = [
        "client_name",
        "key_prefix",
        "contact_email",
        "reports_per_hour",
        "active",
        "created_at",
        "revoked_at",
    ]
    list_filter = ["active"]
    readonly_fields = ["key_prefix", "created_at", "revoked_at"]
    fields = [
        "client_name",
        "contact_email",
        "key_prefix",
        "reports_per_hour",
        "active",
        "created_at",
        "revoked_at",
    ]
    actions = ["revoke"]

    def save_model(self, request, obj, form, change):
        raw = None
        if not change:
            raw = api_key_generate()
            obj.set_key(raw)
        if change and "active" in form.changed_data and not obj.active:
            obj.revoked_at = timezone.now()
        super().save_model(request, obj, form, change)
        if raw is not None:
            messages.warning(
                request,
                f"The key for {obj.client_name} is {raw} — copy it now and give it "
                "to the client: it is shown this once and cannot be looked up "
                "again (a lost key is replaced by adding the client again and "
                "revoking the old key).",
            )

    @admin.action(description="Revoke the selected keys")
    def revoke(self, request, queryset):
        count = queryset.filter(active=True).update(
            active=False, revoked_at=timezone.now()
        )
        self.message_user(request, f"{count} key(s) revoked.")

    def has_delete_permission(self, request, obj=None):
        return False  # revoke instead: reports keep pointing at their client


@admin.register(PollutantCategory)
class PollutantCategoryAdmin(admin.ModelAdmin):
    list_display = ["name", "code", "hazardous", "active", "sort_order"]
    list_editable = ["active", "sort_order"]

    def get_form(self, request, obj=None, **kwargs):
        kwargs.setdefault("help_texts", {})["hazardous"] = cite(
            "R-DEF-1",
            "A hazardous material ({section}): the form repeats the 911 warning.",
        )
        return super().get_form(request, obj, **kwargs)


@admin.register(ExemptCategory)
class ExemptCategoryAdmin(admin.ModelAdmin):
    """§ 132-6 A(1) (R-PRO-2): marking a category a substantial contributor ends
    its exemption."""

    list_display = ["name", "substantial_contributor", "determined_by", "determined_on"]
    list_editable = ["substantial_contributor"]
