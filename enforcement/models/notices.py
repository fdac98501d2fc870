"""Notices of violation (§ 132-13 A, R-NOV-1, R-NOV-2) and their service."""

from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import ValidationError
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django_fsm import FSMField, transition

from cases.models import Case, Party
from deadlines.models import CLOSED_WITHOUT_DUTY, Deadline
from kernel.humanize import human_date, human_short_date

from .base import FlowModel, guard, smo, smo_or_clerk


class NoticeFrozenError(ValidationError):
    """An issued notice of violation cannot be changed; issue a correction."""


class NoticeStatus(models.TextChoices):
    DRAFT = "draft", "Draft"
    ISSUED = "issued", "Issued"
    COMPLIED = "complied", "Complied"
    NOT_COMPLIED = "not_complied", "Not complied by the deadline"
    ESCALATED = "escalated", "Escalated"
    WITHDRAWN = "withdrawn", "Withdrawn"
    SUPERSEDED = "superseded", "Superseded by a correction"
    CLOSED = "closed", "Closed with the case"


class RequirementKind(models.TextChoices):
    """The six things a notice may require (§ 132-13 A(1)-(6))."""

    ELIMINATION = "elimination", "Elimination of illicit connections or discharges"
    CEASE_DESIST = (
        "cease_desist",
        "Violating discharges, practices or operations shall cease and desist",
    )
    ABATEMENT = (
        "abatement",
        "Abatement or remediation of stormwater pollution or contamination hazards "
        "and restoration of any affected property",
    )
    MONITORING = "monitoring", "Performance of monitoring, analyses and reporting"
    FINE = "fine", "Payment of a fine"
    BMPS = "bmps", "Implementation of source control or treatment BMPs"

    @classmethod
    def number(cls, kind) -> int:
        return list(cls.values).index(kind) + 1


# The requirements a notice may give its own number of days to comply with
# (R-NOV-1, one dated deadline each). Abatement/restoration (3) always has one,
# the notice's remediation deadline (R-NOV-2, `remediation_days`); cease and
# desist (2) takes effect on the date of the notice; payment of a fine (5) is
# not a correction of the violation and carries no compliance date.
REQUIREMENTS_WITH_DAYS = (
    RequirementKind.ELIMINATION,
    RequirementKind.MONITORING,
    RequirementKind.BMPS,
)
MAX_COMPLIANCE_DAYS = 365
# The rules of the dates a notice requires compliance by (stored deadlines).
COMPLIANCE_RULES = ("R-NOV-2", "R-NOV-1")
# A stored date the respondent was given in writing and that still holds: open,
# met or missed; never one waived or replaced.
STANDING_DATES = tuple(s for s in Deadline.Status if s not in CLOSED_WITHOUT_DUTY)

# Statuses in which the notice is in force against the recipient.
IN_FORCE = (NoticeStatus.ISSUED, NoticeStatus.NOT_COMPLIED, NoticeStatus.ESCALATED)
# ...of which these may still be appealed or corrected (escalated: the next
# remedy has begun).
APPEALABLE = CORRECTABLE = (NoticeStatus.ISSUED, NoticeStatus.NOT_COMPLIED)


def _appeals_that_bar_another():
    """Every appeal status but withdrawn: a notice is appealed once (R-APL-1)."""
    from .appeals import AppealStatus

    return [s for s in AppealStatus if s != AppealStatus.WITHDRAWN]


class NoticeQuerySet(models.QuerySet):
    def in_force(self):
        """Issued, or not complied with and not yet escalated: the notice
        still asks something of its recipient."""
        return self.filter(status__in=CORRECTABLE)

    def with_pending_appeal(self):
        """Notices whose appeal awaits the Board (filed, or hearing scheduled)."""
        from .appeals import AppealStatus

        return self.filter(
            appeals__status__in=[AppealStatus.FILED, AppealStatus.HEARING_SCHEDULED]
        ).distinct()

    def appealable(self):
        """`NoticeOfViolation.can_be_appealed` as a query."""
        return self.filter(status__in=APPEALABLE).exclude(
            appeals__status__in=_appeals_that_bar_another()
        )


