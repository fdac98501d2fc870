"""The iCal feeds: a staff user's open deadlines plus the events other apps
provide (hearings, inspections), and the Board's hearings feed of enforcement.
One writer, :func:`render_calendar`, on the ``icalendar`` package (RFC 5545:
CRLF line ends, TEXT escaping, lines folded at 75 octets, a DTSTAMP on every
event, a DTEND on every event); every URL in a feed is absolute, on the site's
address as the feed was asked for it (kernel.site_url: SITE_URL if set, else the
request's host), since a calendar program has no page to resolve a path
against. UIDs name no host (``…@poquott-ms4``, :func:`event_uid`): the same
event keeps its UID whatever address the feed is read on.

Calendar programs cannot sign in: every feed a user subscribes to is read with
the user's secret token (CalendarFeedToken, :func:`user_of_token`), one token
for all their feeds.

Providers: each module an app registers (`register_provider`, in its
AppConfig.ready(): inspections and enforcement) has
``ical_events(user)`` returning an iterable of objects or dicts with ``uid``,
``start`` (a date, or an aware datetime), ``summary`` and optionally
``description``, ``url`` (a path, preferably, or an absolute URL) and
``end`` (else the writer gives a timed event DEFAULT_EVENT_LENGTH). A provider
that fails is logged and skipped, so the feed never breaks."""

import datetime as dt
import logging
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import icalendar
from django.conf import settings
from django.http import HttpResponse
from django.urls import reverse
from django.utils import timezone

from kernel.roles import is_staff_member
from kernel.site_url import absolute_url

from . import selectors
from .models import CalendarFeedToken, Deadline

log = logging.getLogger(__name__)

PROVIDERS: dict[str, object] = {}


def register_provider(module) -> None:
    """Add `module`'s events (and its own feeds) to every staff feed."""
    PROVIDERS[module.__name__] = module


PRODID = "-//Village of Poquott//MS4 stormwater deadlines//EN"
UID_DOMAIN = "poquott-ms4"  # not the host: a UID must not change with it

# How long a calendar shows the events whose records keep only a start, here
# and nowhere else. A hearing at a Board meeting lasts the meeting.
BOARD_MEETING_LENGTH = dt.timedelta(hours=2)  # the Board's meetings run ~2 h
HEARING_LENGTH = dt.timedelta(hours=1)  # a hearing not at a Board meeting
INSPECTION_LENGTH = dt.timedelta(hours=1)
DEFAULT_EVENT_LENGTH = dt.timedelta(hours=1)  # any other timed event


def event_uid(kind: str, pk) -> str:
    """ "appeal-12@poquott-ms4": the same on every host the feed is read on."""
    return f"{kind}-{pk}@{UID_DOMAIN}"


@dataclass(frozen=True)
class FeedEvent:
    uid: str
    start: dt.date | dt.datetime
    summary: str
    description: str = ""
    url: str = ""
    end: dt.date | dt.datetime | None = None


def _utc(name: str, value: dt.date | dt.datetime) -> dt.date | dt.datetime:
    """A date stays a date (an all-day event); a datetime must be aware and is
    written in UTC ("...Z"), so the feed needs no VTIMEZONE."""
    if isinstance(value, dt.datetime):
        if timezone.is_naive(value):
            raise ValueError(f"{name} must be an aware datetime")
        return value.astimezone(dt.UTC)
    return value


def _field(item, name, default=""):
    if isinstance(item, dict):
        return item.get(name, default)
    return getattr(item, name, default)


def as_event(item) -> FeedEvent:
    """A provider's event (an object or a dict) as a FeedEvent; ValueError if
    it has no uid or no start."""
    event = FeedEvent(
        uid=str(_field(item, "uid")),
        start=_field(item, "start", None),
        summary=str(_field(item, "summary")),
        description=str(_field(item, "description") or ""),
        url=str(_field(item, "url") or ""),
        end=_field(item, "end", None),
    )
    if not event.uid or not isinstance(event.start, dt.date):
        raise ValueError(f"event without uid or start: {item!r}")
    return event


