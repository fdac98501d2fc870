"""Corrective measures (§ 132-15, R-COR-1/2), summary abatement of a nuisance
(§ 132-18, R-NUI-1) and referral for an injunction (§ 132-16, R-INJ-1).
Remedies are cumulative (§ 132-19, R-REM-1): a case may carry any number."""

from decimal import Decimal

from django.conf import settings
from django.db import models
from django.db.models import Sum
from django.urls import reverse
from django.utils import timezone
from django_fsm import FSMField, transition

from cases.models import Case, Party

from .base import FlowModel, guard, smo
from .notices import NoticeOfViolation


class PerformedBy(models.TextChoices):
    VILLAGE = "village", "The Village"
    AGENCY = "agency", "A governmental agency"
    CONTRACTOR = "contractor", "A contractor"


class _Recorded(models.Model):
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        abstract = True


def _remedy_url(instance, anchor=""):
    url = reverse(
        "enforcement:remedy_detail", kwargs={"flow": instance.flow, "pk": instance.pk}
    )
    return f"{url}#{anchor}" if anchor else url


def _costs_fix(instance):
    return _remedy_url(instance, "costs"), "Itemize a cost on this page"


class _Invoiced(models.Model):
    """Work done at the violator's expense, invoiced and paid or not.

    The invoice is the total of the itemized costs, numbered by the office
    (enforcement.documents.corrective.invoice_number) when it is issued; payments are
    recorded one by one on the ledger (the `ledger` app, through
    enforcement.charges) until they cover it."""

    INVOICED_STATES = ("invoiced", "partly_paid", "paid")

    performed_by = models.CharField(
        max_length=12, choices=PerformedBy.choices, blank=True
    )
    performer_name = models.CharField(max_length=200, blank=True)
    work_description = models.TextField(blank=True)
    work_completed_on = models.DateField(null=True, blank=True)
    invoice_number = models.CharField(max_length=40, blank=True)
    invoice_amount = models.DecimalField(
        max_digits=10, decimal_places=2, null=True, blank=True
    )
    invoiced_on = models.DateField(null=True, blank=True)
    paid_on = models.DateField(null=True, blank=True)

    class Meta:
        abstract = True

    def get_absolute_url(self):
        return _remedy_url(self)

    def total_cost(self) -> Decimal:
        return self.cost_items.aggregate(total=Sum("amount"))["total"] or Decimal(0)

    @property
    def costs_may_change(self) -> bool:
        """Costs may be itemized until the invoice is sent."""
        return self.status not in self.INVOICED_STATES

    @guard("say who did the work, what was done and when it was completed", form=True)
    def has_work_record(self) -> bool:
        return bool(
            self.performed_by
            and self.work_description.strip()
            and self.work_completed_on
        )

    @guard(
        "itemize the costs of the work first (the invoice is their total)",
        form=False,
        fix=_costs_fix,
    )
    def has_cost_items(self) -> bool:
        return self.cost_items.exists()

    def amount_paid(self) -> Decimal:
        """What was paid of the invoice: the ledger's payments of its charge, not
        voided (enforcement.charges; issue 27)."""
        from ..charges import remedy_paid

        return remedy_paid(self)

    def balance_due(self) -> Decimal:
        """What remains to be paid of the invoice (0 before it is issued)."""
        if self.invoice_amount is None:
            return Decimal(0)
        return max(self.invoice_amount - self.amount_paid(), Decimal(0))

    @guard(
        "the invoice needs its number, its date and, as its amount, the total of "
        "the itemized costs",
        form=True,
    )
    def has_invoice(self) -> bool:
        return bool(
            self.invoice_number.strip()
            and self.invoiced_on
            and self.invoice_amount is not None
            and self.invoice_amount == self.total_cost()
        )

    @guard(
        "the payments recorded do not yet cover the invoice: give the date, the "
        "amount and how it was paid",
        form=True,
    )
    def has_paid_in_full(self) -> bool:
        return (
            self.invoice_amount is not None
            and self.paid_on is not None
            and self.amount_paid() >= self.invoice_amount
        )

    @guard("the invoice is paid in full already", form=True)
    def has_balance_left(self) -> bool:
        return self.invoice_amount is not None and (
            self.amount_paid() < self.invoice_amount
        )

    @guard("a payment not voided remains on the invoice", form=False)
    def has_nothing_paid(self) -> bool:
        return self.invoice_amount is not None and self.amount_paid() == 0