class NoticeOfViolation(FlowModel):
    """A written notice of violation to the responsible person ordering compliance
    (§ 132-13 A). Once issued it is frozen: a correction is a new notice that
    supersedes it, and both are kept."""

    # Content of the notice: fixed once it is issued.
    FROZEN_FIELDS = (
        "case_id",
        "recipient_id",
        "supersedes_id",
        "violation_date",
        "findings",
        "remediation_days",
        "proposed_fine",
        "fine_tier",
        "fine_min",
        "fine_max",
        "fine_computation",
        "recipient_name",
        "recipient_address",
        "issued_on",
        "issued_by_id",
    )

    objects = NoticeQuerySet.as_manager()

    case = models.ForeignKey(Case, on_delete=models.PROTECT, related_name="notices")
    recipient = models.ForeignKey(
        Party, on_delete=models.PROTECT, related_name="notices_received"
    )
    status = FSMField(
        max_length=16,
        choices=NoticeStatus.choices,
        default=NoticeStatus.DRAFT,
        protected=True,
        db_index=True,
    )
    supersedes = models.OneToOneField(
        "self",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="superseded_by",
        help_text="The issued notice this one corrects.",
    )
    violation_date = models.DateField(
        help_text="The date the violation was committed (counts for the fine tier)."
    )
    findings = models.TextField(help_text="What the SMO found: the violation.")
    remediation_days = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="Days from issuance to complete abatement or restoration (R-NOV-2).",
    )
    proposed_fine = models.DecimalField(
        max_digits=9, decimal_places=2, null=True, blank=True
    )
    # The tier computation (R-PEN-1..3), stored when the notice is issued.
    fine_tier = models.PositiveSmallIntegerField(null=True, blank=True)
    fine_min = models.DecimalField(
        max_digits=9, decimal_places=2, null=True, blank=True
    )
    fine_max = models.DecimalField(
        max_digits=9, decimal_places=2, null=True, blank=True
    )
    fine_computation = models.TextField(blank=True)

    # Frozen at issue: the recipient as addressed that day.
    recipient_name = models.CharField(max_length=200, blank=True)
    recipient_address = models.TextField(blank=True)
    issued_on = models.DateField(null=True, blank=True)
    issued_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )

    # Outcome (not content): may change after issue, through transitions only.
    complied_on = models.DateField(null=True, blank=True)
    compliance_note = models.TextField(blank=True)
    not_complied_on = models.DateField(null=True, blank=True)
    escalated_on = models.DateField(null=True, blank=True)
    escalation_note = models.TextField(blank=True)
    withdrawn_on = models.DateField(null=True, blank=True)
    withdrawn_reason = models.TextField(blank=True)
    superseded_on = models.DateField(null=True, blank=True)

    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = "notice of violation"
        verbose_name_plural = "notices of violation"
        permissions = [("issue_notice", "Can issue notices of violation")]

    def __str__(self):
        return f"NOV-{self.pk or 'new'} ({self.case})"

    def get_absolute_url(self) -> str:
        return reverse("enforcement:notice_detail", args=[self.pk])

    # --- freezing --------------------------------------------------------------
    @classmethod
    def from_db(cls, db, field_names, values):
        instance = super().from_db(db, field_names, values)
        instance._loaded = dict(zip(field_names, values, strict=False))
        return instance

    def frozen_changes(self) -> list[str]:
        loaded = getattr(self, "_loaded", None)
        if not loaded or loaded.get("status") == NoticeStatus.DRAFT:
            return []
        return [
            name
            for name in self.FROZEN_FIELDS
            if name in loaded and getattr(self, name) != loaded[name]
        ]

    def save(self, *args, **kwargs):
        changed = self.frozen_changes()
        if changed:
            raise NoticeFrozenError(
                "An issued notice of violation cannot be changed (%(fields)s); "
                "issue a correction that supersedes it.",
                params={"fields": ", ".join(changed)},
            )
        super().save(*args, **kwargs)

    @property
    def is_frozen(self) -> bool:
        return self.status != NoticeStatus.DRAFT

    # --- reads -------------------------------------------------------------
    def requirement_kinds(self) -> set[str]:
        return set(self.requirements.values_list("kind", flat=True))

    def requires_remediation(self) -> bool:
        return RequirementKind.ABATEMENT in self.requirement_kinds()

    def requires_fine(self) -> bool:
        return RequirementKind.FINE in self.requirement_kinds()

    def deadlines(self):
        return Deadline.objects.filter(
            content_type=ContentType.objects.get_for_model(type(self)),
            object_id=self.pk,
        )

    def compliance_deadline(self) -> Deadline | None:
        """The date compliance is due: five business days after a decision
        upholding the SMO (R-COR-1), else the last of the dates the notice
        requires compliance by (the remediation deadline R-NOV-2 and each
        requirement's own date R-NOV-1), else the last day to appeal (R-APL-1),
        after which the order stands. (The weeks of continued violation count
        from the notice's own dates only: enforcement.penalties.) None once the
        Board modified the notice on appeal: its requirements no longer stand as
        issued, the superseding notice's own dates govern."""
        if self.board_modification() is not None:
            return None
        loaded = getattr(self, "unwaived_deadlines", None)
        if loaded is None:
            loaded = list(
                self.deadlines()
                .exclude(status__in=CLOSED_WITHOUT_DUTY)
                .order_by("-due_date", "-id")
            )
        # `loaded` is latest due first.
        for rule_ids in (("R-COR-1",), COMPLIANCE_RULES, ("R-APL-1",)):
            found = next((d for d in loaded if d.rule_id in rule_ids), None)
            if found is not None:
                return found
        return None

    def required_compliance_deadlines(self) -> list[Deadline]:
        """The stored dates this notice itself requires compliance by (R-NOV-2
        and R-NOV-1), met or open, not waived; latest due first."""
        loaded = getattr(self, "unwaived_deadlines", None)
        if loaded is None:
            loaded = list(
                self.deadlines()
                .exclude(status__in=CLOSED_WITHOUT_DUTY)
                .order_by("-due_date", "-id")
            )
        return [d for d in loaded if d.rule_id in COMPLIANCE_RULES]

    # --- what may be done with it (the one home of each rule) -----------------
    def can_be_appealed(self) -> bool:
        """Whether an appeal of this notice may be recorded (§ 132-14, R-APL-1):
        it is in force and not escalated, and no appeal of it is pending or
        decided (a withdrawn appeal leaves the way open). Never refused for
        lateness: a late appeal is recorded and flagged; the Board decides.
        `NoticeOfViolation.objects.appealable()` is the same rule as a query."""
        if self.status not in APPEALABLE:
            return False
        barring = _appeals_that_bar_another()
        return not any(a.status in barring for a in self._appeals())

    def can_be_corrected(self) -> bool:
        """A notice in force, not yet corrected, may be corrected by a new notice
        that supersedes it when issued."""
        return (
            self.status in CORRECTABLE
            and not NoticeOfViolation.objects.filter(supersedes=self).exists()
        )

    def can_record_service(self) -> bool:
        """Service is recorded for an issued notice that was not superseded."""
        return self.is_frozen and self.status != NoticeStatus.SUPERSEDED

    def _appeals(self):
        if "appeals" in getattr(self, "_prefetched_objects_cache", {}):
            return list(self.appeals.all())
        return list(self.appeals.only("status", "decision", "decided_on"))

    def board_modification(self):
        """The appeal in which the Board of Trustees modified this notice
        (§ 132-14), or None. After it the requirements that stand are those of
        the notice that supersedes this one, with that notice's own dates: the
        five business days of R-COR-1 run only from a decision "upholding" the
        SMO (§ 132-15 A), so none runs on this notice."""
        return next((a for a in self._appeals() if a.modifies()), None)

    def carries_out_board_modification(self):
        """For a notice that supersedes one the Board modified on appeal: that
        appeal (the decision this notice carries out), else None."""
        if self.supersedes_id is None:
            return None
        return self.supersedes.board_modification()

    def pending_appeals(self):
        from .appeals import AppealStatus

        return self.appeals.filter(
            status__in=[AppealStatus.FILED, AppealStatus.HEARING_SCHEDULED]
        )

    # --- the appeal corrective measures wait for (§ 132-14, § 132-15 A) -------
    def last_day_to_appeal(self) -> Deadline | None:
        """The stored R-APL-1 deadline the notice printed (open, or met by an
        appeal; not waived or replaced)."""
        loaded = getattr(self, "unwaived_deadlines", None)
        if loaded is None:
            loaded = list(
                self.deadlines()
                .filter(rule_id="R-APL-1", status__in=STANDING_DATES)
                .order_by("-due_date", "-id")
            )
        return next(
            (
                d
                for d in loaded
                if d.rule_id == "R-APL-1" and d.status in STANDING_DATES
            ),
            None,
        )

    def pending_appeal(self):
        """The appeal of this notice pending before the Board, or None."""
        from .appeals import AppealStatus

        pending = (AppealStatus.FILED, AppealStatus.HEARING_SCHEDULED)
        if "appeals" in getattr(self, "_prefetched_objects_cache", {}):
            return next((a for a in self.appeals.all() if a.status in pending), None)
        return self.pending_appeals().order_by("filed_on", "pk").first()

    def appeal_open_or_pending(self, today=None) -> bool:
        """Whether the respondent may still appeal this notice (the 15 days of
        R-APL-1, to the stored last day to appeal) or an appeal of it is
        pending: while so, the SMO may not record it as not complied with nor
        ask access for corrective measures (§ 132-15 A follows the appeal of
        § 132-14). The one home of that rule: the guard `appeal_time_over`,
        the access request and the pages read it."""
        return bool(self.appeal_wait_words(today))

    def appeal_wait_words(self, today=None) -> str:
        """Why corrective measures wait for the appeal, and until when (the
        stored R-APL-1 date); '' when they need not."""
        from kernel.humanize import human_long_date

        appeal = self.pending_appeal()
        if appeal is not None:
            return (
                f"an appeal of this notice, filed {human_long_date(appeal.filed_on)}, is "
                "pending before the Board of Trustees; corrective measures can "
                "start after its decision"
            )
        window = self.last_day_to_appeal()
        today = today or timezone.localdate()
        if window is not None and today <= window.due_date:
            return (
                f"the respondent may appeal until {human_long_date(window.due_date)}; "
                "corrective measures can start after that"
            )
        return ""

    # --- conditions (side-effect free) ---------------------------------------
    @guard(
        "choose at least one requirement of {section}",
        form=False,
        rule="R-NOV-1",
        fix=lambda n: (reverse("enforcement:notice_edit", args=[n.pk]), "Edit draft"),
    )
    def has_requirements(self) -> bool:
        return self.requirements.exists()

    @guard(
        "give the recipient a mailing address",
        form=False,
        rule="R-NOV-1",
        fix=lambda n: (
            reverse("cases:party_edit", args=[n.case.number, n.recipient_id])
            + f"?next={n.get_absolute_url()}",
            "Edit party",
        ),
    )
    def has_recipient_address(self) -> bool:
        return bool(self.recipient.mailing_address.strip())

    @guard("set the remediation deadline (days) for abatement or restoration")
    def has_remediation_days_if_required(self) -> bool:
        return not self.requires_remediation() or bool(self.remediation_days)

    @guard("propose a fine within the range of the offense's tier")
    def fine_within_tier(self) -> bool:
        if not self.requires_fine():
            return self.proposed_fine is None
        if self.proposed_fine is None or self.fine_max is None:
            return False
        return (self.fine_min or 0) <= self.proposed_fine <= self.fine_max

    @guard("record the date of compliance")
    def has_complied_on(self) -> bool:
        return self.complied_on is not None

    @guard("wait until the compliance deadline has passed", form=False)
    def compliance_deadline_passed(self) -> bool:
        deadline = self.compliance_deadline()
        return deadline is not None and deadline.has_passed()

    @guard(
        "wait until the time to appeal is over and no appeal is pending",
        form=False,
        rule="R-APL-1",
        words=lambda notice: notice.appeal_wait_words(),
    )
    def appeal_time_over(self) -> bool:
        return not self.appeal_open_or_pending()

    @guard(
        "the Board modified this notice on appeal: the requirements that stand "
        "are those of the notice that supersedes it (Issue a correction), with "
        "its own dates",
        form=False,
        rule="R-COR-1",
    )
    def not_modified_by_board(self) -> bool:
        return self.board_modification() is None

    @guard("say why and what comes next")
    def has_escalation_note(self) -> bool:
        return bool(self.escalation_note.strip())

    @guard("give the reason for withdrawing the notice")
    def has_withdrawn_reason(self) -> bool:
        return bool(self.withdrawn_reason.strip())

    @guard("the Board must have reversed the SMO on appeal", form=False)
    def has_reversed_appeal(self) -> bool:
        from .appeals import Decision

        if "appeals" in getattr(self, "_prefetched_objects_cache", {}):
            return any(a.decision == Decision.REVERSED for a in self.appeals.all())
        return self.appeals.filter(decision=Decision.REVERSED).exists()

    @guard("issue the correcting notice first", form=False)
    def has_issued_replacement(self) -> bool:
        replacement = getattr(self, "superseded_by", None)
        return replacement is not None and replacement.status != NoticeStatus.DRAFT

    # --- transitions -------------------------------------------------------
    @transition(
        status,
        source=NoticeStatus.DRAFT,
        target=NoticeStatus.ISSUED,
        permission=smo,
        conditions=[
            has_requirements,
            has_recipient_address,
            has_remediation_days_if_required,
            fine_within_tier,
        ],
        custom={
            "label": "Issue the notice",
            "rule_id": "R-NOV-1",
            "form": "issue",
            "binding": True,
            "confirm": "notice_issue",
        },
    )
    def issue(self):
        self.recipient_name = self.recipient.name
        self.recipient_address = self.recipient.mailing_address
        if self.issued_on is None:
            self.issued_on = timezone.localdate()

    @transition(
        status,
        source=[NoticeStatus.ISSUED, NoticeStatus.NOT_COMPLIED],
        target=NoticeStatus.COMPLIED,
        permission=smo,
        conditions=[has_complied_on],
        custom={"label": "Record compliance", "rule_id": "R-NOV-1", "form": "comply"},
    )
    def record_compliance(self):
        pass

    @transition(
        status,
        source=NoticeStatus.ISSUED,
        target=NoticeStatus.NOT_COMPLIED,
        permission=smo,
        conditions=[
            compliance_deadline_passed,
            appeal_time_over,
            not_modified_by_board,
        ],
        custom={"label": "Record not complied", "rule_id": "R-COR-1", "form": "plain"},
    )
    def record_noncompliance(self):
        self.not_complied_on = timezone.localdate()

    @transition(
        status,
        source=NoticeStatus.NOT_COMPLIED,
        target=NoticeStatus.ESCALATED,
        permission=smo,
        conditions=[not_modified_by_board, has_escalation_note],
        custom={"label": "Escalate", "rule_id": "R-COR-1", "form": "escalate"},
    )
    def escalate(self):
        self.escalated_on = timezone.localdate()

    @transition(
        status,
        source=[NoticeStatus.ISSUED, NoticeStatus.NOT_COMPLIED],
        target=NoticeStatus.WITHDRAWN,
        permission=smo,
        conditions=[has_withdrawn_reason],
        custom={
            "label": "Withdraw the notice",
            "form": "withdraw",
            "binding": True,
            "confirm": "notice_withdraw",
        },
    )
    def withdraw(self):
        self.withdrawn_on = timezone.localdate()

    @transition(
        status,
        source=[NoticeStatus.ISSUED, NoticeStatus.NOT_COMPLIED],
        target=NoticeStatus.WITHDRAWN,
        permission=smo_or_clerk,
        conditions=[has_reversed_appeal],
        custom={"label": "Withdrawn on appeal", "rule_id": "R-APL-3", "hidden": True},
    )
    def withdraw_on_reversal(self):
        self.withdrawn_on = timezone.localdate()
        if not self.withdrawn_reason:
            self.withdrawn_reason = "The Board of Trustees reversed the SMO on appeal."

    @transition(
        status,
        source=[NoticeStatus.ISSUED, NoticeStatus.NOT_COMPLIED],
        target=NoticeStatus.SUPERSEDED,
        permission=smo,
        conditions=[has_issued_replacement],
        custom={"label": "Superseded", "rule_id": "R-NOV-1", "hidden": True},
    )
    def supersede(self):
        self.superseded_on = timezone.localdate()

    @transition(
        status,
        source=[NoticeStatus.ISSUED, NoticeStatus.NOT_COMPLIED],
        target=NoticeStatus.CLOSED,
        permission=smo,
        custom={"label": "Closed with the case", "hidden": True},
    )
    def close_with_case(self):
        """The SMO recorded the case resolved: the notice asks nothing more of
        the respondent (its clocks end: cases.clocks)."""

    # --- what its clocks count (cases.clocks) ------------------------------------
    def remediation_period(self) -> dict:
        """The remediation period the notice sets (R-NOV-2)."""
        return {"days": self.remediation_days}

    def requirement_clocks(self) -> list[tuple[str, str, dict]]:
        """One clock per requirement with its own period (R-NOV-1): (purpose,
        label, period)."""
        return [
            (
                requirement.kind,
                f"Compliance with requirement ({requirement.number}) of the "
                "notice of violation",
                {"days": requirement.compliance_days},
            )
            for requirement in self.requirements.exclude(compliance_days=None)
        ]


