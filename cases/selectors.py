"""Reads for the staff pages: the triage queue, duplicate suggestions, the
dashboard, the case list and search, the case page. No writes here."""

import datetime as dt
import functools
import math
import re
from collections.abc import Callable
from dataclasses import dataclass

from django.db import DEFAULT_DB_ALIAS
from django.db.models import (
    Count,
    Exists,
    Prefetch,
    Q,
    QuerySet,
    Window,
)
from django.utils import timezone

from intake.models import Report
from kernel import page_reads
from kernel.compiled import STAND_IN_ID, CompiledQuery
from kernel.inline_rows import Inline, attach_inline, inline_annotated, with_inline
from kernel.models import CaseEvent, actor_words, event_kinds
from kernel.paging import count_beside
from kernel.roles import CASE_READERS, Role, has_role
from outbox.selectors import delivery_heads

from .models import CLOSED_STATUSES, Case, CaseParty, CaseStatus, Party, Premises

DUPLICATE_RADIUS_M = 150
DUPLICATE_WINDOW_DAYS = 30
CASE_NUMBER_RE = re.compile(r"^\s*MS4-(\d{4})-(\d{1,6})\s*$", re.IGNORECASE)


def present_among(case: Case, querysets: dict[str, QuerySet]) -> dict[str, list]:
    """The rows of each queryset of `case`'s panels, fetching only the non-empty
    ones: one query of EXISTS over all of them, then one per queryset that has
    rows (most cases have few kinds of record), instead of one per queryset. On
    the case page the EXISTS query is the page's one (`panel_presence`)."""
    found = _presence(case, querysets)
    return {key: list(qs) if found.get(key) else [] for key, qs in querysets.items()}


def _exists(case: Case, querysets: dict[str, QuerySet]) -> dict[str, bool]:
    if not querysets:
        return {}
    found = (
        Case.objects.filter(pk=case.pk)
        .values(**{f"has_{key}": Exists(qs) for key, qs in querysets.items()})
        .first()
        or {}
    )
    return {key: bool(found.get(f"has_{key}")) for key in querysets}


# The record sets of the case page's panels, by name: each app registers its own
# (AppConfig.ready()), so one EXISTS query tells the page which panels to read.
_PANEL_RECORDS: list[Callable[[Case], dict[str, QuerySet]]] = []


def register_panel_records(sets: Callable[[Case], dict[str, QuerySet]]) -> None:
    if sets not in _PANEL_RECORDS:
        _PANEL_RECORDS.append(sets)


def own_panel_records(case: Case) -> dict[str, QuerySet]:
    """This app's optional records on the case page."""
    from deadlines.models import Reminder
    from documents.models import IssuedDocument
    from intake.models import ReportPhoto

    return {
        "reports": case.reports.all(),
        "report_categories": Report.pollutant_categories.through.objects.filter(
            report__case=case
        ),
        "report_photos": ReportPhoto.objects.filter(report__case=case),
        "reminders": Reminder.objects.filter(deadline__case=case),
        "documents": IssuedDocument.objects.filter(case=case),
        "attachments": case.attachments.all(),
    }


def _panel_record_sets(case: Case) -> dict[str, QuerySet]:
    querysets = own_panel_records(case)
    for sets in _PANEL_RECORDS:
        querysets.update(sets(case))
    return querysets


# The presence query depends on nothing but the case's id (each record set is
# "rows of this case"), yet building its ~30 EXISTS in the ORM cost more CPU than
# the rest of the case page's queries together (bench/NOTES.md). So its SQL is
# compiled once per process, for a stand-in id, and run with the case's id in
# the stand-in's place. Only SQL text is kept, never a row.
_STAND_IN_PK = -2_000_000_011  # no case has it; no record set's constant equals it
_presence_sql_cache: dict[tuple, tuple[str, list, list[int], list[str]]] = {}


def _presence_sql() -> tuple[str, list, list[int], list[str]]:
    """(sql, params, the params' positions of the case id, the keys in order)."""
    registered = tuple(_PANEL_RECORDS)
    found = _presence_sql_cache.get(registered)
    if found is None:
        stand_in = Case(pk=_STAND_IN_PK)
        querysets = _panel_record_sets(stand_in)
        qs = Case.objects.filter(pk=stand_in.pk).values(
            **{f"has_{key}": Exists(q) for key, q in querysets.items()}
        )
        sql, params = qs.query.sql_with_params()
        params = list(params)
        slots = [i for i, p in enumerate(params) if p == _STAND_IN_PK]
        if not slots:
            raise RuntimeError("the presence query does not name its case")
        found = (sql, params, slots, list(querysets))
        _presence_sql_cache.clear()  # one set of registrations per process
        _presence_sql_cache[registered] = found
    return found