def _deadline_url(deadline: Deadline) -> str:
    """The deadline's own page (it links its case)."""
    return reverse("deadlines:detail", args=[deadline.pk])


def deadline_events(user) -> Iterator[FeedEvent]:
    qs = selectors.deadlines_of_user(user).filter(status=Deadline.Status.OPEN)
    for d in qs:
        case = f" [{d.case.number}]" if d.case_id else ""
        yield FeedEvent(
            uid=event_uid("deadline", d.pk),
            start=d.due_date,
            summary=f"Due: {d.label} ({d.rule_id}){case}",
            description=f"Who must act: {d.get_responsible_display()}.\n"
            f"{d.explanation}",
            url=_deadline_url(d),
        )


def other_feeds(user, token: CalendarFeedToken) -> list[tuple[str, str]]:
    """(label, path) of the feeds besides this one that `user` may subscribe to
    with the same token: each provider's ``token_feeds(user, token)``."""
    feeds = []
    for name, module in PROVIDERS.items():
        offer = getattr(module, "token_feeds", None)
        if offer is None:
            continue
        try:
            feeds.extend(offer(user, token.token))
        except Exception:
            log.exception("iCal provider %s failed to offer its feeds", name)
    return feeds


def provider_events(user) -> Iterator[FeedEvent]:
    for name, module in PROVIDERS.items():
        events = getattr(module, "ical_events", None)
        if events is None:
            continue
        try:
            items = list(events(user))
        except Exception:
            log.exception("iCal provider %s failed; skipped", name)
            continue
        for item in items:
            try:
                yield as_event(item)
            except (ValueError, TypeError):
                log.warning("iCal provider %s gave a bad event; skipped", name)


def render_calendar(
    events: Iterable[FeedEvent],
    *,
    name: str,
    prodid: str = PRODID,
    base: str | None = None,
) -> str:
    """The one iCal writer of the project: VCALENDAR text of ``events``, their
    paths made absolute on `base` (see absolute_url)."""
    cal = icalendar.Calendar()
    cal.add("prodid", prodid)
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    cal.add("method", "PUBLISH")
    cal.add("x-wr-calname", icalendar.vText(name))
    stamp = timezone.now().astimezone(dt.UTC)
    for event in events:
        vevent = icalendar.Event()
        vevent.add("uid", event.uid)
        vevent.add("dtstamp", stamp)
        vevent.add("dtstart", _utc("start", event.start))
        end = event.end
        if end is None:
            if isinstance(event.start, dt.datetime):
                end = event.start + DEFAULT_EVENT_LENGTH  # never zero length
            else:
                end = event.start + dt.timedelta(days=1)  # an all-day event
        vevent.add("dtend", _utc("end", end))
        vevent.add("summary", event.summary)
        if event.description:
            vevent.add("description", event.description)
        if event.url:
            vevent.add("url", absolute_url(event.url, base))
        cal.add_component(vevent)
    return cal.to_ical().decode("utf-8")


def feed_for_user(user, *, base: str | None = None) -> str:
    events = [*deadline_events(user), *provider_events(user)]
    return render_calendar(
        events,
        name=f"{settings.VILLAGE['name']} stormwater: {user.get_username()}",
        base=base,
    )


def user_of_token(token: str):
    """The staff user whose feed token `token` is, or None (no such token, or
    the user has no role any more). Every token feed is read through this."""
    found = CalendarFeedToken.objects.select_related("user").filter(token=token).first()
    if found is None or not is_staff_member(found.user):
        return None
    return found.user


def calendar_response(body: str, *, filename: str):
    """A feed's HTTP answer: text/calendar, private (it is the user's)."""
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    response["Cache-Control"] = "private, max-age=300"
    return response


def token_for(user) -> CalendarFeedToken:
    token, _ = CalendarFeedToken.objects.get_or_create(user=user)
    return token


def regenerate_token(user) -> CalendarFeedToken:
    """A new secret; the old feed URL stops working. Who: the user themself."""
    from .models import new_feed_token

    token, created = CalendarFeedToken.objects.get_or_create(user=user)
    if not created:
        token.token = new_feed_token()
        token.created_at = timezone.now()
        token.save(update_fields=["token", "created_at"])
    return token