class NoticeRequirement(models.Model):
    """One requirement of § 132-13 A on a notice, with its particulars."""

    notice = models.ForeignKey(
        NoticeOfViolation, on_delete=models.PROTECT, related_name="requirements"
    )
    kind = models.CharField(max_length=16, choices=RequirementKind.choices)
    particulars = models.TextField()
    compliance_days = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text=(
            "Days from issuance to comply with this requirement (R-NOV-1): "
            "elimination, monitoring or BMPs only."
        ),
    )

    class Meta:
        ordering = ["notice", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["notice", "kind"], name="one_requirement_kind_per_notice"
            ),
            models.CheckConstraint(
                condition=models.Q(compliance_days__isnull=True)
                | models.Q(
                    kind__in=[k.value for k in REQUIREMENTS_WITH_DAYS],
                    compliance_days__gte=1,
                    compliance_days__lte=MAX_COMPLIANCE_DAYS,
                ),
                name="requirement_compliance_days_where_allowed",
            ),
        ]

    def __str__(self):
        return self.get_kind_display()

    def save(self, *args, **kwargs):
        self._refuse_if_frozen()
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        self._refuse_if_frozen()
        return super().delete(*args, **kwargs)

    @property
    def number(self) -> int:
        return RequirementKind.number(self.kind)

    def _refuse_if_frozen(self):
        status = (
            NoticeOfViolation.objects.filter(pk=self.notice_id)
            .values_list("status", flat=True)
            .first()
        )
        if status is not None and status != NoticeStatus.DRAFT:
            raise NoticeFrozenError(
                "The requirements of an issued notice cannot be changed; "
                "issue a correction that supersedes it."
            )


