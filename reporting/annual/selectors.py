"""The counts of the annual report, computed from the records as they stood at
a moment (`as_of`).

Each count is a `Count`: its key, its words (what it counts, and how), and the
ids of the records that make it, so that the page links every number to the
list behind it and a frozen report can say, later, which records changed.

"As they stood": a record counts only if it was on file at `as_of` (created or
received by then), and a status change only if its chronology event
(kernel.CaseEvent, written by the workflow kernel in the same transaction as the
change) is dated by then. Dates the law cares about are the records' own (the
day a notice was issued, a discharge eliminated, a deadline due); where a status
change has no date of its own the event's timestamp is used.

Every query is one aggregate per count (no query per record): the report for
the bench data set renders in well under two seconds (bench/NOTES.md)."""

from __future__ import annotations

import datetime as dt
import statistics
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from functools import cached_property

from django.contrib.contenttypes.models import ContentType
from django.db.models import Exists, OuterRef, Q, Subquery, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from cases.models import Case, CaseKind, CaseStatus, EventKind, Outfall
from cases.models.case import CLOSED_STATUSES
from deadlines import selectors as deadline_selectors
from deadlines.models import CLOSED_WITHOUT_DUTY, Deadline
from intake.models import Report
from kernel.citations import cited
from kernel.humanize import human_datetime, human_short_date
from kernel.models import CaseEvent

from .year import ReportingYear

DRY_WEATHER_HOURS = 72


@dataclass(frozen=True)
class Section:
    key: str
    title: str


SECTIONS = (
    Section("outfalls", "Outfall inventory and dry-weather screening"),
    Section("reports", "Reports received and their triage"),
    Section("idde", "Illicit discharges and illicit connections"),
    Section("fieldwork", "Inspections, samples and spills"),
    Section("enforcement", "Enforcement"),
    Section("deadlines", "Legal deadlines"),
)


@dataclass
class Count:
    """One number of the report and the records that make it."""

    key: str
    section: str
    label: str
    definition: str
    model: str  # the label of the records listed ("cases.case")
    # The ids of the records: a list, or a query of them read only when needed
    # (the page shows the number, counted by the database; freezing reads them).
    source: object = field(default_factory=list)
    # The number when the database counted it with others in one pass.
    known: int | None = None
    # A count that is not the number of its records (an amount, a median).
    value: int | Decimal | float | None = None
    unit: str = ""
    rule_id: str = ""

    @cached_property
    def ids(self) -> list[int]:
        return sorted(self.source)

    @cached_property
    def number(self) -> int:
        if self.known is not None:
            return self.known
        if isinstance(self.source, list | tuple | set):
            return len(self.source)
        if "ids" in self.__dict__:
            return len(self.ids)
        return self.source.count()

    @property
    def shown(self):
        """What the report prints."""
        if self.value is not None:
            return self.value
        return self.number

    @property
    def shown_text(self) -> str:
        value = self.shown
        if isinstance(value, Decimal):
            return f"${value:,.2f}"
        if isinstance(value, float):
            return f"{value:g} {self.unit}".strip()
        return f"{value:,}"

    def as_json(self) -> dict:
        value = self.value
        if isinstance(value, Decimal):
            value = str(value)
        return {"value": value, "ids": sorted(self.ids)}


@dataclass
class AnnualCounts:
    year: ReportingYear
    as_of: dt.datetime
    counts: list[Count]
    # Series for the charts: (label, value) per month / per bucket.
    per_month: list[dict] = field(default_factory=list)
    elimination_days: list[int] = field(default_factory=list)

    def by_key(self) -> dict[str, Count]:
        return {c.key: c for c in self.counts}

    def sections(self) -> list[dict]:
        return [
            {
                "key": s.key,
                "title": s.title,
                "counts": [c for c in self.counts if c.section == s.key],
            }
            for s in SECTIONS
        ]

    def frozen(self) -> tuple[dict, dict]:
        """(counts, record ids) as JSON for AnnualReport."""
        values = {c.key: c.as_json()["value"] for c in self.counts}
        ids = {c.key: sorted(c.ids) for c in self.counts}
        return values, ids

    @property
    def is_empty(self) -> bool:
        return not any(c.number for c in self.counts)


