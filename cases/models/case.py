"""The case: one matter of the Stormwater Management Officer, from first report to
closure. Its status is a state machine; services in cases/services.py run it."""

import datetime as dt
from collections.abc import Callable

from django.conf import settings
from django.db import models
from django.db.models.functions import Upper
from django.urls import reverse
from django.utils import timezone
from django_fsm import ConcurrentTransitionMixin, FSMField, transition
from simple_history.models import HistoricalRecords

from intake.models import ExemptCategory, PollutantCategory
from kernel import page_reads
from kernel.roles import smo_permission
from kernel.workflow import guard

from ..balances import owed_on
from .premises import Outfall, Party, Premises
from .records import CaseParty

# R-PRO-3's SMO written approvals are kept by inspections, above cases (STYLE.md,
# "Layers"): its AppConfig.ready() registers the question "is the approval with
# this reference in force on this day?".
_approval_check: Callable[[str, dt.date], bool] | None = None


def register_approval_check(check: Callable[[str, dt.date], bool]) -> None:
    global _approval_check
    _approval_check = check


class CaseKind(models.TextChoices):
    """What the case is about, with the rule it arises under."""

    ILLICIT_DISCHARGE = "illicit_discharge", "Illicit discharge (R-PRO-1)"
    ILLICIT_CONNECTION = "illicit_connection", "Illicit connection (R-CON-1)"
    CONTAMINATING_ACTIVITY = (
        "contaminating_activity",
        "Activity contaminating stormwater (R-ACT-1)",
    )
    SPILL = "spill", "Spill or release (R-SPL-1)"
    ACCESS_OBSTRUCTION = "access_obstruction", "Access delayed or refused (R-ACC-3)"
    PERMIT_NONCOMPLIANCE = "permit_noncompliance", "Permit non-compliance (R-IND-1)"
    UNAUTHORIZED_REINSTATEMENT = (
        "unauthorized_reinstatement",
        "Unauthorized reinstatement of MS4 access (R-SUS-2)",
    )

    @classmethod
    def rule_id(cls, kind: str) -> str:
        return cls(kind).label.rsplit("(", 1)[1].rstrip(")")


class ConnectionType(models.TextChoices):
    """The types of illicit connection the article names (R-CON-1): the
    definition of ILLICIT CONNECTIONS in § 132-3 (A) and (B), and the line
    conveying sewage of § 132-6 B(3)."""

    SEWAGE = "sewage", "Line conveying sewage (treated or untreated)"
    PROCESS_WASTEWATER = "process_wastewater", "Conveyance of process wastewater"
    WASH_WATER = "wash_water", "Conveyance of wash water"
    INDOOR_DRAIN = (
        "indoor_drain",
        "Indoor drain or sink connected to the storm drain system",
    )
    UNDOCUMENTED = (
        "undocumented",
        "Commercial or industrial drain not documented in plans, maps or "
        "equivalent records and approved",
    )
    OTHER = "other", "Other conveyance of a nonstormwater discharge"


class CaseSource(models.TextChoices):
    """How the matter reached the office."""

    WEB = "web", "Online report"
    OPEN311 = "open311", "Open311 client"
    PHONE = "phone", "Telephone call"
    WALK_IN = "walk_in", "Walk-in"
    EMAIL = "email", "E-mail"
    OBSERVATION = "observation", "Staff observation"
    OUTFALL_SCREENING = "outfall_screening", "Outfall screening"
    SPILL_NOTIFICATION = "spill_notification", "Spill notification"
    INSPECTION = "inspection", "Inspection"
    REFERRAL = "referral", "Referral from another agency"


class CaseStatus(models.TextChoices):
    # A case exists only once a report is triaged into it (or staff open one):
    # its first status is "opened", never "awaiting triage" (issue 26).
    NEW = "new", "Opened, not yet investigated"
    INVESTIGATING = "investigating", "Under investigation"
    VIOLATION_CONFIRMED = "violation_confirmed", "Violation confirmed"
    ENFORCEMENT = "enforcement", "In enforcement"
    RESOLVED = "resolved", "Resolved"
    UNFOUNDED = "unfounded", "Closed: unfounded"
    EXEMPT = "exempt", "Closed: exempt discharge"
    REFERRED = "referred", "Closed: referred to another agency"
    DUPLICATE = "duplicate", "Closed: duplicate (merged)"


