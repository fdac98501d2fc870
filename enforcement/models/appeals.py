"""Appeals of a notice of violation to the Board of Trustees (§ 132-14,
R-APL-1..3). The clerk records them; the Board decides."""

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django_fsm import FSMField, transition

from cases.models import Party
from cases.models.records import private_upload_path

from ..document_kinds import EnforcementDocument
from .base import FlowModel, clerk, guard, smo_or_clerk
from .meetings import BoardMeeting
from .notices import NoticeOfViolation


class AppealStatus(models.TextChoices):
    FILED = "filed", "Filed, hearing to be scheduled"
    HEARING_SCHEDULED = "hearing_scheduled", "Hearing scheduled"
    DECIDED = "decided", "Decided; to be filed and mailed"
    CLOSED = "closed", "Decision filed and mailed"
    WITHDRAWN = "withdrawn", "Withdrawn by the appellant"


class Decision(models.TextChoices):
    UPHELD = "upheld", "Upheld"
    MODIFIED = "modified", "Modified"
    REVERSED = "reversed", "Reversed"


class Appeal(FlowModel):
    """An appeal of the SMO's determination to the Village Board of Trustees:
    due within 15 days of the notice's issuance (R-APL-1; a late one is recorded
    and flagged, the Board decides), heard within 30 days of filing (R-APL-2),
    the decision filed with the municipal clerk and mailed by certified mail
    within five days (R-APL-3)."""

    notice = models.ForeignKey(
        NoticeOfViolation, on_delete=models.PROTECT, related_name="appeals"
    )
    appellant = models.ForeignKey(
        Party, on_delete=models.PROTECT, related_name="appeals"
    )
    status = FSMField(
        max_length=20,
        choices=AppealStatus.choices,
        default=AppealStatus.FILED,
        protected=True,
        db_index=True,
    )
    filed_on = models.DateField()
    grounds = models.TextField()
    appeal_due = models.DateField(
        help_text="The last day to appeal (the notice's R-APL-1 deadline)."
    )
    is_late = models.BooleanField(default=False)
    late_accepted_on = models.DateField(
        null=True,
        blank=True,
        help_text="The day the Board accepted a late appeal (its hearing-by "
        "clock starts then, counted from the filing).",
    )

    meeting = models.ForeignKey(
        BoardMeeting,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="appeals",
        help_text="The Board meeting at which the appeal is heard.",
    )
    hearing_at = models.DateTimeField(null=True, blank=True)
    hearing_location = models.CharField(max_length=200, blank=True)
    hearing_past_limit = models.BooleanField(
        default=False, help_text="Scheduled after the hearing-by date (R-APL-2)."
    )

    decision = models.CharField(max_length=10, choices=Decision.choices, blank=True)
    decided_on = models.DateField(null=True, blank=True)
    resolution = models.TextField(blank=True)
    modification = models.TextField(
        "what the Board modified",
        blank=True,
        help_text="A modified decision: what the Board changed in the "
        "SMO's determination. The SMO then issues a notice superseding the one "
        "appealed, with the requirements as modified.",
    )
    filed_with_clerk_on = models.DateField(null=True, blank=True)
    mailed_on = models.DateField(null=True, blank=True)
    mail_article_number = models.CharField(
        "certified mail article number", max_length=40, blank=True
    )
    # The outcome of the decision's certified mailing (enforcement.models.mail).
    mail_delivered_on = models.DateField(
        null=True, blank=True, help_text="From the green card or USPS tracking."
    )
    mail_returned_on = models.DateField(null=True, blank=True)
    mail_return_reason = models.CharField(max_length=200, blank=True)
    withdrawn_on = models.DateField(null=True, blank=True)
    withdrawn_reason = models.TextField(blank=True)

    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    recorded_at = models.DateTimeField(default=timezone.now)
    # Filed by the appellant on the respondent's page (issue 18): received at
    # that moment (filed_on is its date in the village), from that address,
    # acknowledged with the receipt number.
    filed_online = models.BooleanField(default=False, db_index=True)
    received_at = models.DateTimeField(null=True, blank=True)
    received_from = models.GenericIPAddressField(null=True, blank=True)
    receipt_number = models.CharField(max_length=30, blank=True)
    contact_email = models.EmailField(blank=True)
    contact_phone = models.CharField(max_length=40, blank=True)

    class Meta:
        ordering = ["-filed_on", "-id"]

    def __str__(self):
        return f"Appeal {self.pk} of {self.notice}"

    def get_absolute_url(self) -> str:
        return reverse("enforcement:appeal_detail", args=[self.pk])

    @property
    def case(self):
        return self.notice.case

    # --- what is still to be recorded (R-APL-3) --------------------------------
    def awaits_clerk_filing(self) -> bool:
        """Decided, and the filing with the municipal clerk not yet recorded."""
        return self.status == AppealStatus.DECIDED and not self.filed_with_clerk_on

    def awaits_mailing(self) -> bool:
        """Decided, and the certified mailing of the decision not yet recorded."""
        return self.status == AppealStatus.DECIDED and not self.mailed_on

    # The decision's certified mailing whose outcome is not recorded yet: the
    # predicate, and the same as a query (the clerk's queue).
    @classmethod
    def awaiting_delivery_outcome(cls) -> models.Q:
        return models.Q(
            mailed_on__isnull=False,
            mail_delivered_on__isnull=True,
            mail_returned_on__isnull=True,
        )

    def awaits_delivery_outcome(self) -> bool:
        return (
            self.mailed_on is not None
            and self.mail_delivered_on is None
            and self.mail_returned_on is None
        )

    def delivery_words(self) -> str:
        from .mail import outcome_words

        return outcome_words(
            "decision",
            self.mail_delivered_on,
            self.mail_returned_on,
            self.mail_return_reason,
        )

    def _latest_hearing_notice(self):
        """The latest version of the notice of hearing that did not fail (set in
        bulk by enforcement.work_queues as `_prefetched_hearing_notice`)."""
        if hasattr(self, "_prefetched_hearing_notice"):
            return self._prefetched_hearing_notice
        from documents.selectors import latest_document

        return latest_document(self, EnforcementDocument.HEARING_NOTICE)

    def hearing_notice(self):
        """The latest issued version of the notice of hearing, or None."""
        found = self._latest_hearing_notice()
        return found if found is not None and found.is_issued else None

    def hearing_notice_step(self) -> str | None:
        """What the notice of hearing of a scheduled hearing still needs:
        "issue" (none issued), "rendering" (issued, its PDF being made),
        "reissue" (the hearing was moved after it was issued: a corrected
        version must go out), "send" (issued, its sending not recorded, or every
        sending returned) or None (sent, or no hearing to come). The clerk's
        queue and the appeal page read this one answer."""
        if self.status != AppealStatus.HEARING_SCHEDULED:
            return None
        latest = self._latest_hearing_notice()
        if latest is None:
            return "issue"
        if not latest.is_issued:
            return "rendering"
        from ..documents.hearing import notice_gives_another_hearing

        if notice_gives_another_hearing(self, latest):
            return "reissue"
        # Sent, and not come back (a returned one is to be sent another way).
        if not any(
            s.document_id == latest.pk and s.returned_on is None
            for s in self.hearing_notice_services.all()
        ):
            return "send"
        return None

    def hearing_notice_is_out_of_date(self) -> bool:
        """The latest issued notice of hearing gives another day, time or place
        than the hearing as now scheduled (it was moved since)."""
        from ..documents.hearing import notice_gives_another_hearing

        issued = self.hearing_notice()
        return issued is not None and notice_gives_another_hearing(self, issued)

    def hearing_notice_to_send(self) -> bool:
        """A hearing to come whose notice is issued and gives its day, time and
        place: its sending may be recorded."""
        return (
            self.status == AppealStatus.HEARING_SCHEDULED
            and self.hearing_notice() is not None
            and not self.hearing_notice_is_out_of_date()
        )

    def may_have_a_packet(self) -> bool:
        """Scheduled or heard: the Board's hearing packet can be assembled."""
        return self.hearing_at is not None and self.status != AppealStatus.WITHDRAWN

    @property
    def case_id(self):
        return self.notice.case_id

    @property
    def pending_until(self):
        """The day the appeal stopped being pending before the Board: the day of
        its decision, or of its withdrawal; None while it is pending (R-PEN-4
        leaves the days between out of the weeks of continued violation)."""
        if self.decided_on is not None:
            return self.decided_on
        if self.status == AppealStatus.WITHDRAWN:
            return self.withdrawn_on or self.filed_on
        return None

    # --- what the decision was (§ 132-14, § 132-15 A) ---------------------------
    def upholds(self) -> bool:
        """The Board upheld the SMO: the only decision that starts the five
        business days to correct (R-COR-1, "the decision ... upholding")."""
        return self.decision == Decision.UPHELD and self.decided_on is not None

    def modifies(self) -> bool:
        """The Board modified the SMO's determination: the requirements that stand
        are those of the notice the SMO issues to supersede the one appealed."""
        return self.decision == Decision.MODIFIED and self.decided_on is not None

    def correction_deadline(self):
        """After a decision upholding the SMO: the notice's stored five business
        days to correct (R-COR-1) counted from this decision; else None."""
        if not self.upholds():
            return None
        return (
            self.notice.deadlines()
            .filter(rule_id="R-COR-1", event_date=self.decided_on)
            .order_by("-id")
            .first()
        )

    def superseding_notice(self):
        """After a modified decision, the notice (draft or issued) that carries the
        requirements as modified: the correction of the notice appealed."""
        if not self.modifies():
            return None
        return NoticeOfViolation.objects.filter(supersedes_id=self.notice_id).first()

    # --- conditions ------------------------------------------------------------
    @guard("give the hearing date and time")
    def has_hearing_at(self) -> bool:
        return self.hearing_at is not None

    @guard("the hearing cannot come before the appeal was filed", rule="R-APL-2")
    def heard_after_filing(self) -> bool:
        if self.hearing_at is None:
            return False
        return timezone.localtime(self.hearing_at).date() >= self.filed_on

    @guard(
        "a hearing cannot be scheduled or moved to a day that has passed",
        rule="R-APL-2",
    )
    def hearing_not_in_the_past(self) -> bool:
        """Scheduling looks forward: the day of the hearing (village time) is today
        or later. A hearing already held is recorded with the decision."""
        if self.hearing_at is None:
            return False
        return timezone.localtime(self.hearing_at).date() >= timezone.localdate()

    @guard("give the decision, its date and the resolution text")
    def has_decision(self) -> bool:
        return bool(self.decision and self.decided_on and self.resolution.strip())

    @guard("say what the Board modified")
    def states_what_was_modified(self) -> bool:
        """A modified decision records what the Board modified (§ 132-14)."""
        return self.decision != Decision.MODIFIED or bool(self.modification.strip())

    @guard(
        "only a modified decision records what the Board modified: choose "
        "“Modified” or leave that field empty"
    )
    def modification_only_if_modified(self) -> bool:
        return self.decision == Decision.MODIFIED or not self.modification.strip()

    @guard("the decision cannot come before the hearing")
    def decided_after_hearing(self) -> bool:
        if self.hearing_at is None or self.decided_on is None:
            return False
        return timezone.localtime(self.hearing_at).date() <= self.decided_on

    @guard(
        "record both the filing with the municipal clerk and the mailing",
        form=False,
        rule="R-APL-3",
    )
    def is_filed_and_mailed(self) -> bool:
        return bool(
            self.filed_with_clerk_on and self.mailed_on and self.mail_article_number
        )

    @guard(
        "only a late appeal not yet accepted awaits the Board's acceptance",
        form=False,
        rule="R-APL-2",
    )
    def awaits_late_acceptance(self) -> bool:
        """Filed after the 15 days and not yet accepted by the Board: no
        hearing-by clock runs until the Board accepts it."""
        return self.is_late and self.late_accepted_on is None

    @guard("give the reason the appeal was withdrawn")
    def has_withdrawn_reason(self) -> bool:
        return bool(self.withdrawn_reason.strip())

    # --- transitions -----------------------------------------------------------
    @transition(
        status,
        source=[AppealStatus.FILED, AppealStatus.HEARING_SCHEDULED],
        target=AppealStatus.HEARING_SCHEDULED,
        permission=clerk,
        conditions=[has_hearing_at, heard_after_filing, hearing_not_in_the_past],
        custom={
            "label": "Schedule the hearing",
            "rule_id": "R-APL-2",
            "form": "hearing",
        },
    )
    def schedule_hearing(self):
        pass

    @transition(
        status,
        source=AppealStatus.HEARING_SCHEDULED,
        target=AppealStatus.DECIDED,
        permission=clerk,
        conditions=[
            has_decision,
            states_what_was_modified,
            modification_only_if_modified,
            decided_after_hearing,
        ],
        custom={
            "label": "Record the decision",
            "rule_id": "R-APL-3",
            "form": "decide",
            "binding": True,
            "confirm": "appeal_decide",
        },
    )
    def decide(self):
        pass

    @transition(
        status,
        source=AppealStatus.DECIDED,
        target=AppealStatus.CLOSED,
        permission=smo_or_clerk,
        conditions=[is_filed_and_mailed],
        custom={"label": "Close", "rule_id": "R-APL-3", "hidden": True},
    )
    def close(self):
        pass

    @transition(
        status,
        source=[AppealStatus.FILED, AppealStatus.HEARING_SCHEDULED],
        target=AppealStatus.WITHDRAWN,
        permission=smo_or_clerk,
        conditions=[has_withdrawn_reason],
        custom={"label": "Record withdrawal by the appellant", "form": "withdraw"},
    )
    def withdraw(self):
        self.withdrawn_on = timezone.localdate()

    @transition(
        status,
        source=AppealStatus.FILED,
        target=AppealStatus.FILED,
        permission=clerk,
        conditions=[awaits_late_acceptance],
        custom={
            "label": "Record the Board's acceptance of the late appeal",
            "rule_id": "R-APL-2",
            "offered_if": "awaits_late_acceptance",
            "binding": True,
            "confirm": "appeal_accept_late",
        },
    )
    def accept_late(self):
        self.late_accepted_on = timezone.localdate()

    # --- what its clocks count (cases.clocks) ------------------------------------
    def is_timely(self) -> bool:
        """Filed within the 15 days (R-APL-1): its hearing-by clock starts."""
        return not self.is_late

    def hearing_day(self):
        return timezone.localtime(self.hearing_at).date() if self.hearing_at else None


class AppealDocument(models.Model):
    """A document filed with an appeal: kept privately, with its SHA-256."""

    appeal = models.ForeignKey(
        Appeal, on_delete=models.PROTECT, related_name="documents"
    )
    file = models.FileField(upload_to=private_upload_path)
    original_name = models.CharField(max_length=200)
    content_type = models.CharField(max_length=100)
    size = models.PositiveIntegerField()
    sha256 = models.CharField(max_length=64)
    description = models.CharField(max_length=200, blank=True)
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="Empty when the appellant sent it with an appeal filed online.",
    )
    uploaded_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["appeal", "uploaded_at"]

    def __str__(self):
        return self.original_name