# --- the moment ----------------------------------------------------------------


def _cut(year: ReportingYear, as_of: dt.datetime) -> dt.datetime:
    """The end of what counts: the end of the year, or `as_of` if earlier."""
    return min(year.end, as_of)


def _ids(qs, column: str = "pk"):
    """The ids of `qs` (or of its `column`) as a query, read when needed."""
    return qs.order_by().values_list(column, flat=True).distinct()


def _in_year(year: ReportingYear, name: str, as_of: dt.datetime) -> Q:
    """A datetime field `name` in the year and not after `as_of`."""
    return Q(**{f"{name}__gte": year.start, f"{name}__lt": _cut(year, as_of)})


def _days_in_year(year: ReportingYear, name: str, as_of: dt.datetime) -> Q:
    """A date field `name` in the year and not after the day of `as_of`."""
    last = min(year.last_day, timezone.localtime(as_of).date())
    return Q(**{f"{name}__gte": year.first_day, f"{name}__lte": last})


def _events_of(model, as_of: dt.datetime, **filters):
    """Status-change events of records of `model` dated by `as_of`."""
    return CaseEvent.objects.filter(
        content_type=ContentType.objects.get_for_model(model),
        object_id=OuterRef("pk"),
        at__lte=as_of,
        **filters,
    )


def _reached(model, status, as_of: dt.datetime) -> Exists:
    """The record's chronology shows it entering `status` by `as_of`."""
    return Exists(_events_of(model, as_of, to_status=status))


def _case_status_events():
    """The events that set a case's status: its opening, each step of its own
    state machine."""
    own = Q(content_type=ContentType.objects.get_for_model(Case)) | Q(
        kind=EventKind.OPENED, content_type__isnull=True
    )
    return CaseEvent.objects.filter(own).exclude(to_status="")


def _case_status_at(moment: dt.datetime) -> Subquery:
    """The case's status just before `moment`: the last status its own chronology
    recorded (its opening, then each step of its state machine)."""
    # A case opened before `moment` whose chronology has no status by then (its
    # opening was entered later, dated back) was opened and not yet investigated.
    return Coalesce(
        Subquery(
            _case_status_events()
            .filter(case_id=OuterRef("pk"), at__lt=moment)
            .order_by("-at", "-id")
            .values("to_status")[:1]
        ),
        Value(CaseStatus.NEW.value),
    )


# --- the counts ----------------------------------------------------------------


def annual_counts(
    year: ReportingYear, as_of: dt.datetime | None = None
) -> AnnualCounts:
    """Every count of the IDDE part of the annual report for `year`, from the
    records as they stood at `as_of` (now by default). Read-only."""
    as_of = as_of or timezone.now()
    counts: list[Count] = []
    from .ledger_lines import money_lines  # it builds on this module's Count

    parts = (_outfalls, _reports, _idde, _fieldwork, _enforcement)
    # The money lines come from the ledger (issue 27).
    for part in (*parts, money_lines, _deadlines):
        counts.extend(part(year, as_of))
    result = AnnualCounts(year=year, as_of=as_of, counts=counts)
    result.per_month = _per_month(year, result)
    result.elimination_days = _elimination_days(year, as_of, result)
    return result