class CorrectiveStatus(models.TextChoices):
    ACCESS_REQUESTED = "access_requested", "Owner's permission for access requested"
    ACCESS_GRANTED = "access_granted", "Access granted"
    ACCESS_REFUSED = "access_refused", "Access refused"
    WARRANT_OBTAINED = "warrant_obtained", "Warrant obtained"
    ORDER_OBTAINED = "order_obtained", "Court order obtained"
    WORK_DONE = "work_done", "Work done"
    INVOICED = "invoiced", "Invoiced to the discharger"
    PARTLY_PAID = "partly_paid", "Invoice partly paid"
    PAID = "paid", "Paid"


class CorrectiveAction(_Invoiced, _Recorded, FlowModel):
    """The SMO's corrective measures after a notice was not complied with
    (§ 132-15): the request for the owner's permission for access; if refused, a
    warrant and a court order; the work done and its cost charged to the
    discharger."""

    flow = "corrective"

    case = models.ForeignKey(
        Case, on_delete=models.PROTECT, related_name="corrective_actions"
    )
    notice = models.ForeignKey(
        NoticeOfViolation, on_delete=models.PROTECT, related_name="corrective_actions"
    )
    # § 132-15 A: "the SMO shall request the owner's permission for access".
    # The letter is addressed to this owner (a party named owner on the case),
    # with a copy to the notice's recipient when another person (`copy_to`).
    # Empty only on a request recorded before the owner was (issue 25).
    owner = models.ForeignKey(
        Party,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="The owner of the premises whose permission for access is asked.",
    )
    status = FSMField(
        max_length=20,
        choices=CorrectiveStatus.choices,
        default=CorrectiveStatus.ACCESS_REQUESTED,
        protected=True,
    )
    request_letter_on = models.DateField(
        help_text="The date of the letter asking the owner's permission for access."
    )
    response_on = models.DateField(null=True, blank=True)
    response_note = models.TextField(blank=True)
    warrant_court = models.CharField(max_length=200, blank=True)
    warrant_applied_on = models.DateField(null=True, blank=True)
    warrant_issued_on = models.DateField(null=True, blank=True)
    order_court = models.CharField(max_length=200, blank=True)
    order_on = models.DateField(null=True, blank=True)
    order_terms = models.TextField(blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self):
        return f"Corrective measures {self.pk} ({self.case})"

    @property
    def copy_to(self) -> Party | None:
        """The respondent, the notice's recipient, when another person than the
        owner: the letter names them on its cc line and reaches them as it
        reaches the owner."""
        notice = self.notice
        if notice.recipient_id is None or notice.recipient_id == self.owner_id:
            return None
        return notice.recipient

    @guard("give the date of the owner's answer", form=True, rule="R-COR-1")
    def has_response(self) -> bool:
        return self.response_on is not None

    @guard(
        "give the court and the dates the warrant was sought and issued",
        form=True,
        rule="R-COR-2",
    )
    def has_warrant(self) -> bool:
        return bool(
            self.warrant_court.strip()
            and self.warrant_applied_on
            and self.warrant_issued_on
        )

    @guard(
        "give the court, the date and the terms of the order", form=True, rule="R-COR-2"
    )
    def has_order(self) -> bool:
        return bool(self.order_court.strip() and self.order_on and self.order_terms)

    @transition(
        status,
        source=CorrectiveStatus.ACCESS_REQUESTED,
        target=CorrectiveStatus.ACCESS_GRANTED,
        permission=smo,
        conditions=[has_response],
        custom={"label": "Access granted", "rule_id": "R-COR-1", "form": "response"},
    )
    def record_access_granted(self):
        pass

    @transition(
        status,
        source=CorrectiveStatus.ACCESS_REQUESTED,
        target=CorrectiveStatus.ACCESS_REFUSED,
        permission=smo,
        conditions=[has_response],
        custom={"label": "Access refused", "rule_id": "R-COR-2", "form": "response"},
    )
    def record_access_refused(self):
        pass

    @transition(
        status,
        source=CorrectiveStatus.ACCESS_REFUSED,
        target=CorrectiveStatus.WARRANT_OBTAINED,
        permission=smo,
        conditions=[has_warrant],
        custom={"label": "Record the warrant", "rule_id": "R-COR-2", "form": "warrant"},
    )
    def record_warrant(self):
        pass

    @transition(
        status,
        source=CorrectiveStatus.WARRANT_OBTAINED,
        target=CorrectiveStatus.ORDER_OBTAINED,
        permission=smo,
        conditions=[has_order],
        custom={
            "label": "Record the court order",
            "rule_id": "R-COR-2",
            "form": "order",
        },
    )
    def record_order(self):
        pass

    @transition(
        status,
        source=[CorrectiveStatus.ACCESS_GRANTED, CorrectiveStatus.ORDER_OBTAINED],
        target=CorrectiveStatus.WORK_DONE,
        permission=smo,
        conditions=[_Invoiced.has_work_record],
        custom={"label": "Record the work done", "rule_id": "R-COR-2", "form": "work"},
    )
    def record_work(self):
        pass

    @transition(
        status,
        source=CorrectiveStatus.WORK_DONE,
        target=CorrectiveStatus.INVOICED,
        permission=smo,
        conditions=[_Invoiced.has_cost_items, _Invoiced.has_invoice],
        custom={
            # One click: the office numbers the invoice, its amount is the total
            # of the costs, and its document is issued with it.
            "label": "Issue the invoice",
            "rule_id": "R-COR-2",
            "binding": True,
            "confirm": "invoice_issue",
        },
    )
    def invoice(self):
        pass

    @transition(
        status,
        source=[CorrectiveStatus.INVOICED, CorrectiveStatus.PARTLY_PAID],
        target=CorrectiveStatus.PAID,
        permission=smo,
        conditions=[_Invoiced.has_paid_in_full],
        # Payments are recorded on the ledger (issue 27), which fires this.
        custom={"label": "Paid in full", "rule_id": "R-COR-2", "hidden": True},
    )
    def record_payment(self):
        pass

    @transition(
        status,
        source=[CorrectiveStatus.INVOICED, CorrectiveStatus.PARTLY_PAID],
        target=CorrectiveStatus.PARTLY_PAID,
        permission=smo,
        conditions=[_Invoiced.has_balance_left],
        # A payment of less than what remains (on the ledger) takes this edge.
        custom={"label": "Part payment", "rule_id": "R-COR-2", "hidden": True},
    )
    def record_part_payment(self):
        pass

    # A payment voided on the ledger (issue 27): the invoice is again partly
    # paid, or unpaid; the ledger fires these, never a person.
    @transition(
        status,
        source=CorrectiveStatus.PAID,
        target=CorrectiveStatus.PARTLY_PAID,
        permission=smo,
        conditions=[_Invoiced.has_balance_left],
        custom={"label": "Payment voided", "rule_id": "R-COR-2", "hidden": True},
    )
    def reopen_part_paid(self):
        self.paid_on = None

    @transition(
        status,
        source=[CorrectiveStatus.PAID, CorrectiveStatus.PARTLY_PAID],
        target=CorrectiveStatus.INVOICED,
        permission=smo,
        conditions=[_Invoiced.has_nothing_paid],
        custom={"label": "Payment voided", "rule_id": "R-COR-2", "hidden": True},
    )
    def reopen_unpaid(self):
        self.paid_on = None


