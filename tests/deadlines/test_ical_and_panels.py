"""The iCal feed (RFC 5545, written by icalendar) and the dashboard / case panels
per role."""

import datetime as dt
import types

import pytest
from django.template import Context, Template
from django.test import RequestFactory
from django.urls import reverse
from django.utils import timezone

from deadlines import ical, selectors
from deadlines.models import CalendarFeedToken, Reminder
from kernel.roles import Role
from tests.conftest import make_user
from tests.visible import visible_text

from .conftest import deadline_on

pytestmark = pytest.mark.django_db


def _feed_url(user):
    return reverse("deadlines:ical", kwargs={"token": ical.token_for(user).token})


def _unfold(body: str) -> list[str]:
    return body.replace("\r\n ", "").split("\r\n")


def test_feed_is_valid_rfc5545_with_the_users_deadlines(
    client, smo_user, make_case, settings
):
    settings.SITE_URL_SET = False  # SITE_URL unset, as with `make run`
    case = make_case(officer=smo_user)
    deadline = deadline_on(dt.date(2026, 12, 28), case=case)
    deadline.explanation = "Counted; over Christmas, with a \\ and\na new line. " * 4
    deadline.save()
    response = client.get(_feed_url(smo_user))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    body = response.content.decode()
    raw_lines = body.split("\r\n")
    assert body.endswith("\r\n") and "\n" not in body.replace("\r\n", "")
    assert all(len(line.encode()) <= 75 for line in raw_lines)
    lines = _unfold(body)
    assert lines[0] == "BEGIN:VCALENDAR" and lines[-2] == "END:VCALENDAR"
    assert "VERSION:2.0" in lines and any(ln.startswith("PRODID:") for ln in lines)
    assert "DTSTART;VALUE=DATE:20261228" in lines
    assert "DTEND;VALUE=DATE:20261229" in lines
    assert any(ln.startswith("DTSTAMP:") and ln.endswith("Z") for ln in lines)
    assert any(ln.startswith("UID:deadline-") for ln in lines)
    [description] = [ln for ln in lines if ln.startswith("DESCRIPTION:")]
    assert "Counted\\; over Christmas\\, with a \\\\ and\\na new line." in description
    assert lines.count("BEGIN:VEVENT") == lines.count("END:VEVENT") == 1
    # The event links to the deadline's own page (issue 29), which opens.
    [url] = [ln for ln in lines if ln.startswith("URL:")]
    page = reverse("deadlines:detail", args=[deadline.pk])
    # SITE_URL unset: the host the feed was asked on.
    assert url == f"URL:http://testserver{page}"
    client.force_login(smo_user)
    assert client.get(page).status_code == 200


def test_folding_never_splits_a_multibyte_character():
    event = ical.FeedEvent(
        uid="x@poquott", start=dt.date(2026, 12, 14), summary="§" * 100
    )
    body = ical.render_calendar([event], name="test")
    raw = body.encode()
    for part in raw.split(b"\r\n"):
        assert len(part) <= 75
        part.decode()  # valid UTF-8 on its own
    [summary] = [ln for ln in _unfold(body) if ln.startswith("SUMMARY:")]
    assert summary == "SUMMARY:" + "§" * 100


def test_feed_without_a_token_or_with_a_wrong_one_is_404(client, smo_user):
    ical.token_for(smo_user)
    assert client.get("/deadlines/ical/.ics").status_code == 404
    assert client.get("/deadlines/ical/not-the-token.ics").status_code == 404


def test_regenerating_the_token_retires_the_old_url(client, smo_user):
    old = _feed_url(smo_user)
    client.force_login(smo_user)
    assert client.post(reverse("deadlines:feed_settings")).status_code == 302
    client.logout()
    assert client.get(old).status_code == 404
    assert client.get(_feed_url(smo_user)).status_code == 200


def test_the_feed_settings_page_shows_the_address(client, smo_user):
    client.force_login(smo_user)
    html = client.get(reverse("deadlines:feed_settings")).content.decode()
    assert CalendarFeedToken.objects.get(user=smo_user).token in html


def test_a_user_who_lost_their_role_has_no_feed(client, smo_user):
    url = _feed_url(smo_user)
    smo_user.groups.clear()
    assert client.get(url).status_code == 404


def test_inspections_and_hearings_are_registered_on_the_staff_feeds():
    """The apps above register their events (their ready()); deadlines names none."""
    assert set(ical.PROVIDERS) == {"inspections.ical_feed", "enforcement.ical_feed"}