def _outfalls(year, as_of) -> Iterable[Count]:
    from inspections.models import OutfallScreening

    cut = _cut(year, as_of)
    # Outfalls keep a history (simple_history): the first entry is when the
    # outfall was mapped. One loaded without history counts as mapped before.
    mapped_in_year = Outfall.history.filter(
        history_type="+", history_date__gte=year.start, history_date__lt=cut
    ).values("id")
    mapped_after = Outfall.history.filter(
        history_type="+", history_date__gte=cut
    ).values("id")
    yield Count(
        "outfalls_mapped",
        "outfalls",
        "Outfalls mapped (in total, at the end of the year)",
        "Every outfall in the inventory at the end of the reporting year (or at the "
        "moment of the report, if earlier), active or not.",
        "cases.outfall",
        _ids(Outfall.objects.exclude(pk__in=mapped_after)),
    )
    yield Count(
        "outfalls_added",
        "outfalls",
        "Outfalls added to the inventory this year",
        "Outfalls whose first entry in the inventory is dated in the reporting year.",
        "cases.outfall",
        _ids(Outfall.objects.filter(pk__in=mapped_in_year)),
    )
    screenings = OutfallScreening.objects.filter(
        _in_year(year, "screened_at", as_of), recorded_at__lte=as_of
    ).filter(
        Q(hours_since_rain__isnull=True) | Q(hours_since_rain__gte=DRY_WEATHER_HOURS)
    )
    yield Count(
        "outfalls_screened",
        "outfalls",
        "Outfalls screened in dry weather",
        "Outfalls with at least one dry-weather screening visit in the year (a "
        f"visit {DRY_WEATHER_HOURS} hours or more after the last rain, or one whose "
        "hours since rain were not recorded); each outfall counted once.",
        "cases.outfall",
        _ids(screenings, "outfall_id"),
    )
    yield Count(
        "outfalls_flow",
        "outfalls",
        "… of which had flow in dry weather",
        "Outfalls screened in dry weather this year with flow seen at any visit.",
        "cases.outfall",
        _ids(screenings.filter(flow_present=True), "outfall_id"),
    )
    for severity, words in (
        (OutfallScreening.Severity.SUSPECT, "suspect"),
        (OutfallScreening.Severity.OBVIOUS, "obvious"),
    ):
        yield Count(
            f"outfalls_{words}",
            "outfalls",
            f"Outfalls flagged {words} (ORI result)",
            f"Outfalls with a screening this year whose overall outfall "
            f"reconnaissance inventory result was “{severity.label}”.",
            "cases.outfall",
            _ids(
                OutfallScreening.objects.filter(
                    _in_year(year, "screened_at", as_of),
                    recorded_at__lte=as_of,
                    severity=severity,
                ),
                "outfall_id",
            ),
            rule_id="R-PRO-1",
        )


TRIAGE_OUTCOMES = (
    (
        CaseStatus.INVESTIGATING,
        "triage_case_opened",
        "Case opened (investigation started)",
    ),
    (CaseStatus.UNFOUNDED, "triage_unfounded", "Closed as unfounded"),
    (CaseStatus.EXEMPT, "triage_exempt", "Closed as exempt"),
    (CaseStatus.REFERRED, "triage_referred", "Referred to another agency"),
    (CaseStatus.DUPLICATE, "triage_duplicate", "Merged as a duplicate"),
)


def _reports(year, as_of) -> Iterable[Count]:
    # A report keeps no date of entry apart from when it was received: one
    # entered later with an earlier date is listed as a difference on recomputing.
    received = Report.objects.filter(_in_year(year, "received_at", as_of))
    yield Count(
        "reports_received",
        "reports",
        "Reports received",
        "Reports of a suspected discharge received in the year, by every channel.",
        "intake.report",
        _ids(received),
    )
    for channel in Report.Channel:
        yield Count(
            f"reports_{channel.value}",
            "reports",
            f"… {channel.label}",
            f"Reports received in the year through the channel “{channel.label}”.",
            "intake.report",
            _ids(received.filter(channel=channel)),
        )
    # A triage outcome is the first step a case took out of "opened, not yet
    # investigated" or "under investigation" into one of the triage results,
    # dated by its event.
    case_type = ContentType.objects.get_for_model(Case)
    cut = _cut(year, as_of)
    for status, key, label in TRIAGE_OUTCOMES:
        events = CaseEvent.objects.filter(
            content_type=case_type,
            kind=CaseEvent.Kind.TRANSITION,
            to_status=status,
            at__gte=year.start,
            at__lt=cut,
        )
        if status == CaseStatus.INVESTIGATING:
            events = events.filter(from_status=CaseStatus.NEW)
        else:
            events = events.filter(
                from_status__in=[CaseStatus.NEW, CaseStatus.INVESTIGATING]
            )
        yield Count(
            key,
            "reports",
            f"Triage: {label.lower()}",
            f"Cases whose triage ended in the year with “{CaseStatus(status).label}”"
            + (
                " (the step from opened to under investigation)"
                if status == CaseStatus.INVESTIGATING
                else " (from opened or under investigation)"
            )
            + ", dated by the step in the case's chronology.",
            "cases.case",
            _ids(events, "object_id"),
        )


