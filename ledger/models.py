"""The ledger of what the Village asks of a person and what it received (issue 27).

A charge is one amount the Village asks of one person: the fine a notice of
violation requires (§ 132-13 A(5), R-NOV-1), the invoice of corrective measures
(§ 132-15 B, R-COR-2) or of a summary abatement (§ 132-18, R-NUI-1), or a fine
the Justice Court imposed (§ 132-13 B, R-PEN-1..3). Payments are recorded one by
one against a charge; a payment entered by mistake is voided with its reason,
never deleted. What remains is always computed from the payments not voided."""

import datetime as dt
from decimal import Decimal

from django.conf import settings
from django.db import models, transaction
from django.db.models import F, OuterRef, Q, Subquery, Sum, Value
from django.db.models.functions import Coalesce, Greatest
from django.db.models.lookups import GreaterThan, GreaterThanOrEqual
from django.urls import reverse
from django.utils import timezone

from cases.models import Case, Party
from kernel.humanize import human_long_date, human_short_date, money

ZERO = Decimal("0.00")
MONEY = models.DecimalField(max_digits=10, decimal_places=2)


class ChargeKind(models.TextChoices):
    NOV_FINE = "nov_fine", "Fine required by a notice of violation"
    CORRECTIVE_INVOICE = "corrective_invoice", "Corrective measures invoice"
    ABATEMENT_INVOICE = "abatement_invoice", "Nuisance abatement invoice"
    COURT_FINE = "court_fine", "Fine imposed by the Justice Court"


# The kinds that are penalties (the annual report's "penalties") and those that
# are the recovery of costs.
PENALTY_KINDS = (ChargeKind.NOV_FINE, ChargeKind.COURT_FINE)
COST_KINDS = (ChargeKind.CORRECTIVE_INVOICE, ChargeKind.ABATEMENT_INVOICE)


class ChargeStatus(models.TextChoices):
    """How a charge stands, from its balance (never stored)."""

    UNPAID = "unpaid", "Unpaid"
    PARTLY_PAID = "partly_paid", "Partly paid"
    PAID = "paid", "Paid in full"
    WRITTEN_OFF = "written_off", "Written off"
    REFERRED = "referred", "Referred to the Justice Court"
    CANCELLED = "cancelled", "Cancelled (the notice no longer stands)"


def _cancelled() -> Q:
    """The SQL form of `Charge.is_cancelled`: a notice's fine whose notice was
    withdrawn or superseded."""
    from enforcement.models import NoticeOfViolation, NoticeStatus

    # The notices as a subquery, not a join: PostgreSQL reads the few withdrawn or
    # superseded ones by their status's index instead of hashing every notice
    # (the queue's count of charges past due 6.5 -> 4.2 ms, planning 2.2 -> 0.3).
    ended = NoticeOfViolation.objects.filter(
        status__in=(NoticeStatus.WITHDRAWN, NoticeStatus.SUPERSEDED)
    )
    return Q(kind=ChargeKind.NOV_FINE) & Q(notice__in=ended.values("pk"))


def paid_sum() -> Subquery:
    """For each charge of the outer query, the sum of its payments not voided
    (None when there are none). The one definition of what was paid, for
    `with_paid` and for the copy each charge keeps (`Charge.received`)."""
    paid = (
        Payment.objects.filter(charge=OuterRef("pk"), voided_at__isnull=True)
        .order_by()
        .values("charge")
        .annotate(total=Sum("amount"))
        .values("total")
    )
    return Subquery(paid, output_field=MONEY)


