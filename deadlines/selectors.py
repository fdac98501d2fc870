"""Reads of deadlines: who sees which, the dashboard's "due this week" and
"overdue", the staff list's filters, and who may close one."""

import datetime as dt
import functools

from django.contrib.auth import get_user_model
from django.db.models import F, Prefetch, Q, QuerySet
from django.utils import timezone

from kernel import page_reads
from kernel.compiled import STAND_IN_DATE, STAND_IN_ID, STAND_IN_IDS, CompiledQuery
from kernel.inline_rows import Inline, with_inline
from kernel.lookups import AnyOf
from kernel.roles import Role, has_role

from . import engine
from .models import Deadline, OfficeClosure, Reminder

R = Deadline.Responsible
# The SMO follows the duties of the SMO and of the people it enforces against;
# the clerk those of the Board and the clerk's office.
SMO_DUTIES = (R.SMO, R.DISCHARGER, R.FACILITY)
CLERK_DUTIES = (R.CLERK, R.BOARD)
DUE_SOON_DAYS = engine.DUE_SOON_DAYS


def today() -> dt.date:
    return timezone.localdate()


CLOSURES_LISTED_DAYS = 366


def office_closures_listed() -> QuerySet[OfficeClosure]:
    """The office closures the closures page lists: those of the past year and
    every one to come (older ones no longer move an open deadline)."""
    return OfficeClosure.objects.filter(
        day__gte=today() - dt.timedelta(days=CLOSURES_LISTED_DAYS)
    )


def _with_relations(qs: QuerySet) -> QuerySet:
    return qs.select_related("case", "assigned_to", "case__assigned_officer")


def deadlines_for_role(user) -> QuerySet:
    """The deadlines `user` may see on the staff list: SMO staff administer the
    article (every deadline); the clerk sees the clerk/Board duties."""
    if has_role(user, Role.SMO):
        return _with_relations(Deadline.objects.all())
    duties = CLERK_DUTIES if has_role(user, Role.CLERK) else ()
    return _with_relations(Deadline.objects.filter(responsible__in=duties))


def deadlines_of_user(user) -> QuerySet:
    """The deadlines that are `user`'s to watch (dashboard, iCal, digest):
    SMO: SMO/discharger/facility duties assigned to them, of cases assigned to
    them, and all unassigned ones; clerk: every clerk/Board duty."""
    return _with_relations(_deadlines_of(user.pk, *_watches(user)))


def _watches(user) -> tuple[bool, bool]:
    """Whether `user` watches the SMO's duties, and the clerk's."""
    return has_role(user, Role.SMO), has_role(user, Role.CLERK)


def _deadlines_of(user_id: int | None, smo: bool, clerk: bool) -> QuerySet:
    """deadlines_of_user for the user of id `user_id` (used for the SMO's duties
    only) watching the SMO's duties if `smo`, the clerk's if `clerk`."""
    q = Q(pk__in=[])
    if smo:
        unassigned = Q(assigned_to__isnull=True) & (
            Q(case__isnull=True) | Q(case__assigned_officer__isnull=True)
        )
        mine = Q(assigned_to=user_id) | (
            Q(assigned_to__isnull=True) & Q(case__assigned_officer=user_id)
        )
        q |= Q(responsible__in=SMO_DUTIES) & (mine | unassigned)
    if clerk:
        q |= Q(responsible__in=CLERK_DUTIES)
    return Deadline.objects.filter(q)


def due_window(on: dt.date | None = None) -> tuple[dt.date, dt.date]:
    """engine.due_window of `on` (default today): the one definition of overdue
    and due this week, here as the bounds of the queries below."""
    return engine.due_window(on or today())


def overdue(qs: QuerySet, on: dt.date | None = None) -> QuerySet:
    """The open deadlines of `qs` whose due date has passed (Deadline.is_overdue)."""
    start, _ = due_window(on)
    return _open_due_before(qs, start)