IDDE_KINDS = (
    (CaseKind.ILLICIT_DISCHARGE, "discharge", "illicit discharges", "R-PRO-1"),
    (CaseKind.ILLICIT_CONNECTION, "connection", "illicit connections", "R-CON-1"),
)


def _idde(year, as_of) -> Iterable[Count]:
    cut = _cut(year, as_of)
    # nothing changed a case's status after the end (a report of the current
    # year, as of now): the status then is the status each case has
    settled = not _case_status_events().filter(at__gte=cut).exists()
    for kind, short, words, rule in IDDE_KINDS:
        cases = Case.objects.filter(kind=kind)
        yield Count(
            f"{short}_suspected",
            "idde",
            f"Suspected {words}",
            f"Cases about {words} ({cited(rule)}) opened in the year.",
            "cases.case",
            _ids(cases.filter(_in_year(year, "opened_at", as_of))),
            rule_id=rule,
        )
        confirmed = cases.filter(
            _days_in_year(year, "violation_confirmed_on", as_of)
        ).filter(_reached(Case, CaseStatus.VIOLATION_CONFIRMED, as_of))
        yield Count(
            f"{short}_confirmed",
            "idde",
            f"Confirmed {words}",
            f"Cases about {words} whose violation was confirmed in the year (the "
            "date of the finding on the case).",
            "cases.case",
            _ids(confirmed),
            rule_id=rule,
        )
        eliminated = cases.filter(_days_in_year(year, "eliminated_on", as_of)).filter(
            _reached(Case, CaseStatus.RESOLVED, as_of)
        )
        yield Count(
            f"{short}_eliminated",
            "idde",
            f"Eliminated {words}",
            f"Cases about {words} recorded resolved, with the date the discharge or "
            "connection ended in the year (the list gives each date).",
            "cases.case",
            _ids(eliminated),
            rule_id=rule,
        )
        if settled:
            still_open = cases.filter(opened_at__lt=cut).exclude(
                status__in=sorted(CLOSED_STATUSES)
            )
        else:
            still_open = (
                cases.filter(opened_at__lt=cut)
                .annotate(status_then=_case_status_at(cut))
                .exclude(status_then__in=sorted(CLOSED_STATUSES))
            )
        yield Count(
            f"{short}_open",
            "idde",
            f"{words.capitalize()} still open at the end of the year",
            f"Cases about {words} opened by the end of the year and not closed at "
            "its end (the status their chronology shows then).",
            "cases.case",
            _ids(still_open),
            rule_id=rule,
        )
    median = _median_days(year, as_of)
    yield Count(
        "median_days_to_elimination",
        "idde",
        "Median days from report to elimination",
        "For the illicit discharges and connections eliminated in the year: the "
        "median of the days from the first report (or the opening of the case, "
        "when no report is attached) to the date eliminated.",
        "cases.case",
        [cid for cid, _ in median],
        value=float(statistics.median([d for _, d in median])) if median else 0.0,
        unit="days",
    )


def _median_days(year, as_of) -> list[tuple[int, int]]:
    from django.db.models import Min

    rows = (
        Case.objects.filter(kind__in=[k for k, *_ in IDDE_KINDS])
        .filter(_days_in_year(year, "eliminated_on", as_of))
        .filter(_reached(Case, CaseStatus.RESOLVED, as_of))
        .annotate(first_report=Min("reports__received_at"))
        .values_list("pk", "eliminated_on", "first_report", "opened_at")
    )
    out = []
    for pk, eliminated_on, first_report, opened_at in rows:
        start = first_report or opened_at
        out.append(
            (pk, max(0, (eliminated_on - timezone.localtime(start).date()).days))
        )
    return sorted(out)


def _elimination_days(year, as_of, result) -> list[int]:
    return [d for _, d in _median_days(year, as_of)]


