"""Reads of the enforcement app: lists, the case's remedies, the clerk's lists,
what awaits a sign-off, the continued-violation count, a notice served late."""

import datetime as dt
from dataclasses import dataclass

from django.contrib.contenttypes.models import ContentType
from django.db.models import Count, Prefetch, prefetch_related_objects
from django.utils import timezone

from cases.selectors import has_panel_records, present_among
from deadlines.engine import RULES
from deadlines.models import CLOSED_WITHOUT_DUTY, Deadline
from deadlines.selectors import case_deadlines
from deadlines.services import deadlines_for
from kernel import page_reads
from kernel.humanize import human_long_date
from kernel.paging import rows_by_ids
from kernel.roles import Role, has_role

from .models import (
    COMPLIANCE_RULES,
    STANDING_DATES,
    AccessSuspension,
    AccessTermination,
    AlternativeRemedy,
    AlternativeStatus,
    Appeal,
    AppealStatus,
    CorrectiveAction,
    InjunctionReferral,
    NoticeOfViolation,
    NoticeStatus,
    NuisanceAbatement,
    RequirementKind,
    ServiceRecord,
)
from .penalties import (
    AppealPending,
    ContinuedViolation,
    continued_violation,
    continued_violation_start,
)
from .services.appeals import appeal_due_date

# Each remedy workflow (R-REM-1: any number at once on a case), by URL slug.
REMEDY_MODELS = {
    "corrective": CorrectiveAction,
    "nuisance": NuisanceAbatement,
    "injunction": InjunctionReferral,
    "suspension": AccessSuspension,
    "termination": AccessTermination,
    "alternative": AlternativeRemedy,
}


def notice_list():
    return (
        NoticeOfViolation.objects.select_related("case", "recipient")
        .prefetch_related("requirements")
        .order_by("-created_at")
    )


def case_notices(case) -> list[NoticeOfViolation]:
    """The notices of `case`, newest first, with their recipient, replacements
    and appeals (with the appellant); read once on the case page (the
    enforcement panel, the appeal guard, the respondent's panel:
    kernel.page_reads)."""
    if not has_panel_records(case, "notices"):
        return []
    return page_reads.once(
        case,
        "enforcement.notices",
        lambda: list(
            case.notices.select_related(
                "recipient", "supersedes", "superseded_by"
            ).prefetch_related(
                Prefetch(
                    "appeals", queryset=Appeal.objects.select_related("appellant")
                ),
            )
        ),
    )


def case_appeal_pending(case) -> bool:
    """An appeal of a notice of `case` awaits the Board (filed, or its hearing
    scheduled): NoticeQuerySet.with_pending_appeal over the notices read once."""
    return any(notice.pending_appeal() is not None for notice in case_notices(case))


def _notice_deadlines(case, notice_ids: list[int]) -> list[Deadline]:
    """The deadlines of these notices of `case` not closed without a duty, latest
    due first. On the case page, from the case's deadlines it reads anyway: a
    notice's deadlines belong to its case (cases.clocks opens them so)."""
    notice_type = ContentType.objects.get_for_model(NoticeOfViolation).pk
    if not page_reads.is_shared(case):
        return list(
            Deadline.objects.filter(content_type=notice_type, object_id__in=notice_ids)
            .exclude(status__in=CLOSED_WITHOUT_DUTY)
            .order_by("-due_date", "-id")
        )
    wanted = set(notice_ids)
    return sorted(
        (
            d
            for d in case_deadlines(case)
            if d.content_type_id == notice_type
            and d.object_id in wanted
            and d.status not in CLOSED_WITHOUT_DUTY
        ),
        key=lambda d: (d.due_date, d.pk),
        reverse=True,
    )


def remedy_sets(case) -> dict:
    """The remedies of `case` by kind (registered with the case page's presence
    query, cases.selectors.register_panel_records)."""
    return {
        slug: model.objects.filter(case=case).order_by("-pk")
        for slug, model in REMEDY_MODELS.items()
    }


