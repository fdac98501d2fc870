"""Alternative remedies in lieu of a civil penalty (§ 132-17, R-ALT-1, R-ALT-2)."""

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django_fsm import FSMField, transition

from cases.models import Case, Party

from .base import FlowModel, attorney, building_inspector, guard, smo


class AlternativeStatus(models.TextChoices):
    PROPOSED = "proposed", "Proposed; awaiting the Municipal Attorney"
    RECOMMENDED = "recommended", "Recommended; awaiting the Building Inspector"
    CONCURRED = "concurred", "Approved; remedies under way"
    COMPLETED = "completed", "Completed"
    DECLINED = "declined", "Declined"


class AlternativeKind(models.TextChoices):
    """§ 132-17 B(1)-(3)."""

    WORKSHOP = "workshop", "Attendance at compliance workshops"
    STENCILING = "stenciling", "Storm drain stenciling or storm drain marking"
    CLEANUP = "cleanup", "River, stream or creek cleanup activities"


def previous_offenses(party_id, case_id, before):
    """The offenses of the party on other cases committed before `before`: the
    offense-record part of criterion (2) of § 132-17 A (the whole history is
    enforcement.history.violation_history)."""
    from .offenses import OffenseRecord

    return (
        OffenseRecord.objects.filter(party_id=party_id, committed_on__lt=before)
        .exclude(outcome__in=OffenseRecord.NOT_COUNTED)
        .exclude(case_id=case_id)
        .order_by("committed_on")
    )