def _fieldwork(year, as_of) -> Iterable[Count]:
    from inspections.models import (
        Inspection,
        InspectionStatus,
        Sample,
        SpillNotification,
        SpillStatus,
        WarrantApplication,
    )

    performed = Inspection.objects.filter(
        _in_year(year, "performed_at", as_of),
        status__in=[InspectionStatus.RECORDED, InspectionStatus.FINALIZED],
    )
    yield Count(
        "inspections",
        "fieldwork",
        "Inspections carried out",
        "Inspections whose visit is recorded as made in the year.",
        "inspections.inspection",
        _ids(performed),
        rule_id="R-ACC-1",
    )
    for access in Inspection.Access:
        yield Count(
            f"inspections_{access.value}",
            "fieldwork",
            f"… {access.label.lower()}",
            f"Inspections made in the year whose recorded outcome was “{access.label}”.",
            "inspections.inspection",
            _ids(performed.filter(access_outcome=access)),
            rule_id="R-ACC-3" if access != Inspection.Access.GRANTED else "R-ACC-1",
        )
    yield Count(
        "inspections_cancelled",
        "fieldwork",
        "Inspections cancelled",
        "Inspections scheduled in the year and cancelled.",
        "inspections.inspection",
        _ids(
            Inspection.objects.filter(
                _in_year(year, "scheduled_for", as_of),
                status=InspectionStatus.CANCELLED,
            ).filter(_reached(Inspection, InspectionStatus.CANCELLED, as_of))
        ),
    )
    yield Count(
        "warrants_sought",
        "fieldwork",
        "Search warrants sought",
        "Applications for a search warrant filed with the court in the year.",
        "inspections.warrantapplication",
        _ids(WarrantApplication.objects.filter(_days_in_year(year, "filed_on", as_of))),
        rule_id="R-ACC-4",
    )
    yield Count(
        "samples",
        "fieldwork",
        "Samples taken",
        "Samples taken in the year (the sampling date), with a chain of custody.",
        "inspections.sample",
        _ids(
            Sample.objects.filter(
                _days_in_year(year, "sampled_on", as_of), recorded_at__lte=as_of
            )
        ),
    )
    spills = SpillNotification.objects.filter(
        _in_year(year, "known_at", as_of), recorded_at__lte=as_of
    )
    yield Count(
        "spills",
        "fieldwork",
        "Spills notified",
        "Spills and releases whose notification records they became known in the year.",
        "inspections.spillnotification",
        _ids(spills),
        rule_id="R-SPL-1",
    )
    confirmable = spills.filter(
        notice_method__in=[
            SpillNotification.NoticeMethod.IN_PERSON,
            SpillNotification.NoticeMethod.TELEPHONE,
        ]
    )
    met_by = timezone.localtime(as_of).date()
    yield Count(
        "spills_confirmed_in_time",
        "fieldwork",
        "… written confirmation received in time",
        "Spills notified in person or by telephone whose written confirmation was "
        "mailed within the period of the rule (its deadline recorded met).",
        "inspections.spillnotification",
        _ids(
            confirmable.filter(
                confirmation_deadline__status=Deadline.Status.MET,
                confirmation_deadline__met_on__lte=met_by,
            )
        ),
        rule_id="R-SPL-4",
    )
    yield Count(
        "spills_confirmed_late",
        "fieldwork",
        "… written confirmation late",
        "Spills whose written confirmation came after its due date (deadline missed).",
        "inspections.spillnotification",
        _ids(
            confirmable.filter(
                confirmation_deadline__status=Deadline.Status.MISSED,
                confirmation_deadline__met_on__lte=met_by,
            )
        ),
        rule_id="R-SPL-4",
    )
    yield Count(
        "spills_confirmation_missing",
        "fieldwork",
        "… written confirmation missing",
        "Spills whose written confirmation was recorded missing.",
        "inspections.spillnotification",
        _ids(
            confirmable.filter(status=SpillStatus.MISSING).filter(
                _reached(SpillNotification, SpillStatus.MISSING, as_of)
            )
        ),
        rule_id="R-SPL-4",
    )