def notice_sets(case) -> dict:
    """Registered with the case page's presence query
    (cases.selectors.register_panel_records)."""
    return {"notices": NoticeOfViolation.objects.filter(case=case)}


def case_enforcement(case) -> dict:
    """Everything enforcement on `case`, newest first, with its key dates. A
    constant number of queries: the notices with their requirements, appeals,
    replacements and deadlines (each notice's compliance deadline and the
    conditions of its transitions read them, not the database), and the remedies
    through one EXISTS query plus one per kind the case has."""
    notices = case_notices(case)
    # Only a draft's transitions read its requirements (issue: R-NOV-1).
    drafts = [n for n in notices if n.status == NoticeStatus.DRAFT]
    if drafts:
        prefetch_related_objects(drafts, "requirements")
    if notices:
        by_notice = {n.pk: [] for n in notices}
        for deadline in _notice_deadlines(case, list(by_notice)):
            by_notice[deadline.object_id].append(deadline)
        for notice in notices:
            notice.unwaived_deadlines = by_notice[notice.pk]
    appeals = [a for n in notices for a in n.appeals.all()]
    remedies = present_among(case, remedy_sets(case))
    return {"notices": notices, "appeals": appeals, "remedies": remedies}


def key_dates(source) -> list[Deadline]:
    return list(deadlines_for(source))


def continued_violation_for(notice, as_of=None) -> ContinuedViolation | None:
    """R-PEN-4 for a notice in force or complied with: the whole weeks of
    continued violation after a date the respondent was given in writing —
    the notice's own compliance dates (its stored R-NOV-2 / R-NOV-1 deadlines;
    its date of issue when it sets none), or, after a decision upholding it,
    the correction date of the decision letter (its stored R-COR-1 deadline) —
    up to the day before the recorded compliance, else `as_of` (today); the
    days an appeal of the notice was pending are left out. None once the Board
    modified the notice (the superseding notice's dates govern). The one count
    every page states (enforcement.penalties)."""
    if notice.status in (
        NoticeStatus.DRAFT,
        NoticeStatus.WITHDRAWN,
        NoticeStatus.SUPERSEDED,
    ):
        return None
    if notice.board_modification() is not None:
        return None
    stored = list(
        deadlines_for(notice).filter(
            rule_id__in=("R-COR-1", *COMPLIANCE_RULES), status__in=STANDING_DATES
        )
    )
    corrections = [d.due_date for d in stored if d.rule_id == "R-COR-1"]
    start = continued_violation_start(
        issued_on=notice.issued_on,
        compliance_dates=[d.due_date for d in stored if d.rule_id != "R-COR-1"],
        requirement_kinds=notice.requirement_kinds(),
        correction_date=max(corrections) if corrections else None,
    )
    if start is None:
        return None
    return continued_violation(
        start.day,
        as_of or timezone.localdate(),
        basis=start.basis,
        complied_on=notice.complied_on,
        appeals=[
            AppealPending(a.filed_on, a.pending_until) for a in notice.appeals.all()
        ],
    )


# The days to appeal count from the notice's issue, not its service (R-APL-1):
# a notice first served more than this many days after its issue is served late,
# and its page and the service message say how many days to appeal were left.
LATE_SERVICE_AFTER_DAYS = 3


