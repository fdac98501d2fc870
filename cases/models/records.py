"""Notes, attachments and parties' roles on a case."""

from django.conf import settings
from django.db import models
from django.utils import timezone

from .premises import Party


class EventKind(models.TextChoices):
    """The kinds of chronology entry cases writes (kernel.models.event_kinds;
    registered by CasesConfig.ready())."""

    OPENED = "opened", "Case opened"
    REPORT = "report", "Report"
    NOTE = "note", "Note"
    ATTACHMENT = "attachment", "Attachment"
    PARTY = "party", "Party"
    EDIT = "edit", "Case details changed"
    MERGE = "merge", "Merge"


def private_upload_path(instance, filename):
    # Never the user's filename: a random name under a private folder.
    import uuid

    return f"private/{instance._meta.model_name}/{uuid.uuid4().hex}"


class CaseParty(models.Model):
    """A party's role in a case: owner, operator or agent (§ 132-3 PERSON)."""

    class Role(models.TextChoices):
        OWNER = "owner", "Owner"
        OPERATOR = "operator", "Operator"
        AGENT = "agent", "Owner's agent"
        TENANT = "tenant", "Tenant / occupant"
        OTHER = "other", "Other"

    case = models.ForeignKey(
        "cases.Case", on_delete=models.CASCADE, related_name="case_parties"
    )
    party = models.ForeignKey(
        Party, on_delete=models.PROTECT, related_name="case_roles"
    )
    role = models.CharField(max_length=12, choices=Role.choices)
    added_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["case", "party", "role"], name="case_party_role_unique"
            )
        ]

    def __str__(self):
        return f"{self.party} ({self.get_role_display()})"


class Note(models.Model):
    case = models.ForeignKey(
        "cases.Case", on_delete=models.PROTECT, related_name="notes"
    )
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    text = models.TextField()
    public = models.BooleanField(
        default=False, help_text="Share with the resident on the public status page."
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["created_at"]

    def __str__(self):
        return self.text[:60]


class Attachment(models.Model):
    """A file kept as evidence: stored under a random private name, served only
    through a view that checks the reader's role, with its SHA-256."""

    case = models.ForeignKey(
        "cases.Case", on_delete=models.PROTECT, related_name="attachments"
    )
    file = models.FileField(upload_to=private_upload_path)
    original_name = models.CharField(max_length=200)
    content_type = models.CharField(max_length=100)
    size = models.PositiveIntegerField()
    sha256 = models.CharField(max_length=64)
    description = models.CharField(max_length=200, blank=True)
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    uploaded_at = models.DateTimeField(default=timezone.now)

    def __str__(self):
        return self.original_name
