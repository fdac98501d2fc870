"""Suspension and termination of MS4 access (§ 132-9, R-SUS-1, R-SUS-2)."""

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django_fsm import FSMField, transition

from cases.models import Case, Party, Premises
from kernel.humanize import human_short_date

from .base import FlowModel, guard, smo
from .notices import ServiceRecord

# The written notice of reasons is served the ways a notice of violation is.
NoticeMethod = ServiceRecord.Method


class SuspensionStatus(models.TextChoices):
    SUSPENDED = "suspended", "Suspended; written notice of reasons due"
    NOTIFIED = "notified", "Suspended; notice of reasons sent"
    LIFTED = "lifted", "Suspension lifted"


class AccessSuspension(FlowModel):
    """An emergency suspension of MS4 discharge access without prior notice, to
    stop an imminent and substantial danger; the written notice of its reasons
    follows within a reasonable time (§ 132-9 A, R-SUS-1: the village's
    setting, two business days by default)."""

    flow = "suspension"

    case = models.ForeignKey(Case, on_delete=models.PROTECT, related_name="suspensions")
    party = models.ForeignKey(Party, on_delete=models.PROTECT, related_name="+")
    premises = models.ForeignKey(
        Premises, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    status = FSMField(
        max_length=12,
        choices=SuspensionStatus.choices,
        default=SuspensionStatus.SUSPENDED,
        protected=True,
    )
    suspended_at = models.DateTimeField()
    reasons = models.TextField(
        help_text="The actual or threatened discharge and the danger it presents."
    )
    notice_sent_on = models.DateField(null=True, blank=True)
    notice_method = models.CharField(
        "how it was sent", max_length=200, choices=NoticeMethod.choices, blank=True
    )
    notice_article_number = models.CharField(
        "certified mail article number", max_length=40, blank=True
    )
    notice_document = models.ForeignKey(
        "documents.IssuedDocument",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="The version of the written notice of reasons that was sent.",
    )
    noncompliance_steps = models.TextField(
        blank=True,
        help_text="Steps taken if the suspension order was not obeyed (R-SUS-1).",
    )
    lifted_on = models.DateField(null=True, blank=True)
    lifted_reason = models.TextField(blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-suspended_at"]
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(notice_method="certified")
                | ~models.Q(notice_article_number=""),
                name="suspension_certified_notice_has_article_number",
                violation_error_message="Give the certified mail article number.",
            )
        ]

    def __str__(self):
        return f"Suspension {self.pk} ({self.case})"

    @property
    def service_words(self) -> str:
        """How the notice of reasons was sent, as the page and chronology say it:
        "Certified mail, article 9407 1118 ..., SUS-3 version 1"."""
        if not self.notice_method:
            return ""
        words = [self.get_notice_method_display()]
        if self.notice_article_number:
            words.append(f"article {self.notice_article_number}")
        if self.notice_document_id:
            document = self.notice_document
            words.append(f"{document.document_number} version {document.version}")
        return ", ".join(words)

    def get_absolute_url(self):
        return reverse(
            "enforcement:remedy_detail", kwargs={"flow": self.flow, "pk": self.pk}
        )

    def suspended_day(self):
        """The village's date of the suspension (R-SUS-1; cases.clocks)."""
        return timezone.localtime(self.suspended_at).date()

    @guard(
        "give the date the written notice of reasons was sent and how",
        form=True,
        rule="R-SUS-1",
    )
    def has_notice(self) -> bool:
        return bool(self.notice_sent_on and self.notice_method.strip())

    @guard("give the certified mail article number", form=True, rule="R-SUS-1")
    def has_article_number_if_certified(self) -> bool:
        return self.notice_method != NoticeMethod.CERTIFIED or bool(
            self.notice_article_number.strip()
        )

    @guard(
        "the written notice of reasons follows the suspension: it cannot be sent "
        "before the day of the suspension",
        form=True,
        rule="R-SUS-1",
    )
    def notice_after_suspension(self) -> bool:
        if self.notice_sent_on is None or self.suspended_at is None:
            return True
        return self.notice_sent_on >= timezone.localtime(self.suspended_at).date()

    @guard(
        "give the date and the reason the suspension is lifted",
        form=True,
        rule="R-SUS-1",
    )
    def has_lifting(self) -> bool:
        return bool(self.lifted_on and self.lifted_reason.strip())

    @transition(
        status,
        source=SuspensionStatus.SUSPENDED,
        target=SuspensionStatus.NOTIFIED,
        permission=smo,
        conditions=[
            has_notice,
            has_article_number_if_certified,
            notice_after_suspension,
        ],
        custom={
            "label": "Record the notice of reasons",
            "rule_id": "R-SUS-1",
            "form": "notice",
            "binding": True,
            "confirm": "suspension_notice",
        },
    )
    def record_notice(self):
        pass

    @transition(
        status,
        source=SuspensionStatus.NOTIFIED,
        target=SuspensionStatus.LIFTED,
        permission=smo,
        conditions=[has_lifting],
        custom={"label": "Lift the suspension", "rule_id": "R-SUS-1", "form": "lift"},
    )
    def lift(self):
        pass