def _enforcement(year, as_of) -> Iterable[Count]:
    from enforcement.models import (
        AccessSuspension,
        AccessTermination,
        Appeal,
        AppealStatus,
        CorrectiveAction,
        Decision,
        NoticeOfViolation,
        NuisanceAbatement,
        OffenseRecord,
        RequirementKind,
    )
    from enforcement.models.notices import NoticeStatus

    # A correction (a notice superseding another) is the same notice re-issued:
    # counted once, as the notice it corrects.
    issued = NoticeOfViolation.objects.filter(
        _days_in_year(year, "issued_on", as_of), supersedes__isnull=True
    ).filter(_reached(NoticeOfViolation, NoticeStatus.ISSUED, as_of))
    yield Count(
        "notices_issued",
        "enforcement",
        "Notices of violation issued",
        f"Written notices of violation ({cited('R-NOV-1')}) issued in the year; a "
        "corrected notice is counted once.",
        "enforcement.noticeofviolation",
        _ids(issued),
        rule_id="R-NOV-1",
    )
    for kind in RequirementKind:
        number = RequirementKind.number(kind)
        yield Count(
            f"notices_requiring_{kind.value}",
            "enforcement",
            f"… requiring ({number}) {kind.label.lower()}",
            f"Notices issued in the year that require ({number}) of "
            f"{cited('R-NOV-1')}: {kind.label.lower()}.",
            "enforcement.noticeofviolation",
            _ids(issued.filter(requirements__kind=kind)),
            rule_id="R-NOV-1",
        )
    yield Count(
        "notices_complied",
        "enforcement",
        "Notices complied with",
        "Notices whose compliance was recorded in the year (the date complied).",
        "enforcement.noticeofviolation",
        _ids(
            NoticeOfViolation.objects.filter(
                _days_in_year(year, "complied_on", as_of)
            ).filter(_reached(NoticeOfViolation, NoticeStatus.COMPLIED, as_of))
        ),
    )
    yield Count(
        "notices_escalated",
        "enforcement",
        "Notices escalated",
        "Notices escalated to the next remedy in the year (the date escalated).",
        "enforcement.noticeofviolation",
        _ids(
            NoticeOfViolation.objects.filter(
                _days_in_year(year, "escalated_on", as_of)
            ).filter(_reached(NoticeOfViolation, NoticeStatus.ESCALATED, as_of))
        ),
    )
    fined = issued.filter(proposed_fine__isnull=False)
    yield Count(
        "penalties_proposed",
        "enforcement",
        "Penalties proposed",
        "Notices issued in the year that propose a fine.",
        "enforcement.noticeofviolation",
        _ids(fined),
        rule_id="R-PEN-1",
    )
    imposed = OffenseRecord.objects.filter(
        _days_in_year(year, "outcome_on", as_of),
        fine_imposed__isnull=False,
        recorded_at__lte=as_of,
    )
    yield Count(
        "penalties_imposed",
        "enforcement",
        "Penalties imposed by a court",
        "Offenses whose court outcome, dated in the year, imposed a fine.",
        "enforcement.offenserecord",
        _ids(imposed),
        rule_id="R-PEN-1",
    )
    yield Count(
        "appeals_filed",
        "enforcement",
        "Appeals filed",
        "Appeals of notices of violation filed in the year.",
        "enforcement.appeal",
        _ids(
            Appeal.objects.filter(
                _days_in_year(year, "filed_on", as_of), recorded_at__lte=as_of
            )
        ),
        rule_id="R-APL-1",
    )
    yield Count(
        "appeals_heard",
        "enforcement",
        "Appeals heard",
        "Appeals whose hearing before the Board took place in the year (a decision "
        "followed it).",
        "enforcement.appeal",
        _ids(
            Appeal.objects.filter(_in_year(year, "hearing_at", as_of)).filter(
                _reached(Appeal, AppealStatus.DECIDED, as_of)
            )
        ),
        rule_id="R-APL-2",
    )
    decided = Appeal.objects.filter(_days_in_year(year, "decided_on", as_of)).filter(
        _reached(Appeal, AppealStatus.DECIDED, as_of)
    )
    yield Count(
        "appeals_decided",
        "enforcement",
        "Appeals decided",
        "Appeals the Board decided in the year (the date of the decision).",
        "enforcement.appeal",
        _ids(decided),
        rule_id="R-APL-3",
    )
    for decision in Decision:
        yield Count(
            f"appeals_{decision.value}",
            "enforcement",
            f"… notice {decision.label.lower()}",
            f"Appeals decided in the year with the decision “{decision.label}”.",
            "enforcement.appeal",
            _ids(decided.filter(decision=decision)),
            rule_id="R-APL-3",
        )
    yield Count(
        "corrective_measures",
        "enforcement",
        "Corrective measures begun",
        "Corrective measures at the discharger's expense recorded in the year.",
        "enforcement.correctiveaction",
        _ids(CorrectiveAction.objects.filter(_in_year(year, "created_at", as_of))),
        rule_id="R-COR-1",
    )
    yield Count(
        "corrective_work_done",
        "enforcement",
        "… work completed",
        "Corrective measures whose work was completed in the year.",
        "enforcement.correctiveaction",
        _ids(
            CorrectiveAction.objects.filter(
                _days_in_year(year, "work_completed_on", as_of), created_at__lte=as_of
            )
        ),
        rule_id="R-COR-1",
    )
    yield Count(
        "abatements",
        "enforcement",
        "Nuisance abatements declared",
        "Conditions declared a public nuisance and ordered abated in the year.",
        "enforcement.nuisanceabatement",
        _ids(
            NuisanceAbatement.objects.filter(
                _days_in_year(year, "declared_on", as_of), created_at__lte=as_of
            )
        ),
        rule_id="R-NUI-1",
    )
    yield Count(
        "suspensions",
        "enforcement",
        "Suspensions of MS4 access",
        "Emergency suspensions of access to the MS4 made in the year.",
        "enforcement.accesssuspension",
        _ids(
            AccessSuspension.objects.filter(
                _in_year(year, "suspended_at", as_of), created_at__lte=as_of
            )
        ),
        rule_id="R-SUS-1",
    )
    yield Count(
        "terminations",
        "enforcement",
        "Terminations of MS4 access",
        "Terminations of access to the MS4 that took effect in the year.",
        "enforcement.accesstermination",
        _ids(
            AccessTermination.objects.filter(
                _days_in_year(year, "terminated_on", as_of), created_at__lte=as_of
            )
        ),
        rule_id="R-SUS-2",
    )