def due_this_week(qs: QuerySet, on: dt.date | None = None) -> QuerySet:
    """The open deadlines of `qs` due this week (Deadline.is_due_soon)."""
    start, end = due_window(on)
    return _open_due_before(qs, end).filter(due_date__gte=start)


def _open_due_before(qs: QuerySet, end: dt.date) -> QuerySet:
    """The open deadlines of `qs` due before `end`: with `end` the due window's
    end, those overdue and those due this week together."""
    return qs.filter(status=Deadline.Status.OPEN, due_date__lt=end)


DASHBOARD_PANEL_SIZE = 10  # the most urgent in each panel; "See all" for the rest


def _panel_rows() -> QuerySet:
    """What the dashboard's panels show of a deadline (deadlines/_panel_list.html):
    its date, label, rule, duty and case number; one join, not three."""
    return Deadline.objects.select_related("case").only(
        "id",
        "due_date",
        "label",
        "rule_id",
        "responsible",
        "case__number",
        "case__status",  # read when a case is loaded (its state machine)
    )


# What dashboard_panels reads of the deadlines it lists (`rows`), by ids: each
# compiled once (kernel.compiled), as are its other two queries below.
PANEL_ROWS = CompiledQuery(
    lambda ids: _panel_rows().filter(AnyOf(F("pk"), ids)), ids=STAND_IN_IDS
)
FULL_ROWS = CompiledQuery(  # every column, the case and the people (the digest)
    lambda ids: _with_relations(Deadline.objects.filter(AnyOf(F("pk"), ids))),
    ids=STAND_IN_IDS,
)
_DUE_IDS = CompiledQuery(
    lambda end: _open_due_before(Deadline.objects.all(), end).values_list(
        "pk", flat=True
    ),
    end=STAND_IN_DATE,
)


@functools.cache
def _users_among(smo: bool, clerk: bool) -> CompiledQuery:
    """(id, due date) of the deadlines among `ids` that a user watching the SMO's
    and/or the clerk's duties watches, earliest due first."""

    def build(ids, user=None):
        return (
            _deadlines_of(user, smo, clerk)
            .filter(AnyOf(F("pk"), ids))
            .order_by("due_date", "id")
            .values_list("pk", "due_date")
        )

    if smo:  # the SMO's duties are read by the user's id
        return CompiledQuery(build, ids=STAND_IN_IDS, user=STAND_IN_ID)
    return CompiledQuery(build, ids=STAND_IN_IDS)


def due_between(qs: QuerySet, first: dt.date, last: dt.date) -> QuerySet:
    """Deadlines whose due date falls from `first` to `last`, both included
    (a reporting year's deadlines), whatever their status."""
    return qs.filter(due_date__gte=first, due_date__lte=last)


def dashboard_panels(
    user,
    on: dt.date | None = None,
    limit: int | None = None,
    rows: CompiledQuery = FULL_ROWS,
) -> dict:
    """{"overdue": [...], "due_this_week": [...], "overdue_count": n,
    "due_this_week_count": n} for the dashboard and digest. Most urgent first
    (earliest due date); `limit` keeps only that many in each list (the dashboard),
    the counts are always of all of them. `rows`: what to read of the deadlines
    listed (PANEL_ROWS, the dashboard's; FULL_ROWS, every column, the case and
    the people)."""
    on = on or today()
    smo, clerk = _watches(user)
    lists = {"overdue": [], "due_this_week": []}
    if smo or clerk:
        # The open deadlines that are due are few, but PostgreSQL cannot tell from
        # its statistics (most deadlines are past due yet closed) and joined every
        # case (90 ms at 50,000 cases, bench/ issue 9). So: their ids from the
        # partial index; which of them are the user's, as (id, due date) only;
        # then the rows shown. Three queries, whatever the number of deadlines.
        _, end = due_window(on)
        due_ids = _DUE_IDS.rows(end=end)
        who = {"user": user.pk} if smo else {}
        for pk, due_date in _users_among(smo, clerk).rows(ids=due_ids, **who):
            lists[
                "overdue" if engine.is_past_due(due_date, on) else "due_this_week"
            ].append(pk)
    shown = {key: ids[:limit] for key, ids in lists.items()}
    wanted = [pk for ids in shown.values() for pk in ids]
    found = {d.pk: d for d in rows.rows(ids=wanted)} if wanted else {}
    panels = {}
    for key, ids in shown.items():
        panels[key] = [found[pk] for pk in ids if pk in found]
        panels[f"{key}_count"] = len(lists[key])
    return panels