def _presence_of(case: Case) -> dict[str, bool]:
    from django.db import connection

    sql, params, slots, keys = _presence_sql()
    params = list(params)
    for i in slots:
        params[i] = case.pk
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    if row is None:
        return dict.fromkeys(keys, False)
    return {key: bool(value) for key, value in zip(keys, row, strict=True)}


def panel_presence(case: Case) -> dict[str, bool]:
    """Which registered record sets of `case` have rows: one query, once per
    case page (kernel.page_reads, where CasesConfig.ready() registers it as
    "panel_presence" for the apps below, the deadlines' reminders); {} off the
    case page."""
    return page_reads.read(case, page_reads.PRESENCE) or {}


def has_panel_records(case: Case, key: str) -> bool:
    """False only when the case page's presence query found no `key` rows."""
    return page_reads.has_records(case, key)


def panel_prefetch(case: Case, key: str, lookup: str, model) -> Prefetch | str:
    """`lookup` to prefetch; an empty one (no query) when the case page's
    presence query found no `key` rows."""
    if has_panel_records(case, key):
        return lookup
    return Prefetch(lookup, queryset=model.objects.none())


def _presence(case: Case, querysets: dict[str, QuerySet]) -> dict[str, bool]:
    shared = panel_presence(case)
    if shared and all(key in shared for key in querysets):
        return shared
    return _exists(case, querysets)


def case_attachments(case: Case):
    if not has_panel_records(case, "attachments"):
        return []
    return case.attachments.select_related("uploaded_by")


def case_list_rows() -> QuerySet[Case]:
    """Cases as the lists show them: with their premises and officer."""
    return Case.objects.select_related("premises", "assigned_officer")


# --- triage ---------------------------------------------------------------------
def triage_queue() -> QuerySet[Report]:
    """Reports waiting for triage: not yet on any case, oldest first."""
    return (
        Report.objects.filter(case__isnull=True)
        .prefetch_related("pollutant_categories", "photos")
        .order_by("received_at")
    )


def newest_reports(limit: int = 5) -> tuple[list[Report], int]:
    """The newest reports waiting for triage, as the dashboard shows them, with
    their categories (the hazardous flag) and photos, and how many are waiting in
    all, in one query: the count is a subquery computed once beside the rows.
    (A window count before the LIMIT made PostgreSQL read every waiting report's
    photos: 12 ms at 7,000 waiting, bench/.)"""
    rows = attach_inline(
        _newest_reports(limit).rows(), DEFAULT_DB_ALIAS, *REPORT_EVIDENCE.values()
    )
    return rows, (rows[0].waiting_in_all if rows else 0)


@functools.cache
def _newest_reports(limit: int) -> CompiledQuery:
    def build():
        waiting = Report.objects.filter(case__isnull=True)
        return inline_annotated(
            waiting.annotate(waiting_in_all=count_beside(waiting)).order_by(
                "-received_at", "-pk"
            )[:limit],
            *REPORT_EVIDENCE.values(),
        )

    return CompiledQuery(build)


# What a report's evidence shows besides itself (cases/_report_evidence.html),
# read in the reports' own query (kernel.inline_rows), by presence-query key.
REPORT_EVIDENCE = {
    "report_categories": Inline("pollutant_categories", ("sort_order", "name")),
    "report_photos": Inline("photos", ("id",)),
}


def distance_m(a: tuple[float, float], b: tuple[float, float]) -> float:
    """Great-circle distance in metres (haversine; plenty for 150 m)."""
    lat1, lon1, lat2, lon2 = map(math.radians, (*a, *b))
    h = (
        math.sin((lat2 - lat1) / 2) ** 2
        + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    )
    return 2 * 6_371_000 * math.asin(math.sqrt(h))


