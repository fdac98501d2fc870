"""The case page's chronology: the most recent 100 entries by default, the whole
chronology (every entry, oldest first) one click away for the auditor."""

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from cases.models import EventKind
from cases.selectors import TIMELINE_RECENT
from kernel.timeline import record_event

from .factories import CaseFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def long_case(db):
    case = CaseFactory(investigating=True)
    start = timezone.now() - dt.timedelta(days=400)
    for i in range(TIMELINE_RECENT + 20):
        record_event(
            case=case,
            actor=None,
            kind=EventKind.NOTE,
            summary=f"Entry number {i:04d}",
            at=start + dt.timedelta(hours=i),
        )
    return case


def _url(case, **query):
    url = reverse("cases:detail", args=[case.number])
    return url + ("?chronology=all" if query.get("all") else "")


def test_case_page_shows_the_most_recent_entries_and_a_link_to_all(
    smo_client, long_case
):
    total = long_case.events.count()
    html = smo_client.get(_url(long_case)).content.decode()
    assert f"Show the whole chronology ({total} entries)" in html
    assert "?chronology=all" in html
    assert html.count("Entry number ") == TIMELINE_RECENT
    assert "Entry number 0119" in html  # the newest
    assert "Entry number 0019" not in html  # older than the latest 100
    assert html.index("Entry number 0020") < html.index("Entry number 0119")


def test_whole_chronology_renders_every_entry_in_order(smo_client, long_case):
    total = long_case.events.count()
    html = smo_client.get(_url(long_case, all=True)).content.decode()
    assert "Show the whole chronology" not in html
    assert f"The whole chronology ({total} entries)" in html
    assert html.count("Entry number ") == TIMELINE_RECENT + 20
    positions = [html.index(f"Entry number {i:04d}") for i in range(0, 120, 7)]
    assert positions == sorted(positions)


def test_short_chronology_has_no_link(smo_client):
    case = CaseFactory(investigating=True)
    html = smo_client.get(_url(case)).content.decode()
    assert "Show the whole chronology" not in html