def with_reminders(qs: QuerySet) -> QuerySet:
    return qs.prefetch_related(
        Prefetch("reminders", queryset=Reminder.objects.order_by("created_at"))
    )


def case_deadlines(case) -> list[Deadline]:
    """Every deadline of `case`, with the reminders sent about each. Through the
    case's related manager, so each deadline's `case` is `case` itself (no join
    of the cases table, whose many indexes make planning the join cost more than
    the query). Read once on the case page (its deadline panel and the notices'
    key dates, kernel.page_reads)."""
    return page_reads.once(
        case,
        "case_deadlines",
        lambda: list(_with_reminders_of(case)),
    )


def _with_reminders_of(case) -> QuerySet | list[Deadline]:
    rows = case.deadlines.select_related("assigned_to").order_by("due_date", "id")
    if page_reads.has_records(case, "reminders"):
        if page_reads.is_shared(case):  # in the deadlines' query (kernel.inline_rows)
            return with_inline(rows, Inline("reminders", ("created_at",)))
        return with_reminders(rows)
    # the case page found none: an empty prefetch, no query
    return rows.prefetch_related(
        Prefetch("reminders", queryset=Reminder.objects.none())
    )


FILTERS = {
    "open": "Open",
    "overdue": "Overdue",
    "week": "Due this week",
    "closed": "Met, missed or waived",
    "all": "All",
}


def filter_deadlines(
    qs: QuerySet,
    *,
    show: str = "open",
    responsible: str = "",
    rule_id: str = "",
    mine_of=None,
) -> QuerySet:
    """The staff list's filters (unknown values mean "no filter")."""
    if show == "open":
        qs = qs.filter(status=Deadline.Status.OPEN)
    elif show == "overdue":
        qs = overdue(qs)
    elif show == "week":
        qs = due_this_week(qs)
    elif show == "closed":
        qs = qs.exclude(status=Deadline.Status.OPEN)
    if responsible in R.values:
        qs = qs.filter(responsible=responsible)
    if rule_id:
        qs = qs.filter(rule_id=rule_id)
    if mine_of is not None:
        qs = qs.filter(
            Q(assigned_to=mine_of)
            | Q(assigned_to__isnull=True, case__assigned_officer=mine_of)
        )
    return qs


def may_close_deadline(user, deadline: Deadline) -> bool:
    """Record met or waive: the SMO any deadline; the clerk Board/clerk duties."""
    if has_role(user, Role.SMO):
        return True
    return has_role(user, Role.CLERK) and deadline.responsible in CLERK_DUTIES


def staff_recipients(deadline: Deadline, role_users: dict) -> list:
    """The staff users to remind about `deadline`: its assignee, else the case's
    officer (SMO duties), else everyone of the role. `role_users` maps
    Role → list of users (loaded once per sweep)."""
    if deadline.assigned_to_id and deadline.assigned_to.email:
        return [deadline.assigned_to]
    if deadline.responsible in CLERK_DUTIES:
        return list(role_users[Role.CLERK])
    officer = deadline.case.assigned_officer if deadline.case_id else None
    if officer is not None and officer.is_active and officer.email:
        return [officer]
    return list(role_users[Role.SMO])


def users_by_role() -> dict:
    """Active users with an e-mail address of the SMO and clerk groups."""
    User = get_user_model()
    out = {}
    for role in (Role.SMO, Role.CLERK):
        out[role] = list(
            User.objects.filter(groups__name=role.value, is_active=True)
            .exclude(email="")
            .order_by("pk")
            .distinct()
        )
    return out