def _sum(qs, name) -> Decimal:
    from django.db.models import Sum

    total = qs.aggregate(total=Sum(name))["total"]
    return (total or Decimal("0")).quantize(Decimal("0.01"))


def _deadlines(year, as_of) -> Iterable[Count]:
    """Deadlines due in the year, by the model's own statuses: met = done by the
    due date, missed = done after it, open = not yet done (as of the report)."""
    day = timezone.localtime(as_of).date()
    fell = deadline_selectors.due_between(
        Deadline.objects.filter(created_at__lte=as_of), year.first_day, year.last_day
    )
    done_by_then = Q(met_on__isnull=False, met_on__lte=day)
    met_q = done_by_then & Q(status=Deadline.Status.MET)
    missed_q = done_by_then & Q(status=Deadline.Status.MISSED)
    waived_q = Q(status__in=CLOSED_WITHOUT_DUTY)  # waived, replaced or ended
    open_q = (
        Q(status=Deadline.Status.OPEN)
        | Q(status__in=[Deadline.Status.MET, Deadline.Status.MISSED]) & ~done_by_then
    )
    met, missed, waived = (
        fell.filter(met_q),
        fell.filter(missed_q),
        fell.filter(waived_q),
    )
    from django.db.models import Count as Rows

    # one pass over the deadlines for the five numbers (a million rows on the
    # bench data set); the ids are read only when the report is frozen
    n = fell.aggregate(
        fell=Rows("pk"),
        met=Rows("pk", filter=met_q),
        missed=Rows("pk", filter=missed_q),
        waived=Rows("pk", filter=waived_q),
        open=Rows("pk", filter=open_q),
    )
    yield Count(
        "deadlines_fell",
        "deadlines",
        "Legal deadlines due in the year",
        "Deadlines computed under the rules of the chapter whose due date fell in "
        "the year, whoever had to act (office, Board, discharger).",
        "deadlines.deadline",
        _ids(fell),
        known=n["fell"],
    )
    yield Count(
        "deadlines_met",
        "deadlines",
        "… met",
        "Done by the due date (recorded met).",
        "deadlines.deadline",
        _ids(met),
        known=n["met"],
    )
    yield Count(
        "deadlines_missed",
        "deadlines",
        "… missed",
        "Done after the due date (recorded missed).",
        "deadlines.deadline",
        _ids(missed),
        known=n["missed"],
    )
    yield Count(
        "deadlines_waived",
        "deadlines",
        "… waived",
        "Waived, with the reason recorded.",
        "deadlines.deadline",
        _ids(waived),
        known=n["waived"],
    )
    yield Count(
        "deadlines_open",
        "deadlines",
        "… still open",
        "Not recorded met, missed or waived at the moment of the report.",
        "deadlines.deadline",
        _ids(fell.filter(open_q)),
        known=n["open"],
    )