class TerminationStatus(models.TextChoices):
    PROPOSED = "proposed", "Termination proposed (notice sent)"
    TERMINATED = "terminated", "Access terminated"
    PETITIONED = "petitioned", "Petition for reconsideration filed"
    HEARING_SCHEDULED = "hearing_scheduled", "Reconsideration hearing scheduled"
    REINSTATED = "reinstated", "Access granted again"
    DENIED = "denied", "Access denied in writing"
    WITHDRAWN = "withdrawn", "Proposal withdrawn"


class AccessTermination(FlowModel):
    """Termination of MS4 access of a person discharging in violation, where it
    would abate or reduce an illicit discharge (§ 132-9 B, R-SUS-2): written
    notice of the proposed termination with reasons; the violator's petition for
    reconsideration and a hearing; access granted again if the discharge has
    ceased and its recurrence is prevented, or denied in writing."""

    flow = "termination"

    case = models.ForeignKey(
        Case, on_delete=models.PROTECT, related_name="terminations"
    )
    party = models.ForeignKey(Party, on_delete=models.PROTECT, related_name="+")
    premises = models.ForeignKey(
        Premises, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    status = FSMField(
        max_length=20,
        choices=TerminationStatus.choices,
        default=TerminationStatus.PROPOSED,
        protected=True,
    )
    notice_on = models.DateField(help_text="Date of the written notice of proposal.")
    reasons = models.TextField()
    terminated_on = models.DateField(null=True, blank=True)
    petition_on = models.DateField(null=True, blank=True)
    petition_grounds = models.TextField(blank=True)
    hearing_at = models.DateTimeField(null=True, blank=True)
    hearing_location = models.CharField(max_length=200, blank=True)
    decided_on = models.DateField(null=True, blank=True)
    discharge_ceased = models.BooleanField(default=False)
    recurrence_prevented = models.BooleanField(default=False)
    determination = models.TextField(
        blank=True,
        help_text="The SMO's written finding (grant) or determination (deny).",
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self):
        return f"Termination {self.pk} ({self.case})"

    def get_absolute_url(self):
        return reverse(
            "enforcement:remedy_detail", kwargs={"flow": self.flow, "pk": self.pk}
        )

    @property
    def access_is_terminated(self) -> bool:
        return self.status in {
            TerminationStatus.TERMINATED,
            TerminationStatus.PETITIONED,
            TerminationStatus.HEARING_SCHEDULED,
            TerminationStatus.DENIED,
        }

    @guard("give the date access was terminated", form=True, rule="R-SUS-2")
    def has_terminated_on(self) -> bool:
        return self.terminated_on is not None

    @guard("give the date and the grounds of the petition", form=True, rule="R-SUS-2")
    def has_petition(self) -> bool:
        return bool(self.petition_on and self.petition_grounds.strip())

    @guard("give the hearing date and time", form=True, rule="R-SUS-2")
    def has_hearing(self) -> bool:
        return self.hearing_at is not None

    @guard(
        "access may be granted only on a finding that the discharge has ceased and "
        "its recurrence is prevented, with the decision date and finding",
        form=True,
        rule="R-SUS-2",
    )
    def may_reinstate(self) -> bool:
        return bool(
            self.discharge_ceased
            and self.recurrence_prevented
            and self.decided_on
            and self.determination.strip()
        )

    @guard(
        "a denial must be determined in writing, with its date",
        form=True,
        rule="R-SUS-2",
    )
    def has_written_denial(self) -> bool:
        return bool(self.decided_on and self.determination.strip())

    @guard("say why the proposal is withdrawn", form=True)
    def has_determination(self) -> bool:
        return bool(self.determination.strip())

    @transition(
        status,
        source=TerminationStatus.PROPOSED,
        target=TerminationStatus.TERMINATED,
        permission=smo,
        conditions=[has_terminated_on],
        custom={
            "label": "Terminate access",
            "rule_id": "R-SUS-2",
            "form": "terminate",
            "binding": True,
            "confirm": "access_terminate",
        },
    )
    def terminate(self):
        pass

    @transition(
        status,
        source=[TerminationStatus.PROPOSED, TerminationStatus.TERMINATED],
        target=TerminationStatus.PETITIONED,
        permission=smo,
        conditions=[has_petition],
        custom={
            "label": "Record the petition",
            "rule_id": "R-SUS-2",
            "form": "petition",
        },
    )
    def record_petition(self):
        pass

    @transition(
        status,
        source=[TerminationStatus.PETITIONED, TerminationStatus.HEARING_SCHEDULED],
        target=TerminationStatus.HEARING_SCHEDULED,
        permission=smo,
        conditions=[has_hearing],
        custom={
            "label": "Schedule the hearing",
            "rule_id": "R-SUS-2",
            "form": "hearing",
        },
    )
    def schedule_hearing(self):
        pass

    @transition(
        status,
        source=TerminationStatus.HEARING_SCHEDULED,
        target=TerminationStatus.REINSTATED,
        permission=smo,
        conditions=[may_reinstate],
        custom={"label": "Grant access again", "rule_id": "R-SUS-2", "form": "grant"},
    )
    def grant_access(self):
        pass

    @transition(
        status,
        source=TerminationStatus.HEARING_SCHEDULED,
        target=TerminationStatus.DENIED,
        permission=smo,
        conditions=[has_written_denial],
        custom={
            "label": "Deny access in writing",
            "rule_id": "R-SUS-2",
            "form": "deny",
            "binding": True,
            "confirm": "access_deny",
        },
    )
    def deny_access(self):
        pass

    @transition(
        status,
        source=TerminationStatus.PROPOSED,
        target=TerminationStatus.WITHDRAWN,
        permission=smo,
        conditions=[has_determination],
        custom={"label": "Withdraw the proposal", "form": "withdraw"},
    )
    def withdraw(self):
        pass


class UnauthorizedReinstatement(models.Model):
    """A reinstatement of MS4 access to terminated premises without the SMO's
    prior approval: an offense (§ 132-9 B), opened as a new case."""

    termination = models.ForeignKey(
        AccessTermination, on_delete=models.PROTECT, related_name="reinstatements"
    )
    new_case = models.OneToOneField(
        Case, on_delete=models.PROTECT, related_name="reinstatement_record"
    )
    offense = models.OneToOneField(
        "enforcement.OffenseRecord", on_delete=models.PROTECT, related_name="+"
    )
    observed_on = models.DateField()
    description = models.TextField()
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+"
    )
    recorded_at = models.DateTimeField(default=timezone.now)

    def __str__(self):
        return (
            f"Unauthorized reinstatement {human_short_date(self.observed_on)} "
            f"({self.new_case})"
        )