def test_provider_events_are_added_and_a_broken_provider_is_skipped(
    client, smo_user, monkeypatch
):
    good = types.ModuleType("inspections.ical_feed")
    good.ical_events = lambda user: [
        {
            "uid": "inspection-7@poquott",
            "start": dt.datetime(
                2026, 12, 14, 10, 30, tzinfo=timezone.get_current_timezone()
            ),
            "summary": "Inspection, 12 Main St",
            "description": "Bring sample bottles",
            "url": "http://127.0.0.1:8000/inspections/7/",
        },
        {"uid": "", "start": None, "summary": "bad"},
    ]
    broken = types.ModuleType("enforcement.ical_feed")

    def explode(user):
        raise RuntimeError("provider bug")

    broken.ical_events = explode
    # in place of the two the apps registered (deadlines.ical.register_provider)
    monkeypatch.setattr(
        ical,
        "PROVIDERS",
        {"inspections.ical_feed": good, "enforcement.ical_feed": broken},
    )
    lines = _unfold(client.get(_feed_url(smo_user)).content.decode())
    assert "UID:inspection-7@poquott" in lines
    assert "DTSTART:20261214T153000Z" in lines  # 10:30 EST is 15:30 UTC
    assert "SUMMARY:Inspection\\, 12 Main St" in lines
    assert lines.count("BEGIN:VEVENT") == 1


# --- panels ---------------------------------------------------------------------


def _render(tpl, user, **ctx):
    request = RequestFactory().get("/staff/")
    request.user = user
    return Template("{% load deadline_tags %}" + tpl).render(
        Context({"request": request, "user": user, **ctx})
    )


def test_dashboard_panels_per_role(smo_user, clerk_user, make_case):
    other = make_user("smo2", Role.SMO)
    today = timezone.localdate()
    mine = make_case(officer=smo_user, summary="Mine")
    theirs = make_case(officer=other, summary="Theirs")
    deadline_on(today + dt.timedelta(days=2), case=mine, rule_id="R-SPL-3")
    deadline_on(today - dt.timedelta(days=1), case=mine, rule_id="R-COR-1")
    deadline_on(today + dt.timedelta(days=1), case=theirs, rule_id="R-NOV-2")
    deadline_on(today + dt.timedelta(days=3), rule_id="R-SUS-1")  # unassigned
    deadline_on(today, rule_id="R-APL-2", responsible="board")
    deadline_on(today + dt.timedelta(days=30), rule_id="R-BMP-1", case=mine)

    smo_html = _render("{% dashboard_deadline_panels %}", smo_user)
    assert "R-SPL-3" in smo_html and "R-COR-1" in smo_html and "R-SUS-1" in smo_html
    assert "R-NOV-2" not in smo_html  # another officer's case
    assert "R-APL-2" not in smo_html and "R-BMP-1" not in smo_html
    overdue_part = smo_html.split("Due this week")[0]
    assert "R-COR-1" in overdue_part and "R-SPL-3" not in overdue_part

    clerk_html = _render("{% dashboard_deadline_panels %}", clerk_user)
    assert "R-APL-2" in clerk_html and "R-SPL-3" not in clerk_html


def test_dashboard_panels_say_how_soon_each_is_due(smo_user):
    """Issue 16: the SMO's panel says "due today", "N days left", "overdue by
    N days" beside each date, in the engine's words (engine.days_left_words)."""
    today = timezone.localdate()
    deadline_on(today, rule_id="R-SPL-3")
    deadline_on(today + dt.timedelta(days=3), rule_id="R-SUS-1")
    deadline_on(today - dt.timedelta(days=2), rule_id="R-COR-1")
    text = visible_text(_render("{% dashboard_deadline_panels %}", smo_user))
    assert "R-SPL-3 duty R-SPL-3 Stormwater Management Officer · due today" in text
    assert "R-SUS-1 duty R-SUS-1 Stormwater Management Officer · 3 days left" in text
    assert "Stormwater Management Officer · overdue by 2 days" in text


def test_dashboard_panel_of_an_attorney_is_only_the_feed_link(attorney_user):
    deadline_on(timezone.localdate(), rule_id="R-APL-2", responsible="board")
    html = _render("{% dashboard_deadline_panels %}", attorney_user)
    assert "R-APL-2" not in html and "calendar feed" in html