class CostItem(models.Model):
    """One itemized cost of corrective measures or a summary abatement."""

    corrective_action = models.ForeignKey(
        CorrectiveAction,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="cost_items",
    )
    abatement = models.ForeignKey(
        "enforcement.NuisanceAbatement",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="cost_items",
    )
    description = models.CharField(max_length=200)
    amount = models.DecimalField(max_digits=10, decimal_places=2)
    incurred_on = models.DateField()

    class Meta:
        ordering = ["incurred_on", "id"]
        constraints = [
            models.CheckConstraint(
                condition=(
                    models.Q(corrective_action__isnull=False, abatement__isnull=True)
                    | models.Q(corrective_action__isnull=True, abatement__isnull=False)
                ),
                name="cost_item_belongs_to_one_remedy",
            ),
            models.CheckConstraint(
                condition=models.Q(amount__gt=0), name="cost_item_amount_positive"
            ),
        ]

    def __str__(self):
        return f"{self.description}: ${self.amount}"


class AbatementStatus(models.TextChoices):
    DECLARED = "declared", "Declared a nuisance"
    ABATED = "abated", "Summarily abated"
    INVOICED = "invoiced", "Invoiced to the violator"
    PARTLY_PAID = "partly_paid", "Invoice partly paid"
    PAID = "paid", "Paid"


