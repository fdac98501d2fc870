"""Notes, attachments, parties' roles on a case, and written delegations."""

from django.conf import settings
from django.db import models
from django.utils import timezone

from ..humanize import human_short_date
from .premises import Party


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


class Delegation(models.Model):
    """A written delegation of the SMO's powers (§ 132-5, R-ADM-1): who, which
    powers, from when to when, the instrument, granted by whom. While in force,
    its delegate acts as the SMO (cases.roles.acting_delegation), and every
    chronology entry of theirs says so. Ended early: `ends_on` moved to the day
    it ends, with who ended it and when."""

    class State(models.TextChoices):
        CURRENT = "current", "In force"
        FUTURE = "future", "Not yet in force"
        ENDED = "ended", "Ended"

    delegate = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="delegations"
    )
    powers = models.TextField(help_text="Which powers or duties are delegated.")
    starts_on = models.DateField()
    ends_on = models.DateField(null=True, blank=True)
    instrument = models.CharField(
        max_length=200,
        help_text="The written instrument (letter, resolution) and its date.",
    )
    granted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    ended_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="Who ended the delegation before its end date.",
    )
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-starts_on"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(ends_on__isnull=True)
                | models.Q(ends_on__gte=models.F("starts_on")),
                name="delegation_ends_on_or_after_its_start",
            )
        ]

    def __str__(self):
        return f"{self.delegate} from {human_short_date(self.starts_on)}"

    @classmethod
    def in_force(cls, day):
        """The delegations in force on `day`."""
        return cls.objects.filter(starts_on__lte=day).filter(
            models.Q(ends_on__isnull=True) | models.Q(ends_on__gte=day)
        )

    def in_force_on(self, day) -> bool:
        return self.starts_on <= day and (self.ends_on is None or day <= self.ends_on)

    def state_on(self, day) -> str:
        if self.in_force_on(day):
            return self.State.CURRENT
        return self.State.FUTURE if day < self.starts_on else self.State.ENDED

    def acting_words(self) -> str:
        """How the chronology says an act was done under this delegation."""
        from ..humanize import human_date

        return (
            f"acting for the SMO under the delegation of "
            f"{human_date(self.starts_on)} ({self.instrument})"
        )
