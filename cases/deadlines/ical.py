"""The iCal feed of a staff user: their open deadlines, plus events other apps
provide (hearings, inspections). Written by hand to RFC 5545: CRLF line ends,
TEXT escaping, lines folded at 75 octets, a DTSTAMP on every event.

Providers: each module of PROVIDERS, if it can be imported, has
``ical_events(user)`` returning an iterable of objects or dicts with ``uid``,
``start`` (a date, or an aware datetime), ``summary`` and optionally
``description``, ``url`` and ``end``. A provider that is missing is skipped; one
that fails is logged and skipped, so the feed never breaks."""

import datetime as dt
import importlib
import logging
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from ..models import CalendarFeedToken, Deadline
from . import selectors

log = logging.getLogger(__name__)

PROVIDERS = ["inspections.calendar", "enforcement.calendar"]
PRODID = "-//Village of Poquott//MS4 stormwater deadlines//EN"


@dataclass(frozen=True)
class FeedEvent:
    uid: str
    start: dt.date | dt.datetime
    summary: str
    description: str = ""
    url: str = ""
    end: dt.date | dt.datetime | None = None


def escape_text(value: str) -> str:
    """RFC 5545 § 3.3.11: backslash, semicolon, comma and newlines."""
    return (
        str(value)
        .replace("\\", "\\\\")
        .replace(";", "\\;")
        .replace(",", "\\,")
        .replace("\r\n", "\\n")
        .replace("\r", "\\n")
        .replace("\n", "\\n")
    )


def fold(line: str) -> str:
    """RFC 5545 § 3.1: at most 75 octets a line, continued with CRLF + space;
    never splits a UTF-8 character."""
    out, current, size = [], [], 0
    for char in line:
        width = len(char.encode("utf-8"))
        limit = 75 if not out else 74  # a continuation line starts with a space
        if size + width > limit:
            out.append("".join(current))
            current, size = [], 0
        current.append(char)
        size += width
    out.append("".join(current))
    return "\r\n ".join(out)


def _date_value(name: str, value) -> str:
    if isinstance(value, dt.datetime):
        if timezone.is_naive(value):
            raise ValueError(f"{name} must be an aware datetime")
        return f"{name}:{value.astimezone(dt.UTC):%Y%m%dT%H%M%SZ}"
    return f"{name};VALUE=DATE:{value:%Y%m%d}"


def _field(item, name, default=""):
    if isinstance(item, dict):
        return item.get(name, default)
    return getattr(item, name, default)


def _as_event(item) -> FeedEvent:
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


def _site(path: str) -> str:
    return settings.VILLAGE["site_url"].rstrip("/") + path


def _deadline_url(deadline: Deadline) -> str:
    if deadline.case_id:
        return _site(deadline.case.get_absolute_url())
    return _site(reverse("deadlines:list"))


def deadline_events(user) -> Iterator[FeedEvent]:
    host = settings.VILLAGE["site_url"].split("//")[-1].split("/")[0] or "poquott"
    qs = selectors.deadlines_of_user(user).filter(status=Deadline.Status.OPEN)
    for d in qs:
        case = f" [{d.case.number}]" if d.case_id else ""
        yield FeedEvent(
            uid=f"deadline-{d.pk}@{host}",
            start=d.due_date,
            summary=f"Due: {d.label} ({d.rule_id}){case}",
            description=f"Who must act: {d.get_responsible_display()}.\n"
            f"{d.explanation}",
            url=_deadline_url(d),
        )


def provider_events(user) -> Iterator[FeedEvent]:
    for name in PROVIDERS:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name and name.startswith(exc.name):
                continue  # the app has no calendar (yet)
            log.exception("iCal provider %s cannot be imported; skipped", name)
            continue
        except Exception:
            log.exception("iCal provider %s cannot be imported; skipped", name)
            continue
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
                yield _as_event(item)
            except (ValueError, TypeError):
                log.warning("iCal provider %s gave a bad event; skipped", name)


def render_calendar(events: Iterable[FeedEvent], *, name: str) -> str:
    stamp = f"{timezone.now().astimezone(dt.UTC):%Y%m%dT%H%M%SZ}"
    lines = [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        f"PRODID:{PRODID}",
        "CALSCALE:GREGORIAN",
        "METHOD:PUBLISH",
        f"X-WR-CALNAME:{escape_text(name)}",
    ]
    for event in events:
        lines += [
            "BEGIN:VEVENT",
            f"UID:{escape_text(event.uid)}",
            f"DTSTAMP:{stamp}",
            _date_value("DTSTART", event.start),
        ]
        end = event.end
        if end is None and not isinstance(event.start, dt.datetime):
            end = event.start + dt.timedelta(days=1)  # an all-day event
        if end is not None:
            lines.append(_date_value("DTEND", end))
        lines.append(f"SUMMARY:{escape_text(event.summary)}")
        if event.description:
            lines.append(f"DESCRIPTION:{escape_text(event.description)}")
        if event.url:
            lines.append(f"URL:{event.url}")
        lines.append("END:VEVENT")
    lines.append("END:VCALENDAR")
    return "".join(fold(line) + "\r\n" for line in lines)


def feed_for_user(user) -> str:
    events = [*deadline_events(user), *provider_events(user)]
    return render_calendar(
        events, name=f"{settings.VILLAGE['name']} stormwater: {user.get_username()}"
    )


def token_for(user) -> CalendarFeedToken:
    token, _ = CalendarFeedToken.objects.get_or_create(user=user)
    return token


def regenerate_token(user) -> CalendarFeedToken:
    """A new secret; the old feed URL stops working. Who: the user themself."""
    from ..models.deadlines import new_feed_token

    token, created = CalendarFeedToken.objects.get_or_create(user=user)
    if not created:
        token.token = new_feed_token()
        token.created_at = timezone.now()
        token.save(update_fields=["token", "created_at"])
    return token