class ServiceRecord(models.Model):
    """How and when an issued notice was served, and whether the mail came back."""

    class Method(models.TextChoices):
        PERSONAL = "personal", "Personal delivery"
        CERTIFIED = "certified", "Certified mail"
        POSTING = "posting", "Posting on the premises"

    notice = models.ForeignKey(
        NoticeOfViolation, on_delete=models.PROTECT, related_name="service_records"
    )
    method = models.CharField(max_length=12, choices=Method.choices)
    served_on = models.DateField()
    article_number = models.CharField(
        "certified mail article number", max_length=40, blank=True
    )
    served_by = models.CharField(max_length=200, blank=True)
    where = models.CharField(
        max_length=200, blank=True, help_text="Where it was delivered or posted."
    )
    # The outcome of certified mail (enforcement.models.mail): one or neither.
    delivered_on = models.DateField(
        null=True, blank=True, help_text="From the green card or USPS tracking."
    )
    returned_on = models.DateField(null=True, blank=True)
    return_reason = models.CharField(max_length=200, blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    recorded_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["notice", "served_on", "id"]
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(method="certified") | ~models.Q(article_number=""),
                name="certified_mail_has_article_number",
                # Should a form ever let it through: plain words, not the
                # constraint's name (the forms and services refuse first).
                violation_error_message="Give the certified mail article number.",
            )
        ]

    def __str__(self):
        return f"{self.get_method_display()} {human_short_date(self.served_on)}"

    @property
    def returned(self) -> bool:
        return self.returned_on is not None

    # Certified mail whose outcome (delivered, or returned unclaimed or refused)
    # is not recorded yet: the predicate, and the same as a query (the queue's).
    @classmethod
    def awaiting_delivery_outcome(cls) -> models.Q:
        return models.Q(
            method="certified", delivered_on__isnull=True, returned_on__isnull=True
        )

    @property
    def awaits_delivery_outcome(self) -> bool:
        return (
            self.method == self.Method.CERTIFIED
            and self.delivered_on is None
            and self.returned_on is None
        )

    PAPER = "notice"  # enforcement.models.mail.RETURN_MEANS

    @property
    def mailed_on(self):
        return self.served_on

    def delivery_words(self) -> str:
        from .mail import outcome_words

        return outcome_words(
            self.PAPER, self.delivered_on, self.returned_on, self.return_reason
        )