class ChargeQuerySet(models.QuerySet):
    def keep_received(self) -> int:
        """Set `received` of these charges to what their payments not voided
        come to (Payment.save and the bench's seed; migration 0004 fills it
        in with the same sum written for its historical models)."""
        return self.update(received=Coalesce(paid_sum(), ZERO))

    def with_paid(self, *, joined: bool = False):
        """Each charge with `paid_total`, the sum of its payments not voided (None
        when there are none). By default a subquery per charge: a join of the
        payments and a GROUP BY grouped every joined row of a list (its case,
        payer and notice) before the LIMIT, 57 ms for the dashboard's ten charges
        past due at a hundred villages' fines (bench/NOTES.md). `joined` for a
        sum over a whole set (the ledger's totals): there each charge's payments
        are summed once, however often the sum is used (`with_standing`)."""
        if joined:
            return self.annotate(
                paid_total=Sum(
                    "payments__amount", filter=Q(payments__voided_at__isnull=True)
                )
            )
        return self.annotate(paid_total=paid_sum())

    def with_standing(self):
        """Each charge with `standing`, the SQL form of `Charge.status`, and
        `balance_left`, of `Charge.balance()`: the ledger filters and totals in
        the database, not over every charge read into Python (1.3 s at a hundred
        villages' fines, bench/NOTES.md). `tests/ledger/test_standing.py` holds
        each pair equal."""
        qs = self if "paid_total" in self.query.annotations else self.with_paid()
        paid = Coalesce("paid_total", ZERO)
        S = ChargeStatus
        return qs.annotate(
            standing=models.Case(
                models.When(_cancelled(), then=Value(S.CANCELLED)),
                models.When(written_off_at__isnull=False, then=Value(S.WRITTEN_OFF)),
                models.When(GreaterThanOrEqual(paid, F("amount")), then=Value(S.PAID)),
                models.When(referred_on__isnull=False, then=Value(S.REFERRED)),
                models.When(GreaterThan(paid, ZERO), then=Value(S.PARTLY_PAID)),
                default=Value(S.UNPAID),
                output_field=models.CharField(),
            ),
        ).annotate(
            balance_left=models.Case(
                models.When(
                    standing__in=(S.CANCELLED, S.WRITTEN_OFF), then=Value(ZERO)
                ),
                default=Greatest(F("amount") - paid, Value(ZERO)),
                output_field=MONEY,
            )
        )

    def past_due(self, today: dt.date):
        """The SQL form of `Charge.is_past_due` (the SMO's queue counts and
        heads in the database): due before `today`, a balance left, neither
        cancelled, written off nor referred, and no appeal of its notice pending
        (R-APL-2). `tests/ledger/test_past_due.py` holds the two forms equal.

        "A balance left" reads the copy each charge keeps of what was received
        (`received`), through the partial index of the charges still owed
        (OWED): the charges paid in full, most of the ledger and growing every
        year, are never read (summing every payment for it was 9.9 of this
        query's 19.7 ms at a hundred villages' fines, bench/NOTES.md)."""
        from enforcement.models import NoticeOfViolation

        return (
            self.filter(OWED, due_on__lt=today)
            .exclude(_cancelled())
            .exclude(notice__in=NoticeOfViolation.objects.with_pending_appeal())
        )


# The charges with something still owed: neither written off nor referred, and
# less received than asked (the partial index `charge_owed_by_due_on`).
OWED = (
    Q(written_off_at__isnull=True)
    & Q(referred_on__isnull=True)
    & Q(received__lt=F("amount"))
)