CLOSED_STATUSES = frozenset(
    {
        CaseStatus.RESOLVED,
        CaseStatus.UNFOUNDED,
        CaseStatus.EXEMPT,
        CaseStatus.REFERRED,
        CaseStatus.DUPLICATE,
    }
)
TRIAGE_SOURCES = [CaseStatus.NEW, CaseStatus.INVESTIGATING]
REOPENABLE = [
    CaseStatus.RESOLVED,
    CaseStatus.UNFOUNDED,
    CaseStatus.EXEMPT,
    CaseStatus.REFERRED,
]


class CaseNumberSequence(models.Model):
    """The last case number used each year (MS4-2026-0042); locked when taken."""

    year = models.PositiveSmallIntegerField(primary_key=True)
    last = models.PositiveIntegerField(default=0)

    def __str__(self):
        return f"{self.year}: {self.last}"


class Case(ConcurrentTransitionMixin, models.Model):
    """A matter under Chapter 132: a suspected illicit discharge (§ 132-6 A), illicit
    connection (§ 132-6 B), contaminating activity (§ 132-7), spill (§ 132-12),
    access obstruction (§ 132-11 B(5)), permit non-compliance (§ 132-10) or an
    unauthorized reinstatement of MS4 access (§ 132-9 B)."""

    class ExemptionBasis(models.TextChoices):
        CATEGORY = "category", "Exempt category (R-PRO-2)"
        SMO_APPROVAL = "smo_approval", "SMO written approval in force (R-PRO-3)"
        SPDES_PERMIT = "spdes_permit", "SPDES permit with written approval (R-PRO-5)"

    number = models.CharField(max_length=20, unique=True, editable=False)
    kind = models.CharField(
        max_length=32, choices=CaseKind.choices, default=CaseKind.ILLICIT_DISCHARGE
    )
    source = models.CharField(max_length=24, choices=CaseSource.choices)
    status = FSMField(
        max_length=24,
        choices=CaseStatus.choices,
        default=CaseStatus.NEW,
        protected=True,
        db_index=True,
    )
    summary = models.CharField(max_length=200)
    description = models.TextField(blank=True)
    premises = models.ForeignKey(
        Premises, null=True, blank=True, on_delete=models.PROTECT, related_name="cases"
    )
    location_description = models.CharField(
        max_length=200, blank=True, help_text="Where, when there is no premises yet."
    )
    latitude = models.DecimalField(
        max_digits=9, decimal_places=6, null=True, blank=True
    )
    longitude = models.DecimalField(
        max_digits=9, decimal_places=6, null=True, blank=True
    )
    outfall = models.ForeignKey(
        Outfall,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="cases",
        help_text="The receiving outfall, where known.",
    )
    pollutant_categories = models.ManyToManyField(PollutantCategory, blank=True)
    assigned_officer = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="assigned_cases",
    )
    opened_at = models.DateTimeField(default=timezone.now, db_index=True)
    opened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    closed_at = models.DateTimeField(null=True, blank=True)

    # Triage outcomes.
    closing_reason = models.TextField(blank=True)
    exemption_basis = models.CharField(
        max_length=16, choices=ExemptionBasis.choices, blank=True
    )
    exempt_category = models.ForeignKey(
        ExemptCategory, null=True, blank=True, on_delete=models.PROTECT
    )
    exemption_reference = models.CharField(
        max_length=200, blank=True, help_text="The approval or permit relied on."
    )
    referred_to = models.CharField(max_length=200, blank=True)
    referred_on = models.DateField(null=True, blank=True)
    referral_outcome = models.TextField(blank=True)
    merged_into = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="merged"
    )

    # An illicit connection case: the type of connection (R-CON-1).
    connection_type = models.CharField(
        "type of illicit connection",
        max_length=20,
        choices=ConnectionType.choices,
        blank=True,
    )
    # An activity contaminating stormwater: the person's notification that the
    # activity causes or contributes to MS4 permit violations; the duty to
    # correct follows it (§ 132-7 B, R-ACT-1).
    activity_notified_on = models.DateField(
        "date the person was notified of the activity", null=True, blank=True
    )
    activity_notification = models.TextField(
        "how and by whom the person was notified", blank=True
    )

    # Violation and resolution.
    responsible_party = models.ForeignKey(
        Party,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="cases_responsible",
    )
    violation_confirmed_on = models.DateField(null=True, blank=True)
    violation_finding = models.TextField(blank=True)
    eliminated_on = models.DateField(
        null=True, blank=True, help_text="The date the discharge or connection ended."
    )
    verification = models.TextField(
        blank=True, help_text="How the elimination was verified."
    )
    reopen_count = models.PositiveSmallIntegerField(default=0)
    # Bumped by every service write: a form carries the version it was drawn from,
    # so a second officer's stale edit is refused instead of overwriting the first.
    version = models.PositiveIntegerField(default=0, editable=False)
    EDIT_COUNTER = "version"  # kernel.workflow: the stale-copy check and its count

    history = HistoricalRecords(excluded_fields=["status"])

    class Meta:
        ordering = ["-opened_at"]
        indexes = [
            models.Index(fields=["status", "-opened_at"]),
            models.Index(fields=["assigned_officer", "status"]),
            models.Index(fields=["kind", "status"]),
            # case_by_number looks cases up by number__iexact (UPPER(number)):
            # without this a case page read all 50,000 rows (bench/, issue 9).
            models.Index(Upper("number"), name="case_number_upper"),
            # The case list's order: a page's ids come from this index alone
            # (page 200 read and sorted 5,000 rows by opened_at, then id; bench/).
            models.Index(fields=["-opened_at", "-id"], name="case_list_order"),
            # The dashboard's count of open cases reads only the open ones (a
            # sequential scan of all 50,000 before; bench/).
            models.Index(
                fields=["status"],
                name="case_open_status",
                condition=~models.Q(status__in=sorted(CLOSED_STATUSES)),
            ),
        ]
        permissions = [("triage_case", "Can triage and drive cases")]

    def __str__(self):
        return self.number

    def get_absolute_url(self) -> str:
        from django.urls import reverse

        return reverse("cases:detail", args=[self.number])

    def chronology_links(self):
        """(case, premises) this case's chronology entries belong to
        (kernel.workflow.chronology_links)."""
        return self, self.premises

    @property
    def is_closed(self) -> bool:
        return self.status in CLOSED_STATUSES

    @property
    def closed_words(self) -> str:
        """How a closed case ended, in words: "resolved", "closed as unfounded"."""
        return {
            CaseStatus.RESOLVED: "resolved",
            CaseStatus.UNFOUNDED: "closed as unfounded",
            CaseStatus.EXEMPT: "closed as an exempt discharge",
            CaseStatus.REFERRED: "referred to another agency",
            CaseStatus.DUPLICATE: "merged into another case as a duplicate",
        }.get(self.status, "closed")

    @property
    def rule_id(self) -> str:
        return CaseKind.rule_id(self.kind)

    @property
    def location(self) -> tuple[float, float] | None:
        """(lat, lon) of the case, or of its premises; None when unknown."""
        for holder in (self, self.premises):
            if (
                holder is not None
                and holder.latitude is not None
                and holder.longitude is not None
            ):
                return float(holder.latitude), float(holder.longitude)
        return None

    @property
    def records_connection_type(self) -> bool:
        """A case about an illicit connection records its type (R-CON-1)."""
        return self.kind == CaseKind.ILLICIT_CONNECTION

    @property
    def is_about_an_activity(self) -> bool:
        """A case about an activity contaminating stormwater (R-ACT-1)."""
        return self.kind == CaseKind.CONTAMINATING_ACTIVITY

    @property
    def awaiting_referral_outcome(self) -> bool:
        """Referred (closed) and the other agency's answer not yet recorded."""
        return self.status == CaseStatus.REFERRED and not self.referral_outcome.strip()

    # --- conditions (side-effect free; kernel.workflow.guard says why not) -----
    @guard(
        "add the owner, operator or discharger to the case first",
        form=False,
        rule="R-NOV-1",
        fix=lambda case: (
            reverse("cases:party_add", args=[case.number]),
            "Name a party",
        ),
    )
    def has_a_party(self) -> bool:
        return self.responsible_party_id is not None or self.case_parties.exists()

    @guard("choose the responsible party", rule="R-NOV-1")
    def has_responsible_party(self) -> bool:
        return self.responsible_party_id is not None

    @guard(
        "wait for the Board of Trustees to decide the appeal pending on a notice "
        "of this case",
        form=False,
        rule="R-APL-2",
    )
    def no_appeal_pending(self) -> bool:
        """No notice of the case has an appeal awaiting the Board (the
        enforcement app's notices, through their reverse relation)."""
        shared = page_reads.read(self, "enforcement.appeal_pending")
        if shared is not None:  # the case page: from the notices it read
            return not shared
        notices = getattr(self, "notices", None)
        return notices is None or not notices.with_pending_appeal().exists()

    @guard(
        "settle the unpaid balance first: paid, written off by the Stormwater "
        "Management Officer with a reason, or referred to the Justice Court",
        form=False,
        rule="R-PEN-1",
        words=lambda case: (
            "settle the unpaid balance first ("
            + "; ".join(o.words for o in owed_on(case))
            + "): paid, written off by the Stormwater Management Officer with a "
            "reason, or referred to the Justice Court"
        ),
        fix=lambda case: next(
            ((o.url, "Open the ledger") for o in owed_on(case) if o.url), ("", "")
        ),
    )
    def balance_settled(self) -> bool:
        """Nothing owed on the case is left unpaid (the ledger, through
        cases.balances; issue 27)."""
        return not owed_on(self)

    def owners(self):
        """The parties named on the case as owner of the premises, by name."""
        return (
            Party.objects.filter(
                case_roles__case=self, case_roles__role=CaseParty.Role.OWNER
            )
            .distinct()
            .order_by("name")
        )

    @guard(
        "name the owner of the premises on the case first: the Stormwater "
        "Management Officer asks the owner's permission for access ({section})",
        form=False,
        rule="R-COR-1",
        fix=lambda case: (
            reverse("cases:party_add", args=[case.number]) + "?role=owner",
            "Name the owner",
        ),
    )
    def has_owner(self) -> bool:
        return self.owners().exists()

    @guard("record the date the discharge was eliminated and how it was verified")
    def has_elimination_record(self) -> bool:
        return self.eliminated_on is not None and bool(self.verification.strip())

    @guard("say what type of illicit connection it is", rule="R-CON-1")
    def has_connection_type_if_connection(self) -> bool:
        return not self.records_connection_type or bool(self.connection_type)

    @guard(
        "the notification is recorded on a case about an activity contaminating "
        "stormwater",
        form=False,
        rule="R-ACT-1",
    )
    def activity_case(self) -> bool:
        return self.is_about_an_activity

    def awaits_activity_notification(self) -> bool:
        """An activity case whose person was not yet notified: the step is
        offered (checked on the record as stored, before the step's input)."""
        return self.is_about_an_activity and self.activity_notified_on is None

    @guard(
        "give the date the person was notified of the activity and how",
        rule="R-ACT-1",
    )
    def has_activity_notification(self) -> bool:
        return self.activity_notified_on is not None and bool(
            self.activity_notification.strip()
        )

    @guard(
        "record first that the person was notified of the activity: the duty to "
        "correct it follows the notification",
        form=False,
        rule="R-ACT-1",
        fix=lambda case: (
            reverse("cases:transition", args=[case.number, "notify_of_activity"]),
            "Record the notification",
        ),
    )
    def activity_notified_if_activity(self) -> bool:
        return not self.is_about_an_activity or self.activity_notified_on is not None

    @guard(
        "give an exemption that applies (a category marked a substantial "
        "contributor no longer exempts)",
        rule="R-PRO-2",
    )
    def has_valid_exemption(self) -> bool:
        if self.exemption_basis == self.ExemptionBasis.CATEGORY:
            return self.exempt_category is not None and self.exempt_category.exempts
        return bool(self.exemption_basis and self.exemption_reference.strip())

    @staticmethod
    def approval_in_force(reference: str, on=None) -> bool:
        """R-PRO-3: an SMO written approval with this reference is in force `on`
        (today by default); an expired or revoked one no longer exempts. The
        approvals are inspections' records: it answers through
        `register_approval_check` (none registered: no approval is in force)."""
        if _approval_check is None:
            return False
        return _approval_check(reference.strip(), on or timezone.localdate())

    @guard(
        "an SMO written approval relied on must be in force today; an expired or "
        "revoked approval no longer exempts (record the approval under Inspections "
        "first)",
        rule="R-PRO-3",
    )
    def approval_relied_on_in_force(self) -> bool:
        if self.exemption_basis != self.ExemptionBasis.SMO_APPROVAL:
            return True
        return self.approval_in_force(self.exemption_reference)

    @guard("choose the case to merge into")
    def has_merge_target(self) -> bool:
        return self.merged_into_id is not None and self.merged_into_id != self.pk

    @guard("name the agency referred to")
    def has_referral(self) -> bool:
        return bool(self.referred_to.strip())

    @guard("give the reasons")
    def has_closing_reason(self) -> bool:
        return bool(self.closing_reason.strip())

    # --- transitions (change only this row; the service saves) ---------------
    @transition(
        status,
        source=CaseStatus.NEW,
        target=CaseStatus.INVESTIGATING,
        permission=smo_permission,
        custom={"label": "Start investigation", "rule_id": "R-ACC-1"},
    )
    def start_investigation(self):
        pass

    @transition(
        status,
        source=TRIAGE_SOURCES,
        target=CaseStatus.UNFOUNDED,
        permission=smo_permission,
        conditions=[has_closing_reason],
        custom={
            "label": "Close as unfounded",
            "binding": True,
            "confirm": "case_close",
        },
    )
    def close_unfounded(self):
        self.closed_at = timezone.now()

    @transition(
        status,
        source=TRIAGE_SOURCES,
        target=CaseStatus.EXEMPT,
        permission=smo_permission,
        conditions=[has_valid_exemption, approval_relied_on_in_force],
        custom={
            "label": "Close as exempt",
            "rule_id": "R-PRO-2",
            "binding": True,
            "confirm": "case_close",
        },
    )
    def close_exempt(self):
        self.closed_at = timezone.now()

    @transition(
        status,
        source=TRIAGE_SOURCES,
        target=CaseStatus.REFERRED,
        permission=smo_permission,
        conditions=[has_referral],
        custom={"label": "Refer to another agency"},
    )
    def refer(self):
        self.closed_at = timezone.now()

    @transition(
        status,
        source=TRIAGE_SOURCES,
        target=CaseStatus.DUPLICATE,
        permission=smo_permission,
        conditions=[has_merge_target],
        custom={"label": "Merge as duplicate"},
    )
    def mark_duplicate(self):
        self.closed_at = timezone.now()

    @transition(
        status,
        source=CaseStatus.INVESTIGATING,
        target=CaseStatus.VIOLATION_CONFIRMED,
        permission=smo_permission,
        conditions=[
            has_a_party,
            has_responsible_party,
            has_connection_type_if_connection,
        ],
        custom={"label": "Confirm violation", "rule_id": "R-NOV-1"},
    )
    def confirm_violation(self):
        if self.violation_confirmed_on is None:
            self.violation_confirmed_on = timezone.localdate()

    @transition(
        status,
        source=CaseStatus.VIOLATION_CONFIRMED,
        target=CaseStatus.ENFORCEMENT,
        permission=smo_permission,
        custom={"label": "Begin enforcement", "rule_id": "R-NOV-1", "hidden": True},
    )
    def begin_enforcement(self):
        pass

    @transition(
        status,
        source=[CaseStatus.VIOLATION_CONFIRMED, CaseStatus.ENFORCEMENT],
        target=CaseStatus.ENFORCEMENT,
        permission=smo_permission,
        conditions=[activity_case, has_activity_notification],
        custom={
            "label": "Record the notification of the activity",
            "rule_id": "R-ACT-1",
            # Only a case about an activity, not yet notified, offers it.
            "offered_if": "awaits_activity_notification",
        },
    )
    def notify_of_activity(self):
        """§ 132-7 B: "Upon notification to a person that he or she is engaged in
        activities that cause or contribute to violations ..., that person shall
        take all reasonable actions to correct such activities": notifying the
        person is an act of enforcement."""

    @transition(
        status,
        source=[CaseStatus.VIOLATION_CONFIRMED, CaseStatus.ENFORCEMENT],
        target=CaseStatus.RESOLVED,
        permission=smo_permission,
        conditions=[
            has_elimination_record,
            activity_notified_if_activity,
            no_appeal_pending,
            balance_settled,
        ],
        custom={"label": "Record resolved", "binding": True, "confirm": "case_close"},
    )
    def resolve(self):
        self.closed_at = timezone.now()

    @transition(
        status,
        source=REOPENABLE,
        target=CaseStatus.INVESTIGATING,
        permission=smo_permission,
        custom={"label": "Reopen (recurrence)"},
    )
    def reopen(self):
        self.closed_at = None
        self.reopen_count += 1