class NuisanceAbatement(_Invoiced, _Recorded, FlowModel):
    """A condition in violation deemed a nuisance and summarily abated or
    restored at the violator's expense (§ 132-18, R-NUI-1)."""

    flow = "nuisance"

    case = models.ForeignKey(
        Case, on_delete=models.PROTECT, related_name="nuisance_abatements"
    )
    status = FSMField(
        max_length=12,
        choices=AbatementStatus.choices,
        default=AbatementStatus.DECLARED,
        protected=True,
    )
    condition_description = models.TextField(
        help_text="The condition that threatens public health, safety and welfare."
    )
    declared_on = models.DateField()

    class Meta:
        ordering = ["-created_at"]

    def __str__(self):
        return f"Nuisance abatement {self.pk} ({self.case})"

    @transition(
        status,
        source=AbatementStatus.DECLARED,
        target=AbatementStatus.ABATED,
        permission=smo,
        conditions=[_Invoiced.has_work_record],
        custom={"label": "Record the abatement", "rule_id": "R-NUI-1", "form": "work"},
    )
    def record_abatement(self):
        pass

    @transition(
        status,
        source=AbatementStatus.ABATED,
        target=AbatementStatus.INVOICED,
        permission=smo,
        conditions=[_Invoiced.has_cost_items, _Invoiced.has_invoice],
        custom={
            # One click: the office numbers the invoice, its amount is the total
            # of the costs, and its document is issued with it.
            "label": "Issue the invoice",
            "rule_id": "R-NUI-1",
            "binding": True,
            "confirm": "invoice_issue",
        },
    )
    def invoice(self):
        pass

    @transition(
        status,
        source=[AbatementStatus.INVOICED, AbatementStatus.PARTLY_PAID],
        target=AbatementStatus.PAID,
        permission=smo,
        conditions=[_Invoiced.has_paid_in_full],
        # Payments are recorded on the ledger (issue 27), which fires this.
        custom={"label": "Paid in full", "rule_id": "R-NUI-1", "hidden": True},
    )
    def record_payment(self):
        pass

    @transition(
        status,
        source=[AbatementStatus.INVOICED, AbatementStatus.PARTLY_PAID],
        target=AbatementStatus.PARTLY_PAID,
        permission=smo,
        conditions=[_Invoiced.has_balance_left],
        # A payment of less than what remains (on the ledger) takes this edge.
        custom={"label": "Part payment", "rule_id": "R-NUI-1", "hidden": True},
    )
    def record_part_payment(self):
        pass

    # A payment voided on the ledger (issue 27): the invoice is again partly
    # paid, or unpaid; the ledger fires these, never a person.
    @transition(
        status,
        source=AbatementStatus.PAID,
        target=AbatementStatus.PARTLY_PAID,
        permission=smo,
        conditions=[_Invoiced.has_balance_left],
        custom={"label": "Payment voided", "rule_id": "R-NUI-1", "hidden": True},
    )
    def reopen_part_paid(self):
        self.paid_on = None

    @transition(
        status,
        source=[AbatementStatus.PAID, AbatementStatus.PARTLY_PAID],
        target=AbatementStatus.INVOICED,
        permission=smo,
        conditions=[_Invoiced.has_nothing_paid],
        custom={"label": "Payment voided", "rule_id": "R-NUI-1", "hidden": True},
    )
    def reopen_unpaid(self):
        self.paid_on = None