def _per_month(year, result) -> list[dict]:
    """Reports received and discharges/connections confirmed per month."""
    counts = result.by_key()
    months = year.months()
    reports = dict.fromkeys(months, 0)
    confirmed = dict.fromkeys(months, 0)
    # counted by the database, month by month in the village's time zone
    from django.db.models import Count as Rows
    from django.db.models.functions import TruncMonth

    def by_month(qs, name, column, zoned=False):
        zone = {"tzinfo": timezone.get_current_timezone()} if zoned else {}
        rows = (
            qs.annotate(month=TruncMonth(name, **zone))
            .values("month")
            .annotate(n=Rows("pk"))
            .values_list("month", "n")
        )
        for month, n in rows:
            day = month.date() if hasattr(month, "date") else month
            if day in column:
                column[day] += n

    by_month(
        Report.objects.filter(pk__in=_source_query(counts["reports_received"])),
        "received_at",
        reports,
        zoned=True,
    )
    for key in ("discharge_confirmed", "connection_confirmed"):
        by_month(
            Case.objects.filter(pk__in=_source_query(counts[key])),
            "violation_confirmed_on",
            confirmed,
        )
    return [
        {
            "month": m.isoformat(),
            "label": f"{m:%b %Y}",
            "reports": reports[m],
            "confirmed": confirmed[m],
        }
        for m in months
    ]


def _source_query(count: Count):
    return count.source if not isinstance(count.source, list) else count.ids


# --- the records behind a count ------------------------------------------------


def _link(model_label: str) -> Callable:
    from django.urls import reverse

    special = {
        "intake.report": lambda r: reverse("reports:detail", args=[r.pk]),
        "cases.outfall": lambda o: reverse("inspections:outfall_detail", args=[o.pk]),
        "deadlines.deadline": lambda d: reverse("deadlines:detail", args=[d.pk]),
        "inspections.sample": lambda s: s.inspection.get_absolute_url(),
        "enforcement.offenserecord": lambda o: (
            o.case.get_absolute_url() if o.case_id else ""
        ),
    }
    if model_label in special:
        return special[model_label]
    return lambda record: record.get_absolute_url()


def records_of(count: Count, *, limit: int | None = None) -> list[dict]:
    """The records a count is made of, each with its words and a link."""
    from django.apps import apps

    model = apps.get_model(count.model)
    qs = model._default_manager.filter(pk__in=_source_query(count)).order_by("pk")
    link = _link(count.model)
    related = {
        "inspections.sample": ["inspection"],
        "enforcement.offenserecord": ["case"],
        "inspections.spillnotification": ["premises"],
        "enforcement.noticeofviolation": ["case"],
    }.get(count.model, [])
    if related:
        qs = qs.select_related(*related)
    if limit is not None:
        qs = qs[:limit]
    rows = []
    for record in qs:
        try:
            url = link(record)
        except Exception:  # a record without a page of its own: listed, unlinked
            url = ""
        rows.append({"pk": record.pk, "text": _describe(count, record), "url": url})
    return rows


def _describe(count: Count, record) -> str:
    if count.model == "cases.case":
        text = f"{record.number}: {record.summary}"
        if record.eliminated_on and "eliminat" in count.key:
            text += f" (eliminated {human_short_date(record.eliminated_on)})"
        return text
    if count.model == "intake.report":
        when = human_datetime(record.received_at)
        return (
            f"{record.tracking_code} ({record.get_channel_display()}, received {when})"
        )
    if count.model == "deadlines.deadline":
        return f"{record.label} — due {human_short_date(record.due_date)} ({record.get_status_display()})"
    return str(record)
