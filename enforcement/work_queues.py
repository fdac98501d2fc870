"""The work queues of the staff home page (issue 16): what each role has to do
next, read from the state machines and the stored deadlines, never from a list
kept by hand. Every "due today / 3 days left / overdue by 2 days" is the
deadline engine's (`engine.days_left_words`, over `engine.due_window`)."""

import datetime as dt
from dataclasses import dataclass, field

from django.urls import reverse
from django.utils import timezone

from deadlines import engine
from kernel.roles import Role

from .document_kinds import EnforcementDocument
from .models import (
    Appeal,
    AppealStatus,
    BoardMeeting,
    HearingNoticeService,
    ServiceRecord,
)
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
    """The hearings of one Board meeting (or, for a hearing scheduled without a
    meeting, of its day and place), with the meeting's page and what each
    hearing still needs (`Appeal.hearing_notice_step`, the decision)."""

    day: dt.date
    location: str
    held: bool  # the day has passed: the decisions are to be recorded
    meeting: BoardMeeting | None = None
    time: dt.time | None = None
    appeals: list = field(default_factory=list)


@dataclass
class Action:
    """The one thing a row needs next: its words and the link to it."""

    words: str
    url: str


def _attach_hearing_notices(appeals) -> None:
    """Each appeal's latest notice of hearing (not failed) and its sendings,
    for `Appeal.hearing_notice_step`: two queries for all of them."""
    from django.contrib.contenttypes.models import ContentType
    from django.db.models import Prefetch

    from documents.models import IssuedDocument

    if not appeals:
        return
    latest = {}
    for document in (
        IssuedDocument.objects.filter(
            content_type=ContentType.objects.get_for_model(Appeal),
            object_id__in=[a.pk for a in appeals],
            kind=EnforcementDocument.HEARING_NOTICE,
        )
        .exclude(status=IssuedDocument.Status.FAILED)
        .defer("html", "citations")  # facts: is the notice out of date?
        .order_by("object_id", "-version")
    ):
        latest.setdefault(document.object_id, document)
    from django.db.models import prefetch_related_objects

    prefetch_related_objects(
        appeals,
        Prefetch(
            "hearing_notice_services",
            queryset=HearingNoticeService.objects.only(
                "id", "appeal_id", "document_id", "returned_on"
            ),
        ),
    )
    for appeal in appeals:
        appeal._prefetched_hearing_notice = latest.get(appeal.pk)


def _hearing_action(appeal, held: bool, today: dt.date) -> Action:
    """The one action a scheduled hearing needs, as a link to its place: its
    notice of hearing issued, then sent (`Appeal.hearing_notice_step`); then,
    from the day of the hearing, the Board's decision; until then the meeting
    (its agenda and packets)."""
    url = appeal.get_absolute_url()
    step = None if held else appeal.hearing_notice_step()
    if step == "issue":
        return Action(
            "Issue the notice of hearing", f"{url}#record-documents-{appeal.pk}"
        )
    if step == "reissue":
        from .documents.hearing import hearing_move_words

        was, now = hearing_move_words(appeal, appeal._latest_hearing_notice())
        return Action(
            f"Issue the corrected notice of hearing (moved from {was} to {now})",
            f"{url}#record-documents-{appeal.pk}",
        )
    if step == "rendering":
        return Action(
            "Notice of hearing being made", f"{url}#record-documents-{appeal.pk}"
        )
    if step == "send":
        return Action(
            "Record the sending of the notice of hearing",
            f"{url}#record-hearing-service",
        )
    if held or timezone.localtime(appeal.hearing_at).date() <= today:
        return Action("Record the decision", f"{url}#step-decide")
    if appeal.meeting_id:
        return Action("Hearing", appeal.meeting.get_absolute_url())
    return Action("Hearing", url)


def hearing_groups(today: dt.date, limit: int = QUEUE_SIZE) -> list[HearingGroup]:
    """The Board meetings of the next HEARING_HORIZON_DAYS
    (`BoardMeeting.objects.upcoming()`) with their hearings, earliest first;
    meetings already held whose hearings are not decided come first (the
    decision is the clerk's next act). A hearing scheduled without a meeting is
    grouped by its day and place. A fixed number of queries."""
    horizon = today + dt.timedelta(days=HEARING_HORIZON_DAYS)
    until = timezone.make_aware(dt.datetime.combine(horizon, dt.time.min))
    appeals = with_limits(
        appeal_rows()
        .select_related("meeting")
        .filter(status=AppealStatus.HEARING_SCHEDULED, hearing_at__lt=until)
        .order_by("hearing_at", "pk")[:limit]
    )
    _attach_hearing_notices(appeals)
    groups: dict = {}
    for meeting in BoardMeeting.objects.upcoming().filter(date__lt=horizon):
        groups[("meeting", meeting.pk)] = HearingGroup(
            day=meeting.date,
            location=meeting.place,
            held=False,
            meeting=meeting,
            time=meeting.time,
        )
    for appeal in appeals:
        when = timezone.localtime(appeal.hearing_at)
        if appeal.meeting_id:
            key = ("meeting", appeal.meeting_id)
            meeting = appeal.meeting
            group = groups.get(key) or HearingGroup(
                day=meeting.date,
                location=meeting.place,
                held=engine.is_past_due(meeting.date, today),
                meeting=meeting,
                time=meeting.time,
            )
        else:
            key = ("sitting", when.date(), appeal.hearing_location.strip())
            group = groups.get(key) or HearingGroup(
                day=when.date(),
                location=appeal.hearing_location.strip(),
                held=engine.is_past_due(when.date(), today),
            )
        groups[key] = group
        appeal.queue_limit = _limit("Hearing by", appeal.hearing_by, today)
        appeal.queue_action = _hearing_action(appeal, group.held, today)
        group.appeals.append(appeal)
    return sorted(
        groups.values(),
        key=lambda g: (not g.held, g.day, g.time or dt.time.min, g.location),
    )