class ServiceCorrection(models.Model):
    """A correction of a wrongly recorded service of a notice (issue 26): the
    service record holds the corrected values; this row keeps what it said
    before, why it was corrected, by whom and when. Never changed or deleted:
    the record's corrections are its history."""

    record = models.ForeignKey(
        ServiceRecord, on_delete=models.PROTECT, related_name="corrections"
    )
    old_method = models.CharField(max_length=12, choices=ServiceRecord.Method.choices)
    old_served_on = models.DateField()
    old_article_number = models.CharField(max_length=40, blank=True)
    old_served_by = models.CharField(max_length=200, blank=True)
    old_where = models.CharField(max_length=200, blank=True)
    reason = models.TextField()
    corrected_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+"
    )
    corrected_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["record", "corrected_at", "id"]

    def __str__(self):
        return (
            f"Correction of service {self.record_id} "
            f"({human_short_date(self.corrected_at)})"
        )

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise ValueError("A service record's correction is kept as written.")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ValueError("A service record's correction is never deleted.")

    def old_words(self) -> str:
        """What the record said before this correction, in words."""
        words = f"{self.get_old_method_display()} on {human_date(self.old_served_on)}"
        if self.old_article_number:
            words += f", article {self.old_article_number}"
        if self.old_where:
            words += f", {self.old_where}"
        return words
