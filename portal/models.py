"""The respondent's key to their own page of a case (issue 18)."""

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django_fsm import FSMField, transition

from kernel.roles import smo_permission
from kernel.workflow import guard

from .codes import grouped


class PortalAccess(models.Model):
    """One party's access code for one case. One live code per party and case;
    the SMO may revoke it and issue a new one (the next document prints the new
    one). The code is printed on the party's papers, so it is kept as printed."""

    case = models.ForeignKey(
        "cases.Case", on_delete=models.PROTECT, related_name="portal_accesses"
    )
    party = models.ForeignKey(
        "cases.Party", on_delete=models.PROTECT, related_name="portal_accesses"
    )
    code = models.CharField(max_length=16, unique=True)
    issued_at = models.DateTimeField(default=timezone.now)
    issued_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    first_used_at = models.DateTimeField(null=True, blank=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    last_used_from = models.GenericIPAddressField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    revoked_reason = models.TextField(blank=True)
    # E-mail reminders of the party's own dates, asked for on the page (blank:
    # none). Sent by the deadline sweep, once per deadline and step.
    reminder_email = models.EmailField(blank=True)
    reminders_since = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "cases_portalaccess"  # the table it had in cases (issue 30)
        ordering = ["-issued_at", "-id"]
        verbose_name = "access code of the respondent's page"
        constraints = [
            models.UniqueConstraint(
                fields=["case", "party"],
                condition=models.Q(revoked_at__isnull=True),
                name="one_live_access_code_per_party_and_case",
            )
        ]

    def __str__(self):
        return f"Access code …{self.code[-4:]} of {self.party} on {self.case}"

    def get_absolute_url(self) -> str:
        return reverse("cases:detail", args=[self.case.number]) + "#portal"

    @property
    def printed(self) -> str:
        return grouped(self.code)

    @property
    def is_live(self) -> bool:
        return self.revoked_at is None

    @property
    def status(self) -> str:
        """Issued / used / revoked, as the case page says it."""
        if self.revoked_at is not None:
            return "revoked"
        return "used" if self.first_used_at else "issued"


class SentFromThePage(models.Model):
    """What a respondent sends from their page for the SMO to decide on: when
    and from which address it came, who decided, when, and the reason given
    (which the respondent reads)."""

    submitted_at = models.DateTimeField(default=timezone.now)
    submitted_from = models.GenericIPAddressField(null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    reason = models.TextField(blank=True)

    class Meta:
        abstract = True
        ordering = ["-submitted_at", "-id"]

    @property
    def case(self):
        """The case it was sent about (the chronology's home for its steps)."""
        return self.access.case


def _has_reason(request) -> bool:
    return bool((request.reason or "").strip())


@guard("say why the proof is not accepted; the respondent reads it")
def proof_refusal_has_reason(submission) -> bool:
    return _has_reason(submission)


@guard("say why the change is declined; the respondent reads it")
def decline_has_reason(request) -> bool:
    return _has_reason(request)


class ContactChangeStatus(models.TextChoices):
    PENDING = "pending", "Waiting for the Stormwater Management Officer's review"
    CONFIRMED = "confirmed", "Confirmed: the address of record is changed"
    DECLINED = "declined", "Declined"


class ContactChangeRequest(SentFromThePage):
    """New contact details sent from the respondent's page. Notices must go to
    the address of record, so nothing changes until the SMO confirms; then the
    party's details change through the one service that changes them."""

    access = models.ForeignKey(
        PortalAccess, on_delete=models.PROTECT, related_name="contact_requests"
    )
    mailing_address = models.TextField(blank=True)
    email = models.EmailField(blank=True)
    phone = models.CharField(max_length=40, blank=True)
    status = FSMField(
        max_length=10,
        choices=ContactChangeStatus.choices,
        default=ContactChangeStatus.PENDING,
        db_index=True,
    )

    class Meta(SentFromThePage.Meta):
        db_table = "cases_contactchangerequest"

    def __str__(self):
        return f"Change of contact details {self.pk} of {self.access.party}"

    def changes(self) -> dict:
        """The fields asked to change, with their new values."""
        return {
            name: getattr(self, name)
            for name in ("mailing_address", "email", "phone")
            if getattr(self, name).strip()
        }

    # --- the SMO's decision (portal.services, through the kernel) ----------
    @transition(
        status,
        source=ContactChangeStatus.PENDING,
        target=ContactChangeStatus.CONFIRMED,
        permission=smo_permission,
        custom={"label": "Confirm the new details", "form": "plain"},
    )
    def confirm(self):
        pass

    @transition(
        status,
        source=ContactChangeStatus.PENDING,
        target=ContactChangeStatus.DECLINED,
        permission=smo_permission,
        conditions=[decline_has_reason],
        custom={"label": "Decline", "form": "reason"},
    )
    def decline(self):
        pass


class CorrectionStatus(models.TextChoices):
    PENDING = "pending", "Waiting for the Stormwater Management Officer's review"
    ACCEPTED = "accepted", "Accepted"
    REJECTED = "rejected", "Not accepted"


class CorrectionSubmission(SentFromThePage):
    """Proof that the work a notice requires is done, sent from the respondent's
    page: a short statement and photos or documents. The SMO accepts it (and may
    record the notice complied, through the notice's state machine) or rejects
    it with a reason the respondent reads."""

    access = models.ForeignKey(
        PortalAccess, on_delete=models.PROTECT, related_name="corrections"
    )
    notice = models.ForeignKey(
        "enforcement.NoticeOfViolation",
        on_delete=models.PROTECT,
        related_name="correction_submissions",
    )
    statement = models.TextField(blank=True)
    status = FSMField(
        max_length=10,
        choices=CorrectionStatus.choices,
        default=CorrectionStatus.PENDING,
        db_index=True,
    )

    class Meta(SentFromThePage.Meta):
        db_table = "cases_correctionsubmission"
        verbose_name = "proof of correction"
        verbose_name_plural = "proofs of correction"

    def __str__(self):
        return f"Proof of correction {self.pk} of NOV-{self.notice_id}"

    def get_absolute_url(self) -> str:
        return reverse("cases:detail", args=[self.access.case.number]) + "#portal-h"

    @property
    def is_pending(self) -> bool:
        return self.status == CorrectionStatus.PENDING

    # --- the SMO's review (portal.corrections, through the kernel) ---------
    @transition(
        status,
        source=CorrectionStatus.PENDING,
        target=CorrectionStatus.ACCEPTED,
        permission=smo_permission,
        custom={"label": "Accept the proof", "form": "plain"},
    )
    def accept(self):
        pass

    @transition(
        status,
        source=CorrectionStatus.PENDING,
        target=CorrectionStatus.REJECTED,
        permission=smo_permission,
        conditions=[proof_refusal_has_reason],
        custom={"label": "Do not accept", "form": "reason"},
    )
    def reject(self):
        pass


class CorrectionFile(models.Model):
    """One photo or document of a proof of correction. A photo is decoded and
    re-encoded with no metadata for viewing (kernel.uploads, as on the resident
    form); the bytes as sent are kept privately with their SHA-256. A PDF is
    kept as sent and served to staff only as a download."""

    submission = models.ForeignKey(
        CorrectionSubmission, on_delete=models.PROTECT, related_name="files"
    )
    original = models.FileField(upload_to="private/correction-originals/")
    original_sha256 = models.CharField(max_length=64)
    original_name = models.CharField(max_length=200)
    content_type = models.CharField(max_length=100)
    size = models.PositiveIntegerField()
    display = models.ImageField(upload_to="private/correction-display/", blank=True)
    width = models.PositiveIntegerField(null=True, blank=True)
    height = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        db_table = "cases_correctionfile"
        ordering = ["id"]

    def __str__(self):
        return self.original_name

    @property
    def is_photo(self) -> bool:
        return bool(self.display)