@dataclass
class Mailing:
    """One certified mailing whose outcome is not recorded (`awaits_delivery_
    outcome` of its record), with how long since it was mailed."""

    what: str
    case_number: str
    article_number: str
    mailed_on: dt.date
    waited: str
    action: Action


def _rows(qs, limit):
    rows = list(qs[:limit])
    return rows, len(rows) if len(rows) < limit else qs.count()


def certified_mail_awaiting(today, limit: int = QUEUE_SIZE) -> tuple[list, int]:
    """Certified mail with no delivery or return recorded, oldest mailing
    first, with how many there are: notices of violation (ServiceRecord), notices
    of hearing (HearingNoticeService), appeal decisions (Appeal). Each kind's
    predicate `awaits_delivery_outcome` as its query `awaiting_delivery_outcome()`."""
    notices, n_notices = _rows(
        ServiceRecord.objects.filter(ServiceRecord.awaiting_delivery_outcome())
        .select_related("notice__case")
        .order_by("served_on", "pk"),
        limit,
    )
    hearings, n_hearings = _rows(
        HearingNoticeService.objects.filter(
            HearingNoticeService.awaiting_delivery_outcome()
        )
        .select_related("appeal__notice__case", "document")
        .order_by("served_on", "pk"),
        limit,
    )
    decisions, n_decisions = _rows(
        Appeal.objects.filter(Appeal.awaiting_delivery_outcome())
        .select_related("notice__case")
        .order_by("mailed_on", "pk"),
        limit,
    )
    rows = []
    for record in notices:
        page = reverse("enforcement:notice_detail", args=[record.notice_id])
        rows.append(
            Mailing(
                what=f"notice NOV-{record.notice_id}",
                case_number=record.notice.case.number,
                article_number=record.article_number,
                mailed_on=record.served_on,
                waited=engine.waited_words(record.served_on, today),
                action=Action("Record the outcome", f"{page}#delivery-{record.pk}"),
            )
        )
    for record in hearings:
        page = record.appeal.get_absolute_url()
        rows.append(
            Mailing(
                what=f"notice of hearing {record.document.document_number} "
                f"to {record.sent_to}",
                case_number=record.appeal.notice.case.number,
                article_number=record.article_number,
                mailed_on=record.served_on,
                waited=engine.waited_words(record.served_on, today),
                action=Action(
                    "Record the outcome", f"{page}#delivery-hearing-{record.pk}"
                ),
            )
        )
    for appeal in decisions:
        rows.append(
            Mailing(
                what=f"decision on appeal {appeal.pk}",
                case_number=appeal.notice.case.number,
                article_number=appeal.mail_article_number,
                mailed_on=appeal.mailed_on,
                waited=engine.waited_words(appeal.mailed_on, today),
                action=Action(
                    "Record the outcome",
                    f"{appeal.get_absolute_url()}#delivery-decision",
                ),
            )
        )
    rows.sort(key=lambda row: row.mailed_on)
    return rows[:limit], n_notices + n_hearings + n_decisions


def clerk_queue(user, today: dt.date | None = None) -> dict:
    """The Board clerk's work: appeals waiting for a hearing date (R-APL-2),
    hearings of the next 30 days by Board meeting, decisions to file and mail
    (R-APL-3), certified mail not yet confirmed delivered or returned. A fixed
    number of queries."""
    today = today or timezone.localdate()
    lists = appeal_clerk_lists(today, limit=QUEUE_SIZE)
    for appeal in lists["open"]:
        appeal.queue_limit = _limit("Hearing by", appeal.hearing_by, today)
    for appeal in lists["to_file_and_mail"]:
        url = appeal.get_absolute_url()
        appeal.queue_action = (
            Action("File and mail the decision", f"{url}#record-filing")
            if appeal.awaits_clerk_filing()
            else Action("Mail the decision", f"{url}#record-mailing")
        )
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
    mail, mail_count = certified_mail_awaiting(today)
    return {
        "today": today,
        "to_schedule": lists["open"],
        "to_schedule_count": lists["open_count"],
        "hearing_groups": hearing_groups(today),
        "to_file_and_mail": lists["to_file_and_mail"],
        "to_file_and_mail_count": lists["to_file_and_mail_count"],
        "certified_mail": mail,
        "certified_mail_count": mail_count,
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