@dataclass(frozen=True)
class LateService:
    """A notice first served more than LATE_SERVICE_AFTER_DAYS after its issue:
    how many of the days to appeal (R-APL-1) were left on the day of service,
    counted to the stored last day to appeal (GCL § 20: not the day of service)."""

    record: ServiceRecord
    issued_on: dt.date
    last_day_to_appeal: dt.date

    @property
    def days_after_issue(self) -> int:
        return (self.record.served_on - self.issued_on).days

    @property
    def days_left(self) -> int:
        return max(0, (self.last_day_to_appeal - self.record.served_on).days)

    @property
    def days_to_appeal(self) -> int:
        return RULES["R-APL-1"].amount

    @property
    def words(self) -> str:
        served = (
            f"Served on {human_long_date(self.record.served_on)}, "
            f"{self.days_after_issue} days after the notice was issued: "
        )
        last_day = human_long_date(self.last_day_to_appeal)
        if self.days_left:
            return (
                f"{served}the respondent had {self.days_left} of the "
                f"{self.days_to_appeal} days to appeal left (last day to appeal: "
                f"{last_day})."
            )
        if self.record.served_on == self.last_day_to_appeal:
            return (
                f"{served}the respondent had none of the {self.days_to_appeal} "
                f"days to appeal left: the day of service, {last_day}, was the "
                "last day to appeal."
            )
        return (
            f"{served}the respondent had none of the {self.days_to_appeal} days "
            f"to appeal left: the last day to appeal was {last_day}, before the "
            "notice was served."
        )

    @property
    def remedy_words(self) -> str:
        return (
            f"To give the respondent the full {self.days_to_appeal} days to "
            "appeal, issue the notice again: “Issue a correction” drafts a copy of "
            "this notice; once issued, it replaces this one and the days to "
            "appeal count from its issue. Or withdraw the notice."
        )


def late_service(notice, services=None) -> LateService | None:
    """Whether `notice` was served late: its first service not returned
    (`services`: its service records, if already read), more than
    LATE_SERVICE_AFTER_DAYS after its issue, with the stored last day to appeal
    (R-APL-1). None when served in time, not served, or not issued."""
    if notice.issued_on is None:
        return None
    if services is None:
        services = notice.service_records.all()
    first = next((s for s in services if not s.returned), None)
    if first is None:
        return None
    if (first.served_on - notice.issued_on).days <= LATE_SERVICE_AFTER_DAYS:
        return None
    last_day = appeal_due_date(notice)
    if last_day is None:
        return None
    return LateService(first, notice.issued_on, last_day)


def dates_before_the_appeal_is_over(notice) -> str:
    """For a draft: the SMO's warning (not a refusal) that a remediation period
    or a requirement's days end before the 15 days to appeal (R-APL-1) are
    over, with the dates the notice would print if issued today (its draft
    preview, enforcement.documents.notice.notice_contract); '' when none does. Until
    the appeal is over the notice cannot be recorded as not complied with and
    corrective measures cannot start (NoticeOfViolation.appeal_open_or_pending)."""
    from kernel.humanize import human_long_date

    from .documents.notice import notice_contract

    facts = notice_contract(notice)
    early = facts.dates_before_last_day_to_appeal()
    if not early:
        return ""
    what = {k: RequirementKind(k).label for k in RequirementKind.values}
    what[RequirementKind.ABATEMENT] = "remediation and restoration"
    listed = " and ".join(
        f"{_lower_first(what[RequirementKind.values[n - 1]])} by {human_long_date(d)}"
        for n, d in early
    )
    return (
        f"If issued today, this notice requires {listed}, before the last day to "
        f"appeal, {human_long_date(facts.last_day_to_appeal)}. Until the time to appeal "
        "is over and any appeal is decided, the respondent cannot be recorded as "
        "not complying and corrective measures cannot start. You may issue it as "
        "it is, or give more days."
    )


def _lower_first(words: str) -> str:
    return words[:1].lower() + words[1:]


def _limit(appeal, rule_id, purpose=""):
    return next(
        (d for d in appeal._deadlines if d.rule_id == rule_id and d.purpose == purpose),
        None,
    )


APPEAL_SECTION_SIZE = 25  # the most urgent of each clerk's list; "See all" pages
# The clerk's three lists: the appeal status each holds and its urgency order
# (the date its limit counts from: filed → R-APL-2, hearing, decided → R-APL-3).
APPEAL_SECTIONS = {
    "open": (AppealStatus.FILED, ("filed_on", "pk")),
    "hearings": (AppealStatus.HEARING_SCHEDULED, ("hearing_at", "pk")),
    "to_file_and_mail": (AppealStatus.DECIDED, ("decided_on", "pk")),
}
APPEAL_SECTION_TITLES = {
    "open": "Appeals open — hearing to schedule",
    "hearings": "Hearings coming",
    "to_file_and_mail": "Decisions to file and mail",
}