class InjunctionStatus(models.TextChoices):
    REFERRED = "referred", "Referred to the Municipal Attorney"
    PETITIONED = "petitioned", "Petition filed in court"
    GRANTED = "granted", "Injunction granted"
    DENIED = "denied", "Injunction denied"
    WITHDRAWN = "withdrawn", "Referral withdrawn"


class InjunctionReferral(_Recorded, FlowModel):
    """The SMO's referral for a petition for a preliminary or permanent
    injunction (§ 132-16, R-INJ-1)."""

    flow = "injunction"

    class Kind(models.TextChoices):
        PRELIMINARY = "preliminary", "Preliminary injunction"
        PERMANENT = "permanent", "Permanent injunction"

    class Relief(models.TextChoices):
        RESTRAIN = (
            "restrain",
            "Restraining activities that would create further violations",
        )
        COMPEL = "compel", "Compelling abatement or remediation of the violation"

    case = models.ForeignKey(
        Case, on_delete=models.PROTECT, related_name="injunction_referrals"
    )
    status = FSMField(
        max_length=12,
        choices=InjunctionStatus.choices,
        default=InjunctionStatus.REFERRED,
        protected=True,
    )
    kind = models.CharField(max_length=12, choices=Kind.choices)
    relief = models.CharField(max_length=10, choices=Relief.choices)
    referred_on = models.DateField()
    referred_to = models.CharField(max_length=200, default="Municipal Attorney")
    grounds = models.TextField()
    court = models.CharField(max_length=200, blank=True)
    petition_filed_on = models.DateField(null=True, blank=True)
    decided_on = models.DateField(null=True, blank=True)
    outcome_note = models.TextField(blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self):
        return f"Injunction referral {self.pk} ({self.case})"

    def get_absolute_url(self):
        return _remedy_url(self)

    @guard(
        "give the court and the date the petition was filed", form=True, rule="R-INJ-1"
    )
    def has_petition(self) -> bool:
        return bool(self.court.strip() and self.petition_filed_on)

    @guard(
        "give the date of the court's decision and what it said",
        form=True,
        rule="R-INJ-1",
    )
    def has_outcome(self) -> bool:
        return bool(self.decided_on and self.outcome_note.strip())

    @guard("say why the referral is withdrawn", form=True)
    def has_outcome_note(self) -> bool:
        return bool(self.outcome_note.strip())

    @transition(
        status,
        source=InjunctionStatus.REFERRED,
        target=InjunctionStatus.PETITIONED,
        permission=smo,
        conditions=[has_petition],
        custom={"label": "Petition filed", "rule_id": "R-INJ-1", "form": "petition"},
    )
    def record_petition(self):
        pass

    @transition(
        status,
        source=InjunctionStatus.PETITIONED,
        target=InjunctionStatus.GRANTED,
        permission=smo,
        conditions=[has_outcome],
        custom={"label": "Injunction granted", "rule_id": "R-INJ-1", "form": "outcome"},
    )
    def record_granted(self):
        pass

    @transition(
        status,
        source=InjunctionStatus.PETITIONED,
        target=InjunctionStatus.DENIED,
        permission=smo,
        conditions=[has_outcome],
        custom={"label": "Injunction denied", "rule_id": "R-INJ-1", "form": "outcome"},
    )
    def record_denied(self):
        pass

    @transition(
        status,
        source=[InjunctionStatus.REFERRED, InjunctionStatus.PETITIONED],
        target=InjunctionStatus.WITHDRAWN,
        permission=smo,
        conditions=[has_outcome_note],
        custom={"label": "Withdraw the referral", "form": "note"},
    )
    def withdraw(self):
        pass