class AlternativeRemedy(FlowModel):
    """Alternative remedies for a violator in lieu of a civil penalty, on the
    recommendation of the Municipal Attorney and the concurrence of the Building
    Inspector, where the five criteria of § 132-17 A are met."""

    flow = "alternative"

    case = models.ForeignKey(
        Case, on_delete=models.PROTECT, related_name="alternative_remedies"
    )
    party = models.ForeignKey(Party, on_delete=models.PROTECT, related_name="+")
    status = FSMField(
        max_length=12,
        choices=AlternativeStatus.choices,
        default=AlternativeStatus.PROPOSED,
        protected=True,
        db_index=True,
    )
    violation_date = models.DateField()
    # Criteria (1), (3), (4), (5) are findings; (2) is computed from the history.
    unintentional = models.BooleanField("(1) the violation was unintentional")
    minimal_damage = models.BooleanField("(3) environmental damage was minimal")
    acted_quickly = models.BooleanField("(4) the violator acted quickly to remedy it")
    cooperated = models.BooleanField(
        "(5) the violator cooperated in investigation and resolution"
    )
    findings = models.TextField(help_text="The facts behind the criteria.")
    history_at_recommendation = models.TextField(
        blank=True, help_text="Criterion (2) as computed when the attorney signed."
    )

    recommended_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    recommended_at = models.DateTimeField(null=True, blank=True)
    recommendation_note = models.TextField(blank=True)
    concurred_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    concurred_at = models.DateTimeField(null=True, blank=True)
    concurrence_note = models.TextField(blank=True)
    declined_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    declined_at = models.DateTimeField(null=True, blank=True)
    declined_reason = models.TextField(blank=True)
    completed_on = models.DateField(null=True, blank=True)

    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at"]
        verbose_name_plural = "alternative remedies"

    def __str__(self):
        return f"Alternative remedies {self.pk} ({self.case})"

    def get_absolute_url(self):
        return reverse(
            "enforcement:remedy_detail", kwargs={"flow": self.flow, "pk": self.pk}
        )

    @property
    def items_may_be_completed(self) -> bool:
        """The chosen remedies are carried out once both sign-offs are given."""
        return self.status == AlternativeStatus.CONCURRED

    def items_fix(self):
        return (
            f"{self.get_absolute_url()}#remedies",
            "Record each remedy's completion on this page",
        )

    def previous_offenses(self):
        return previous_offenses(self.party_id, self.case_id, self.violation_date)

    def violation_history(self):
        """Criterion (2): the violator's previous violations of the article —
        confirmed violations, notices standing, court orders and offenses
        (enforcement.history)."""
        from ..history import violation_history

        return violation_history(
            party=self.party, case=self.case, before=self.violation_date
        )

    def criteria(self) -> list[tuple[str, bool, str]]:
        """(label, met, how we know) for the five criteria, in the law's order."""
        history = self.violation_history()
        typed = "Finding of the Stormwater Management Officer."
        return [
            (
                self._meta.get_field("unintentional").verbose_name,
                self.unintentional,
                typed,
            ),
            (
                "(2) the violator has no history of previous violations",
                history.clean,
                history.explanation,
            ),
            (
                self._meta.get_field("minimal_damage").verbose_name,
                self.minimal_damage,
                typed,
            ),
            (
                self._meta.get_field("acted_quickly").verbose_name,
                self.acted_quickly,
                typed,
            ),
            (self._meta.get_field("cooperated").verbose_name, self.cooperated, typed),
        ]

    # --- conditions ------------------------------------------------------------
    @guard(
        "all five criteria for alternative remedies must be met (see the criteria "
        "on this page)",
        form=False,
        rule="R-ALT-1",
    )
    def criteria_met(self) -> bool:
        return all(met for _, met, _ in self.criteria())

    @guard(
        "the proposal must name at least one of the alternative remedies",
        form=False,
        rule="R-ALT-2",
    )
    def has_items(self) -> bool:
        return self.items.exists()

    @guard(
        "record the completion of every remedy chosen",
        form=False,
        rule="R-ALT-2",
        fix=lambda remedy: remedy.items_fix(),
    )
    def items_completed(self) -> bool:
        return (
            self.items.exists()
            and not self.items.filter(completed_on__isnull=True).exists()
        )

    @guard("give the reason", form=True, rule="R-ALT-1")
    def has_declined_reason(self) -> bool:
        return bool(self.declined_reason.strip())

    # --- transitions -----------------------------------------------------------
    @transition(
        status,
        source=AlternativeStatus.PROPOSED,
        target=AlternativeStatus.RECOMMENDED,
        permission=attorney,
        conditions=[criteria_met, has_items],
        custom={
            "label": "Recommend (Municipal Attorney)",
            "rule_id": "R-ALT-1",
            "form": "recommend",
            "binding": True,
            "confirm": "alternative_recommend",
        },
    )
    def recommend(self):
        self.recommended_at = timezone.now()

    @transition(
        status,
        source=AlternativeStatus.PROPOSED,
        target=AlternativeStatus.DECLINED,
        permission=attorney,
        conditions=[has_declined_reason],
        custom={
            "label": "Decline to recommend",
            "rule_id": "R-ALT-1",
            "form": "decline",
        },
    )
    def decline_recommendation(self):
        self.declined_at = timezone.now()

    @transition(
        status,
        source=AlternativeStatus.RECOMMENDED,
        target=AlternativeStatus.CONCURRED,
        permission=building_inspector,
        conditions=[criteria_met],
        custom={
            "label": "Concur (Building Inspector)",
            "rule_id": "R-ALT-1",
            "form": "concur",
            "binding": True,
            "confirm": "alternative_concur",
        },
    )
    def concur(self):
        self.concurred_at = timezone.now()

    @transition(
        status,
        source=AlternativeStatus.RECOMMENDED,
        target=AlternativeStatus.DECLINED,
        permission=building_inspector,
        conditions=[has_declined_reason],
        custom={"label": "Decline to concur", "rule_id": "R-ALT-1", "form": "decline"},
    )
    def decline_concurrence(self):
        self.declined_at = timezone.now()

    @transition(
        status,
        source=AlternativeStatus.CONCURRED,
        target=AlternativeStatus.COMPLETED,
        permission=smo,
        conditions=[items_completed],
        custom={"label": "Record completion", "rule_id": "R-ALT-2", "form": "plain"},
    )
    def complete(self):
        self.completed_on = timezone.localdate()


class AlternativeRemedyItem(models.Model):
    """One remedy chosen of § 132-17 B, and its completion."""

    remedy = models.ForeignKey(
        AlternativeRemedy, on_delete=models.PROTECT, related_name="items"
    )
    kind = models.CharField(max_length=12, choices=AlternativeKind.choices)
    details = models.CharField(max_length=300, blank=True)
    completed_on = models.DateField(null=True, blank=True)
    completion_note = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["remedy", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["remedy", "kind"], name="one_alternative_kind_per_remedy"
            )
        ]

    def __str__(self):
        return self.get_kind_display()