def test_case_panel_shows_each_deadline_with_reminders(
    smo_user, make_case, django_assert_max_num_queries
):
    case = make_case(officer=smo_user)
    d = deadline_on(dt.date(2026, 12, 28), case=case, rule_id="R-APL-1")
    d2 = deadline_on(dt.date(2026, 12, 29), case=case, rule_id="R-APL-2")
    for x in (d, d2):
        Reminder.objects.create(
            deadline=x,
            kind="before-1",
            recipient="smo@poquott.example",
            sent_at=timezone.now(),
        )
    with django_assert_max_num_queries(4):
        html = _render("{% case_deadlines_panel case %}", smo_user, case=case)
    text = visible_text(html)
    assert "R-APL-1" in text and "Due Mon, Dec 28, 2026" in text
    assert "2026-12-28" not in text  # ISO only in <time datetime=…>
    assert "R-APL-1 explanation." in html
    assert "1 business day before → smo@poquott.example: sent" in html


def test_adding_a_closure_in_the_admin_recomputes_deadlines(
    client, superuser, make_case
):
    from deadlines import services

    case = make_case()
    deadline = services.open_deadline(
        rule_id="R-SPL-4", event_date=dt.date(2026, 3, 2), source=case, case=case
    )
    client.force_login(superuser)
    response = client.post(
        reverse("admin:deadlines_officeclosure_add"),
        {"day": "2026-03-04", "reason": "Snow emergency"},
    )
    assert response.status_code == 302
    deadline.refresh_from_db()
    assert deadline.due_date == dt.date(2026, 3, 6)
    assert client.get(reverse("admin:deadlines_deadline_changelist")).status_code == 200
    assert client.get(reverse("admin:deadlines_deadline_add")).status_code == 403


def test_dashboard_panels_show_the_ten_most_urgent_with_count_and_see_all(
    smo_user,
):
    today = timezone.localdate()
    for i in range(12):
        deadline_on(today - dt.timedelta(days=20 - i), purpose=f"late-{i:02d}")
    for i in range(11):
        deadline_on(today + dt.timedelta(days=i % 7), purpose=f"soon-{i:02d}")

    html = _render("{% dashboard_deadline_panels %}", smo_user)
    overdue_part, week_part = html.split("Due this week", 1)
    assert overdue_part.count("R-SPL-4 duty") == 10
    assert "The 10 most urgent of 12" in overdue_part
    assert "See all 12 overdue" in overdue_part
    assert reverse("deadlines:list") + "?show=overdue" in overdue_part
    assert week_part.count("R-SPL-4 duty") == 10
    assert "See all 11 due this week" in week_part
    assert reverse("deadlines:list") + "?show=week" in week_part

    panels = selectors.dashboard_panels(smo_user, limit=10)
    assert panels["overdue_count"] == 12 and panels["due_this_week_count"] == 11
    # most urgent = earliest due: the two least late ones are left out
    assert [d.due_date for d in panels["overdue"]] == [
        today - dt.timedelta(days=20 - i) for i in range(10)
    ]
    # without a limit (the digest) every deadline is listed
    assert len(selectors.dashboard_panels(smo_user)["overdue"]) == 12


def test_dashboard_panels_without_overflow_have_no_see_all_link(smo_user):
    deadline_on(timezone.localdate() - dt.timedelta(days=1))
    html = _render("{% dashboard_deadline_panels %}", smo_user)
    assert "See all" not in html


def test_dashboard_panels_edges_and_constant_queries(smo_user):
    """Overdue = open and due before today; this week = today and the six days
    after; a met deadline is in neither. Three queries for 3 deadlines or 30."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from deadlines.models import Deadline

    today = timezone.localdate()
    yesterday = deadline_on(today - dt.timedelta(days=1), purpose="yesterday")
    due_today = deadline_on(today, purpose="today")
    sixth = deadline_on(today + dt.timedelta(days=6), purpose="sixth")
    deadline_on(today + dt.timedelta(days=7), purpose="seventh")
    met = deadline_on(today - dt.timedelta(days=2), purpose="met")
    Deadline.objects.filter(pk=met.pk).update(status=Deadline.Status.MET)

    selectors.dashboard_panels(smo_user, limit=10)  # the user's roles, once
    with CaptureQueriesContext(connection) as few:
        panels = selectors.dashboard_panels(smo_user, limit=10)
    assert [d.pk for d in panels["overdue"]] == [yesterday.pk]
    assert [d.pk for d in panels["due_this_week"]] == [due_today.pk, sixth.pk]
    assert (panels["overdue_count"], panels["due_this_week_count"]) == (1, 2)

    for i in range(30):
        deadline_on(today + dt.timedelta(days=i % 14 - 7), purpose=f"more-{i}")
    with CaptureQueriesContext(connection) as many:
        selectors.dashboard_panels(smo_user, limit=10)
    assert len(few) == len(many) == 3