def appeal_section(section: str):
    """The appeals of one clerk's list (a key of APPEAL_SECTIONS), most urgent
    first; read the rows to show through `appeal_rows` (kernel.paging)."""
    status, order = APPEAL_SECTIONS[section]
    return Appeal.objects.filter(status=status).order_by(*order)


def appeal_rows():
    """Appeals as the clerk's lists show them: with the notice's case and the
    appellant."""
    return Appeal.objects.select_related("notice__case", "appellant")


def with_limits(appeals) -> list:
    """`appeals` (a list) with their date limits attached (hearing_by, file_by,
    mail_by): one query for all of them."""
    appeals = list(appeals)
    by_appeal = {}
    if appeals:
        from django.contrib.contenttypes.models import ContentType

        ct = ContentType.objects.get_for_model(Appeal)
        for d in Deadline.objects.filter(
            content_type=ct, object_id__in=[a.pk for a in appeals]
        ).order_by("due_date"):
            by_appeal.setdefault(d.object_id, []).append(d)
    for appeal in appeals:
        appeal._deadlines = by_appeal.get(appeal.pk, [])
        appeal.hearing_by = _limit(appeal, "R-APL-2")
        appeal.file_by = _limit(appeal, "R-APL-3", "file")
        appeal.mail_by = _limit(appeal, "R-APL-3", "mail")
    return appeals


def appeal_clerk_lists(today=None, limit: int | None = APPEAL_SECTION_SIZE) -> dict:
    """The clerk's three lists, each row with its date limit: appeals open
    (hearing to schedule, R-APL-2), hearings coming, decisions to file and mail
    (R-APL-3). Each list holds its `limit` most urgent appeals; "<key>_count" is
    how many there are in all."""
    today = today or timezone.localdate()
    counts = dict(
        Appeal.objects.filter(
            status__in=[status for status, _ in APPEAL_SECTIONS.values()]
        )
        .values_list("status")
        .annotate(n=Count("pk"))
        .order_by()
    )
    # Each list's ids first (its status and order alone), then the rows of all
    # three in one query: joining the notices, cases and parties before the
    # LIMIT read every table whole (bench/).
    ids = {}
    for key, (status, _) in APPEAL_SECTIONS.items():
        ids[key] = (
            list(appeal_section(key)[:limit].values_list("pk", flat=True))
            if counts.get(status)
            else []
        )
    rows = {
        appeal.pk: appeal
        for appeal in rows_by_ids(appeal_rows(), [pk for k in ids for pk in ids[k]])
    }
    lists = {key: [rows[pk] for pk in ids[key] if pk in rows] for key in ids}
    with_limits([a for key in APPEAL_SECTIONS for a in lists[key]])  # in place
    result = {"today": today}
    for key, (status, _) in APPEAL_SECTIONS.items():
        result[key] = lists[key]
        result[f"{key}_count"] = counts.get(status, 0)
    return result


SIGNOFF_STATUS = {
    Role.ATTORNEY: AlternativeStatus.PROPOSED,  # waits for the recommendation
    Role.BUILDING_INSPECTOR: AlternativeStatus.RECOMMENDED,  # for the concurrence
}


def signoffs_awaiting(user, *, roles=tuple(SIGNOFF_STATUS)):
    """Alternative remedies waiting for this user's sign-off: the Municipal
    Attorney's recommendation, then the Building Inspector's concurrence.
    `roles` narrows it to the sign-offs of those roles (a home page section)."""
    statuses = [SIGNOFF_STATUS[role] for role in roles if has_role(user, role)]
    return (
        AlternativeRemedy.objects.filter(status__in=statuses)
        .select_related("case", "party")
        .order_by("created_at")
    )


def signoffs_done(user):
    from django.db.models import Q

    return (
        AlternativeRemedy.objects.filter(
            Q(recommended_by=user) | Q(concurred_by=user) | Q(declined_by=user)
        )
        .select_related("case", "party")
        .order_by("-created_at")[:20]
    )