class Charge(models.Model):
    """One amount the Village asks of one person (the payer) on a case."""

    kind = models.CharField(max_length=20, choices=ChargeKind.choices)
    case = models.ForeignKey(Case, on_delete=models.PROTECT, related_name="charges")
    payer = models.ForeignKey(Party, on_delete=models.PROTECT, related_name="charges")
    amount = models.DecimalField(max_digits=10, decimal_places=2)
    reference = models.CharField(
        max_length=40, help_text="The notice's or invoice's number (NOV-12, INV-CM-3)."
    )
    issued_on = models.DateField()
    # The date payment is due, from the deadline engine where one applies (the
    # notice's last day to appeal, R-APL-1), with its explanation; none for an
    # invoice (payable on receipt: the law sets no period).
    due_on = models.DateField(null=True, blank=True)
    due_rule_id = models.CharField(max_length=16, blank=True)
    due_explanation = models.TextField(blank=True)
    notice = models.ForeignKey(
        "enforcement.NoticeOfViolation",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="charges",
    )
    corrective_action = models.ForeignKey(
        "enforcement.CorrectiveAction",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="charges",
    )
    abatement = models.ForeignKey(
        "enforcement.NuisanceAbatement",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="charges",
    )
    written_off_at = models.DateTimeField(null=True, blank=True)
    written_off_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    write_off_reason = models.TextField(blank=True)
    referred_on = models.DateField(
        null=True, blank=True, help_text="The day it was referred to the Justice Court."
    )
    # What its payments not voided come to: a copy, kept by Payment.save in the
    # same transaction (`ChargeQuerySet.keep_received`), that lets the SMO's
    # queue find the charges still owed by an index. The ledger's figures (the
    # balance, the status) are computed from the payments themselves;
    # tests/ledger/test_received.py holds the copy equal to them.
    received = models.DecimalField(
        max_digits=10, decimal_places=2, default=ZERO, editable=False
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    created_at = models.DateTimeField(default=timezone.now)

    objects = ChargeQuerySet.as_manager()

    class Meta:
        ordering = ["-issued_on", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(amount__gt=0), name="charge_amount_positive"
            ),
            models.UniqueConstraint(
                fields=["notice"],
                condition=Q(kind="nov_fine"),
                name="one_fine_charge_per_notice",
            ),
            models.UniqueConstraint(
                fields=["corrective_action"], name="one_charge_per_corrective_action"
            ),
            models.UniqueConstraint(
                fields=["abatement"], name="one_charge_per_abatement"
            ),
            models.CheckConstraint(
                condition=Q(written_off_at__isnull=True) | ~Q(write_off_reason=""),
                name="charge_write_off_has_reason",
            ),
        ]
        indexes = [
            models.Index(
                fields=["due_on", "id"], condition=OWED, name="charge_owed_by_due_on"
            ),
        ]

    def __str__(self):
        return (
            f"{self.reference}: {self.get_kind_display()}, {money(self.amount)} "
            f"to {self.payer}"
        )

    def save(self, *args, **kwargs):
        # `received` is Payment.save's to write: a charge read before a payment
        # and saved after it must not put back what it read.
        if not self._state.adding and kwargs.get("update_fields") is None:
            kwargs["update_fields"] = [
                f.attname
                for f in self._meta.concrete_fields
                if not f.primary_key and f.name != "received"
            ]
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse("ledger:charge_detail", args=[self.pk])

    # --- the balance (from the payments not voided) ----------------------------
    def amount_paid(self) -> Decimal:
        total = getattr(self, "paid_total", None)
        if total is None and not hasattr(self, "paid_total"):
            total = self.payments.filter(voided_at__isnull=True).aggregate(
                t=Sum("amount")
            )["t"]
        return total or ZERO

    def balance(self) -> Decimal:
        """What remains to be paid (0 once written off or cancelled)."""
        if self.is_written_off or self.is_cancelled:
            return ZERO
        return max(self.amount - self.amount_paid(), ZERO)

    @property
    def is_written_off(self) -> bool:
        return self.written_off_at is not None

    @property
    def is_cancelled(self) -> bool:
        """A notice's fine no longer stands once the notice was withdrawn or
        superseded by a correction (whose own fine is its own charge)."""
        from enforcement.models import NoticeStatus

        return self.kind == ChargeKind.NOV_FINE and (
            self.notice is not None
            and self.notice.status in (NoticeStatus.WITHDRAWN, NoticeStatus.SUPERSEDED)
        )

    @property
    def status(self) -> str:
        if self.is_cancelled:
            return ChargeStatus.CANCELLED
        if self.is_written_off:
            return ChargeStatus.WRITTEN_OFF
        paid = self.amount_paid()
        if paid >= self.amount:
            return ChargeStatus.PAID
        if self.referred_on is not None:
            return ChargeStatus.REFERRED
        return ChargeStatus.PARTLY_PAID if paid > 0 else ChargeStatus.UNPAID

    def get_status_display(self) -> str:
        return ChargeStatus(self.status).label

    @property
    def takes_payments(self) -> bool:
        """Still owed, so a payment may be recorded: unpaid, partly paid, or
        referred to the Justice Court (a payment can still come in)."""
        return self.status in (
            ChargeStatus.UNPAID,
            ChargeStatus.PARTLY_PAID,
            ChargeStatus.REFERRED,
        )

    def is_past_due(self, today=None) -> bool:
        today = today or timezone.localdate()
        if self.notice is not None and self.notice.pending_appeal() is not None:
            return False  # not due while the Board decides the appeal (R-APL-2)
        return (
            self.due_on is not None
            and today > self.due_on
            and self.status in (ChargeStatus.UNPAID, ChargeStatus.PARTLY_PAID)
        )

    @property
    def settled(self) -> bool:
        """Nothing stands in the way of resolving the case: paid, written off,
        referred to the Justice Court, or cancelled (R-PEN-1, issue 27)."""
        return self.status not in (ChargeStatus.UNPAID, ChargeStatus.PARTLY_PAID)


class PaymentMethod(models.TextChoices):
    CHECK = "check", "Check"
    MONEY_ORDER = "money_order", "Money order"
    CASH = "cash", "Cash"
    CARD = "card", "Card at the window"
    # Only on payments recorded before the ledger (enforcement's invoice
    # payments); the window does not take transfers.
    TRANSFER = "transfer", "Electronic transfer"


WINDOW_METHODS = [c for c in PaymentMethod.choices if c[0] != PaymentMethod.TRANSFER]


