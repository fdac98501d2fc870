"""The work queues of the staff home page (issue 16): what each role has to do
next, read from the state machines and the stored deadlines, never from a list
kept by hand. Every "due today / 3 days left / overdue by 2 days" is the
deadline engine's (`engine.days_left_words`, over `engine.due_window`)."""

import datetime as dt
from dataclasses import dataclass, field
from itertools import groupby

from django.utils import timezone

from cases.deadlines import engine
from cases.roles import Role, has_role

from .models import AppealStatus, ServiceRecord
from .selectors import appeal_clerk_lists, appeal_rows, signoffs_awaiting, with_limits

QUEUE_SIZE = 25  # the most urgent rows of each list; the full lists are linked
HEARING_HORIZON_DAYS = 30  # "hearings in the next 30 days"


@dataclass
class Limit:
    """One dated duty of a row: its stored Deadline and the engine's words."""

    label: str
    deadline: object
    words: str
    overdue: bool


def _limit(label, deadline, today) -> Limit | None:
    if deadline is None:
        return None
    return Limit(
        label=label,
        deadline=deadline,
        words=engine.days_left_words(deadline.due_date, today),
        overdue=engine.is_past_due(deadline.due_date, today),
    )


@dataclass
class HearingGroup:
    """The hearings of one sitting: a date and a place. Until the Board
    meeting model lands, a sitting is the hearings' day and location
    (`hearing_groups` is the one function to change then)."""

    day: dt.date
    location: str
    held: bool  # the day has passed: the decision is to be recorded
    appeals: list = field(default_factory=list)


def hearing_groups(today: dt.date, limit: int = QUEUE_SIZE) -> list[HearingGroup]:
    """Scheduled hearings up to HEARING_HORIZON_DAYS ahead, by day and
    location, earliest first; hearings already held and not yet decided come
    first (their decision is the clerk's next act). Two queries."""
    horizon = today + dt.timedelta(days=HEARING_HORIZON_DAYS)
    until = timezone.make_aware(dt.datetime.combine(horizon, dt.time.min))
    appeals = with_limits(
        appeal_rows()
        .filter(status=AppealStatus.HEARING_SCHEDULED, hearing_at__lt=until)
        .order_by("hearing_at", "pk")[:limit]
    )

    def sitting(appeal):
        return (
            timezone.localtime(appeal.hearing_at).date(),
            appeal.hearing_location.strip(),
        )

    groups = []
    for (day, location), rows in groupby(appeals, key=sitting):
        group = HearingGroup(
            day=day, location=location, held=engine.is_past_due(day, today)
        )
        for appeal in rows:
            appeal.queue_limit = _limit("Hearing by", appeal.hearing_by, today)
            group.appeals.append(appeal)
        groups.append(group)
    return groups


def certified_mail_awaiting(limit: int = QUEUE_SIZE) -> tuple[list, int]:
    """Notices served by certified mail whose return is not recorded
    (ServiceRecord.awaits_return, as a query), oldest mailing first, with how
    many there are. The model records returns, not deliveries: a record stays
    here until its return is recorded (see the report of issue 16)."""
    qs = ServiceRecord.objects.filter(
        method=ServiceRecord.Method.CERTIFIED, returned_on__isnull=True
    )
    rows = list(qs.select_related("notice__case").order_by("served_on", "pk")[:limit])
    return rows, qs.count()


def clerk_queue(user, today: dt.date | None = None) -> dict:
    """The Board clerk's work: appeals waiting for a hearing date (R-APL-2),
    hearings of the next 30 days by sitting, decisions to file and mail
    (R-APL-3), certified mail not yet returned. A fixed number of queries."""
    today = today or timezone.localdate()
    lists = appeal_clerk_lists(today, limit=QUEUE_SIZE)
    for appeal in lists["open"]:
        appeal.queue_limit = _limit("Hearing by", appeal.hearing_by, today)
    for appeal in lists["to_file_and_mail"]:
        appeal.queue_limits = [
            limit
            for limit in (
                _limit("File with the clerk by", appeal.file_by, today)
                if appeal.awaits_clerk_filing()
                else None,
                _limit("Mail by", appeal.mail_by, today)
                if appeal.awaits_mailing()
                else None,
            )
            if limit is not None
        ]
    mail, mail_count = certified_mail_awaiting()
    for record in mail:
        record.queue_waited = engine.waited_words(record.served_on, today)
    return {
        "today": today,
        "to_schedule": lists["open"],
        "to_schedule_count": lists["open_count"],
        "hearing_groups": hearing_groups(today),
        "to_file_and_mail": lists["to_file_and_mail"],
        "to_file_and_mail_count": lists["to_file_and_mail_count"],
        "certified_mail": mail,
        "certified_mail_count": mail_count,
        # The return of a notice's mailing is the SMO's to record.
        "may_record_return": has_role(user, Role.SMO),
    }


def signoff_queue(user, role: Role, today: dt.date | None = None) -> list:
    """The alternative remedies waiting for `role`'s sign-off (R-ALT-1), the
    selector of the sign-off page for that role alone, longest waiting first,
    each with how long it has waited: the Municipal Attorney's recommendation
    since it was proposed, the Building Inspector's concurrence since the
    recommendation."""
    today = today or timezone.localdate()

    rows = list(signoffs_awaiting(user, roles=(role,))[:QUEUE_SIZE])
    for remedy in rows:
        since = (
            remedy.recommended_at
            if role == Role.BUILDING_INSPECTOR and remedy.recommended_at
            else remedy.created_at
        )
        remedy.queue_since = timezone.localtime(since).date()
        remedy.queue_waited = engine.waited_words(remedy.queue_since, today)
    return rows