def _norm_address(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", " ", (text or "").casefold()).strip()


@dataclass(frozen=True)
class Suggestion:
    case: Case
    reason: str


def duplicate_candidates(now=None) -> list[Case]:
    """Cases a new report could belong to: still open, or opened or closed in the
    last 30 days (issue 3). One query."""
    now = now or timezone.now()
    since = now - dt.timedelta(days=DUPLICATE_WINDOW_DAYS)
    return list(
        case_list_rows()
        .exclude(status=CaseStatus.DUPLICATE)
        .filter(
            ~Q(status__in=CLOSED_STATUSES)
            | Q(opened_at__gte=since)
            | Q(closed_at__gte=since)
        )
    )


def duplicate_suggestions(report: Report, candidates: list[Case]) -> list[Suggestion]:
    """Likely duplicates of `report` among `candidates`: same premises address, or
    a location within 150 m. Nearest first."""
    found = []
    address = _norm_address(report.address)
    here = (
        (float(report.latitude), float(report.longitude))
        if report.latitude is not None and report.longitude is not None
        else None
    )
    for case in candidates:
        if (
            address
            and case.premises is not None
            and _norm_address(case.premises.address) == address
        ):
            found.append((0.0, Suggestion(case, "same premises")))
            continue
        there = case.location
        if here and there:
            metres = distance_m(here, there)
            if metres <= DUPLICATE_RADIUS_M:
                found.append((metres, Suggestion(case, f"{metres:.0f} m away")))
    found.sort(key=lambda pair: pair[0])
    return [s for _, s in found]


def triage_rows(reports) -> list[tuple[Report, list[Suggestion]]]:
    """Each queued report with its duplicate suggestions (two queries in all)."""
    candidates = duplicate_candidates()
    return [(r, duplicate_suggestions(r, candidates)) for r in reports]


DUPLICATE_CHOICES = 15


def duplicate_choices(
    suggestions: list[Suggestion], candidates: list[Case]
) -> list[tuple[int, str]]:
    """The cases a report could be closed as a duplicate of, as a list of
    (pk, label): the nearby ones first (`duplicate_suggestions`, with why), then
    the most recently opened of `candidates`; at most DUPLICATE_CHOICES."""
    chosen = [(s.case, s.reason) for s in suggestions]
    seen = {case.pk for case, _ in chosen}
    recent = sorted(candidates, key=lambda c: (c.opened_at, c.pk), reverse=True)
    for case in recent:
        if case.pk not in seen:
            chosen.append((case, ""))
            seen.add(case.pk)
    rows = []
    for case, reason in chosen[:DUPLICATE_CHOICES]:
        where = (
            str(case.premises) if case.premises else case.location_description
        ) or case.summary
        words = [case.number, where[:60], case.get_status_display().lower()]
        if reason:
            words.append(reason)
        rows.append((case.pk, " · ".join(words)))
    return rows


# --- dashboard --------------------------------------------------------------------
def dashboard_for(user) -> dict:
    """What the dashboard shows `user`: per role, a fixed number of queries."""
    data = {
        "is_smo": has_role(user, Role.SMO),
        "is_reader": has_role(user, *CASE_READERS),
    }
    if data["is_smo"]:
        data["newest_reports"], data["triage_count"] = newest_reports()
        data["open_count"] = Case.objects.exclude(status__in=CLOSED_STATUSES).count()
        data["my_cases"] = _MY_CASES.rows(officer=user.pk)
        outbox = delivery_heads(limit=OUTBOX_ON_DASHBOARD)
        data["outbox_counts"] = outbox["counts"]
        data["failed_messages"] = outbox["failed"]
        data["pending_messages"] = outbox["pending"]
    data["is_clerk"] = has_role(user, Role.CLERK)
    data["is_attorney"] = has_role(user, Role.ATTORNEY)
    data["is_building_inspector"] = has_role(user, Role.BUILDING_INSPECTOR)
    if data["is_reader"]:
        data["recent_events"] = _RECENT_EVENTS.rows()
    return data


# The dashboard's lists, each compiled once (kernel.compiled).
_MY_CASES = CompiledQuery(
    lambda officer: (
        case_list_rows()
        .filter(assigned_officer=officer)
        .exclude(status__in=CLOSED_STATUSES)
        .order_by("-opened_at")[:10]
    ),
    officer=STAND_IN_ID,
)
_RECENT_EVENTS = CompiledQuery(
    lambda: (
        CaseEvent.objects.select_related("case", "premises", "actor")
        .only(*RECENT_EVENT_FIELDS)
        .order_by("-at", "-id")[:15]
    )
)
OUTBOX_ON_DASHBOARD = 5
# What "Recent activity" prints of an entry (cases/dashboard.html): when, the
# case or premises it is about, what happened and who did it (CaseEvent.by_words).
RECENT_EVENT_FIELDS = (
    "at",
    "kind",
    "summary",
    "actor_kind",
    "case__number",
    "case__status",  # read when a case is loaded (its state machine)
    "premises__address",
    "actor__username",
    "actor__first_name",
    "actor__last_name",
)


def head_and_count(
    qs: QuerySet, limit: int, head: CompiledQuery | None = None
) -> tuple[list, int]:
    """The first `limit` rows of `qs` and how many there are in all; the COUNT query
    is made only when the head is full (a short head is the whole list). `head`:
    `qs[:limit]` compiled once (kernel.compiled)."""
    rows = head.rows() if head is not None else list(qs[:limit])
    return rows, (len(rows) if len(rows) < limit else qs.count())


# --- the case list ------------------------------------------------------------------
def case_search(
    *,
    q: str = "",
    status: str = "",
    kind: str = "",
    officer=None,
    opened_from: dt.date | None = None,
    opened_to: dt.date | None = None,
) -> QuerySet[Case]:
    """Cases matching the search text (case number, address, tax map number, party
    name, report tracking code) and the filters. "open" as status = any open one."""
    qs = case_list_rows()
    q = (q or "").strip()
    if q:
        number = CASE_NUMBER_RE.match(q)
        if number:
            year, seq = number.groups()
            qs = qs.filter(number__iexact=f"MS4-{year}-{int(seq):04d}")
        else:
            # Each branch is a subquery over one table, so that on PostgreSQL
            # the pg_trgm GIN indexes over UPPER(col) serve its `icontains`
            # (UPPER(col::text) LIKE UPPER(%s); migration 0012) and the b-tree
            # over UPPER(tracking_code) its `iexact`; an OR of columns across
            # joined tables could use none of them (bench/: filtered case list).
            own = Case.objects.filter(
                Q(number__icontains=q)
                | Q(summary__icontains=q)
                | Q(location_description__icontains=q)
            )
            premises = Premises.objects.filter(
                Q(address__icontains=q) | Q(tax_map_number__icontains=q)
            )
            parties = Party.objects.filter(name__icontains=q)
            named = CaseParty.objects.filter(party__in=parties.values("pk"))
            reported = Report.objects.filter(
                tracking_code__iexact=q, case__isnull=False
            )
            qs = qs.filter(
                Q(pk__in=own.values("pk").order_by())
                | Q(premises__in=premises.values("pk").order_by())
                | Q(responsible_party__in=parties.values("pk").order_by())
                | Q(pk__in=named.values("case_id").order_by())
                | Q(pk__in=reported.values("case_id").order_by())
            )
    if status == "open":
        qs = qs.exclude(status__in=CLOSED_STATUSES)
    elif status == "closed":
        qs = qs.filter(status__in=CLOSED_STATUSES)
    elif status:
        qs = qs.filter(status=status)
    if kind:
        qs = qs.filter(kind=kind)
    if officer is not None:
        qs = qs.filter(assigned_officer=officer)
    if opened_from:
        qs = qs.filter(opened_at__date__gte=opened_from)
    if opened_to:
        qs = qs.filter(opened_at__date__lte=opened_to)
    return qs.order_by("-opened_at", "-id")


# --- the case page --------------------------------------------------------------------
def case_by_number(number: str) -> Case:
    """The case with its related records for the case page (raises DoesNotExist).
    Not `merged_into` (read only when set, on merged cases): an eighth table in
    the join tripled PostgreSQL's planning time (1.2 -> 3.5 ms)."""
    query = Case.objects.select_related(
        "premises",
        "outfall",
        "assigned_officer",
        "responsible_party",
        "exempt_category",
        "opened_by",
    ).filter(number__iexact=number)
    # Its pollutants in the same query (kernel.inline_rows), not a prefetch.
    found = with_inline(query, Inline("pollutant_categories", ("sort_order", "name")))
    if not found:
        raise Case.DoesNotExist(f"No case {number}")
    if len(found) > 1:
        raise Case.MultipleObjectsReturned(f"More than one case {number}")
    return found[0]


TIMELINE_RECENT = 100


@dataclass(frozen=True, slots=True)
class ChronologyEntry:
    """One line of the case page's chronology, as the page prints it."""

    at: dt.datetime  # in the village's time; the page prints it (human_tags)
    kind: str  # the kind's label
    by_words: str  # who acted, in words (`actor_words`)
    rule_id: str
    public: bool
    summary: str
    detail: str


_CHRONOLOGY_FIELDS = (
    "at",
    "kind",
    "actor__first_name",
    "actor__last_name",
    "actor__username",
    "actor_kind",
    "rule_id",
    "public",
    "summary",
    "detail",
)


def _chronology_entries(rows) -> list[ChronologyEntry]:
    # Read as plain values: 100 events as models (and their
    # actors) through the template's lookups were ~20 % of the case page (bench/).
    zone = timezone.get_current_timezone()
    labels = dict(event_kinds())
    entries = []
    for row in rows:
        at, kind, first, last, username, actor_kind, rule_id, public = row[:8]
        summary, detail = row[8:10]
        name = " ".join(filter(None, (first, last))) or username or ""
        entries.append(
            ChronologyEntry(
                at=at.astimezone(zone),
                kind=labels.get(kind, kind),
                by_words=actor_words(actor_kind, kind, name),
                rule_id=rule_id,
                public=public,
                summary=summary,
                detail=detail,
            )
        )
    return entries


def case_timeline(case: Case) -> QuerySet[CaseEvent]:
    """The whole chronology of `case`, oldest first, with who did it."""
    return case.events.select_related("actor").order_by("at", "id")


def case_timeline_page(case: Case, *, show_all: bool = False) -> dict:
    """The chronology for the case page: the most recent TIMELINE_RECENT events
    (oldest first among them) unless `show_all`, with the total count so the page
    can offer the whole, printable chronology one click away."""
    # The total rides along with the rows (a window over all of the case's
    # events, before the LIMIT): one query.
    events = case.events.annotate(total=Window(Count("pk"))).values_list(
        *_CHRONOLOGY_FIELDS, "total"
    )
    if show_all:
        rows = list(events.order_by("at", "id"))
    else:
        rows = list(events.order_by("-at", "-id")[:TIMELINE_RECENT])[::-1]
    total = rows[0][-1] if rows else 0
    return {
        "events": _chronology_entries(row[:-1] for row in rows),
        "total": total,
        "truncated": len(rows) < total,
        "show_all": show_all and total > TIMELINE_RECENT,
    }


def case_parties(case: Case) -> list[CaseParty]:
    """The parties named on `case` with their roles; read once on the case page
    (its parties panel and the respondent's panel, kernel.page_reads)."""
    return page_reads.once(
        case,
        "case_parties",
        lambda: list(
            case.case_parties.select_related("party").order_by("role", "party__name")
        ),
    )


def case_recipients_listed(case: Case) -> list[Party]:
    """parties_of_case by name, from case_parties and the case's responsible
    party (no query of its own on the case page)."""
    parties = {cp.party_id: cp.party for cp in case_parties(case)}
    if case.responsible_party_id and case.responsible_party_id not in parties:
        parties[case.responsible_party_id] = case.responsible_party
    return sorted(parties.values(), key=lambda p: (p.name, p.pk))


def parties_of_case(case: Case) -> QuerySet[Party]:
    """The parties named on `case` (in any role) and its responsible party: the
    ones its page may edit and a notice on it may be addressed to."""
    return Party.objects.filter(
        Q(case_roles__case=case) | Q(pk=case.responsible_party_id)
    ).distinct()


def case_reports(case: Case) -> QuerySet[Report] | list:
    """The case's reports with what the evidence include shows (three queries;
    on the case page one, with only the kinds it has)."""
    if not has_panel_records(case, "reports"):
        return []
    reports = case.reports.order_by("received_at")
    if not page_reads.is_shared(case):
        return reports.prefetch_related("pollutant_categories", "photos")
    # The case page: the kinds it has in the reports' own query, an empty
    # prefetch (no query) for the others.
    inline, empty = [], []
    for key, spec in REPORT_EVIDENCE.items():
        if has_panel_records(case, key):
            inline.append(spec)
        else:
            model = Report._meta.get_field(spec.accessor).related_model
            empty.append(Prefetch(spec.accessor, queryset=model.objects.none()))
    return with_inline(reports.prefetch_related(*empty), *inline)