class ReceiptSequence(models.Model):
    """The last receipt number used each year (R-2026-00042); locked when taken."""

    year = models.PositiveSmallIntegerField(primary_key=True)
    last = models.PositiveIntegerField(default=0)

    def __str__(self):
        return f"{self.year}: {self.last}"


class Payment(models.Model):
    """One payment received against a charge, with the Village's receipt number.
    Voided (with the reason), never deleted."""

    charge = models.ForeignKey(
        Charge, on_delete=models.PROTECT, related_name="payments"
    )
    received_on = models.DateField()
    amount = models.DecimalField(max_digits=10, decimal_places=2)
    method = models.CharField(max_length=12, choices=PaymentMethod.choices)
    check_number = models.CharField(max_length=30, blank=True)
    receipt_number = models.CharField(max_length=30, unique=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    recorded_at = models.DateTimeField(default=timezone.now)
    voided_at = models.DateTimeField(null=True, blank=True)
    voided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    void_reason = models.TextField(blank=True)

    class Meta:
        ordering = ["received_on", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(amount__gt=0), name="ledger_payment_amount_positive"
            ),
            models.CheckConstraint(
                condition=Q(voided_at__isnull=True) | ~Q(void_reason=""),
                name="ledger_payment_void_has_reason",
            ),
        ]

    def __str__(self):
        return (
            f"Receipt {self.receipt_number}: {money(self.amount)} received "
            f"{human_short_date(self.received_on)} against {self.charge.reference}"
        )

    def save(self, *args, **kwargs):
        with transaction.atomic():
            super().save(*args, **kwargs)
            Charge.objects.filter(pk=self.charge_id).keep_received()

    def get_absolute_url(self) -> str:
        return self.charge.get_absolute_url()

    @property
    def is_voided(self) -> bool:
        return self.voided_at is not None

    def method_words(self) -> str:
        words = self.get_method_display()
        if self.method == PaymentMethod.CHECK and self.check_number:
            words += f" no. {self.check_number}"
        return words


class CourtOutcome(models.TextChoices):
    CONVICTED = "convicted", "Convicted"
    DISMISSED = "dismissed", "Dismissed"
    ADJOURNED = "adjourned", "Adjourned"


class CourtReferral(models.Model):
    """A charge past due referred to the Village Justice Court, where violations
    of Chapter 132 are prosecuted and penalties follow a conviction (§ 132-13 B,
    R-PEN-1..3), with the court's disposition as the clerk or the SMO records
    it. Nothing here is filed with the court electronically."""

    charge = models.OneToOneField(
        Charge, on_delete=models.PROTECT, related_name="court_referral"
    )
    case = models.ForeignKey(
        Case, on_delete=models.PROTECT, related_name="court_referrals"
    )
    defendant = models.ForeignKey(
        Party, on_delete=models.PROTECT, related_name="court_referrals"
    )
    court = models.CharField(max_length=200, default="Village of Poquott Justice Court")
    referred_on = models.DateField()
    note = models.TextField(blank=True)
    referred_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    # The disposition (the latest recorded; an adjournment may be followed by
    # another record).
    docket_number = models.CharField(max_length=60, blank=True)
    outcome = models.CharField(max_length=12, choices=CourtOutcome.choices, blank=True)
    outcome_on = models.DateField(null=True, blank=True)
    adjourned_to = models.DateField(null=True, blank=True)
    fine_imposed = models.DecimalField(
        max_digits=9, decimal_places=2, null=True, blank=True
    )
    surcharge_imposed = models.DecimalField(
        max_digits=9, decimal_places=2, null=True, blank=True
    )
    imprisonment_days = models.PositiveIntegerField(null=True, blank=True)
    offense = models.OneToOneField(
        "enforcement.OffenseRecord",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="court_referral",
    )
    court_fine = models.OneToOneField(
        Charge,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="imposed_by",
    )
    disposition_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-referred_on", "-id"]

    def __str__(self):
        return f"Justice Court referral {self.pk}: {self.charge.reference}"

    def get_absolute_url(self) -> str:
        return reverse("ledger:referral_detail", args=[self.pk])

    @property
    def disposed(self) -> bool:
        return self.outcome in (CourtOutcome.CONVICTED, CourtOutcome.DISMISSED)

    def status_words(self) -> str:
        if not self.outcome:
            return "Awaiting the court"
        words = self.get_outcome_display()
        if self.outcome == CourtOutcome.ADJOURNED and self.adjourned_to:
            return f"{words} to {human_long_date(self.adjourned_to)}"
        return words
