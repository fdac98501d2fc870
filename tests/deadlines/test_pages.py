"""The deadline pages: calculator and API (with their errors), the staff list
and its actions, office closures, reminders sent; a URL × role table."""

import datetime as dt
import re

import pytest
from django.urls import reverse
from django.utils import timezone

from deadlines import services
from deadlines.models import Deadline, OfficeClosure, Reminder
from kernel.citations import section_of
from kernel.models import CaseEvent

from .conftest import deadline_on

pytestmark = pytest.mark.django_db

API = "/api/deadlines/compute"


# --- the API --------------------------------------------------------------------


def test_api_computes_the_appeal_deadline_over_christmas(client):
    response = client.get(API, {"rule": "R-APL-1", "from": "2026-12-10"})
    assert response.status_code == 200
    data = response.json()
    assert set(data) == {"rule", "from", "due", "explanation"}
    assert (data["rule"], data["from"], data["due"]) == (
        "R-APL-1",
        "2026-12-10",
        "2026-12-28",
    )
    assert "Christmas Day" in data["explanation"]
    assert "GCL § 25-a" in data["explanation"]


def test_api_counts_an_office_closure(client, smo_user):
    services.add_office_closure(
        day=dt.date(2026, 3, 4), reason="Snow emergency", actor=smo_user
    )
    data = client.get(API, {"rule": "R-SPL-4", "from": "2026-03-02"}).json()
    assert data["due"] == "2026-03-06"


def test_api_accepts_the_days_of_a_notice_of_violation(client):
    # R-NOV-2 with days=30: 30 days after Mon 2026-03-02 is Wed 2026-04-01.
    data = client.get(API, {"rule": "R-NOV-2", "from": "2026-03-02", "days": "30"})
    assert data.json()["due"] == "2026-04-01"


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ({"rule": "R-XYZ-9", "from": "2026-12-10"}, "Unknown rule 'R-XYZ-9'"),
        ({"from": "2026-12-10"}, "Give the rule id"),
        ({"rule": "R-APL-1"}, "Give the event date"),
        ({"rule": "R-APL-1", "from": "2026-02-30"}, "Bad date"),
        ({"rule": "R-APL-1", "from": "10/12/2026"}, "Bad date"),
        ({"rule": "R-APL-1", "from": "20261210"}, "Bad date"),
        ({"rule": "R-APL-1", "from": "0001-01-01"}, "between 1990 and 2100"),
        ({"rule": "R-NOV-2", "from": "2026-12-10"}, "needs days="),
        ({"rule": "R-NOV-2", "from": "2026-12-10", "days": "ten"}, "whole number"),
        ({"rule": "R-NOV-2", "from": "2026-12-10", "days": "0"}, "at least 1"),
        ({"rule": "R-APL-1", "from": "2026-12-10", "days": "3"}, "no parameters"),
        ({"rule": "R-NOV-2", "from": "2026-12-10", "months": "3"}, "only days="),
    ],
)
def test_api_answers_bad_input_with_400_and_a_clear_message(client, query, message):
    response = client.get(API, query)
    assert response.status_code == 400
    assert message in response.json()["error"]


# The API validates with the calculator's form (ComputeApiForm), and answers with
# its errors keyed by the GET names.


def _errors(client, query):
    response = client.get(API, query)
    assert response.status_code == 400
    data = response.json()
    assert set(data) == {"error", "errors"}
    first = next(iter(data["errors"].values()))[0]
    assert data["error"] == first
    return data


def test_api_names_an_unknown_rule_under_rule(client):
    data = _errors(client, {"rule": "R-XYZ-9", "from": "2026-12-10"})
    assert list(data["errors"]) == ["rule"]
    assert data["error"].startswith("Unknown rule 'R-XYZ-9'. Known rules: R-SPL-3")


def test_api_refuses_a_date_not_in_iso_form_under_from(client):
    for raw in ("2026-02-30", "10/12/2026", "tomorrow"):
        data = _errors(client, {"rule": "R-APL-1", "from": raw})
        assert list(data["errors"]) == ["from"], raw
        assert "Bad date" in data["error"]


def test_api_refuses_a_year_out_of_range_like_the_calculator(client):
    data = _errors(client, {"rule": "R-APL-1", "from": "2101-01-01"})
    assert data["errors"] == {"from": ["Give a date between 1990 and 2100."]}
    page = client.get(
        reverse("deadlines:calculator"), {"rule": "R-APL-1", "event_date": "2101-01-01"}
    )
    assert "Give a date between 1990 and 2100." in page.content.decode()


def test_api_refuses_a_parameter_the_rule_does_not_take(client):
    data = _errors(client, {"rule": "R-APL-1", "from": "2026-12-10", "days": "3"})
    assert data["error"] == "R-APL-1 takes no parameters; unexpected days=."
    data = _errors(client, {"rule": "R-NOV-2", "from": "2026-12-10", "colour": "red"})
    assert data["error"] == "R-NOV-2 takes only days=; unexpected colour=."


def test_api_refuses_a_parameter_that_is_not_a_whole_number(client):
    for raw in ("ten", "2.5", "-3"):
        query = {"rule": "R-NOV-2", "from": "2026-12-10", "days": raw}
        data = _errors(client, query)
        assert list(data["errors"]) == ["days"], raw


def test_api_needs_the_days_of_a_notice_of_violation_under_days(client):
    data = _errors(client, {"rule": "R-NOV-2", "from": "2026-12-10"})
    assert data["errors"] == {
        "days": [
            "R-NOV-2 (Remediation deadline in a notice of violation) needs "
            "days=<number of calendar days>."
        ]
    }


def test_api_good_call_answers_what_the_calculator_shows(client):
    query = {"rule": "R-BMP-1", "from": "2026-03-02", "days": "10"}
    response = client.get(API, query)
    assert response.status_code == 200
    data = response.json()
    assert data == {
        "rule": "R-BMP-1",
        "from": "2026-03-02",
        "due": data["due"],
        "explanation": data["explanation"],
    }
    assert data["due"] == "2026-03-12"
    default = client.get(API, {"rule": "R-BMP-1", "from": "2026-03-02"}).json()
    assert default["due"] == "2026-04-01"  # the default 30 days


# --- the calculator page --------------------------------------------------------


def test_calculator_page_shows_the_due_date_and_explanation_without_js(client):
    url = reverse("deadlines:calculator")
    html = client.get(url, {"rule": "R-APL-1", "event_date": "2026-12-10"}).content
    html = html.decode()
    assert 'data-due="2026-12-28"' in html
    assert "Christmas Day" in html
    assert "<script" not in html.split("</main>")[0].split("<main")[1]


def _main(html: str) -> str:
    return html.split("<main", 1)[1].split(">", 1)[1].split("</main>", 1)[0]


def _shown(html: str) -> str:
    """The main part's text a resident reads, details elements opened (tags,
    and so option values and data- attributes, removed)."""
    return " ".join(re.sub(r"<[^>]+>", " ", _main(html)).split())


def _shown_outside_details(html: str) -> str:
    """The main part's text a resident reads without opening a details element
    (tags, and so option values, removed)."""
    text = re.sub(r"<details\b.*?</details>", " ", _main(html), flags=re.S)
    return " ".join(re.sub(r"<[^>]+>", " ", text).split())


def test_calculator_speaks_to_residents_with_the_appeal_rule_first(client):
    """Issue 16: the appeal rule (R-APL-1) first, in words; the API hint one
    click away in a details element. Issue 26: no rule id anywhere on the page
    a resident reads, not even in the details."""
    html = client.get(reverse("deadlines:calculator")).content.decode()
    shown = _shown_outside_details(html)
    assert shown.startswith(
        "Deadline calculator You have 15 days from the date the notice of "
        "violation was issued to appeal to the Board of Trustees."
    )
    assert not re.search(r"R-[A-Z]+-\d", shown), shown
    assert "/api/" not in shown and "GET" not in shown and "JSON" not in shown
    details = re.search(
        r'<details[^>]*data-testid="calculator-more".*?</details>', html, re.S
    ).group(0)
    assert "/api/deadlines/compute" in details
    assert section_of("R-APL-1") in details
    assert not re.search(r"R-[A-Z]{3}-\d", _shown(html)), _shown(html)
    assert not re.search(r"\d{4}-\d{2}-\d{2}", _shown(html)), _shown(html)


def test_calculator_offers_the_appeal_first_by_its_plain_name(client):
    html = client.get(reverse("deadlines:calculator")).content.decode()
    options = re.findall(r'<option value="([^"]*)"([^>]*)>([^<]*)</option>', html)
    assert options[0] == ("R-APL-1", " selected", "Appeal to the Board of Trustees")
    assert all(not re.search(r"R-[A-Z]+-\d", label) for _, _, label in options)


def test_calculator_answer_keeps_the_rule_one_click_away(client):
    html = client.get(
        reverse("deadlines:calculator"), {"rule": "R-APL-1", "event_date": "2026-12-10"}
    ).content.decode()
    shown = _shown_outside_details(html)
    assert "Due Monday, December 28, 2026" in shown
    assert not re.search(r"R-[A-Z]+-\d", shown), shown
    rule = re.search(
        r'<details[^>]*data-testid="result-rule".*?</details>', html, re.S
    ).group(0)
    assert section_of("R-APL-1") in rule


def test_calculator_answer_speaks_in_words_not_rule_ids_or_iso_dates(client):
    """Issue 26: the answer says how the date was counted as a letter would
    (deadlines.words), the legal basis in a quieter line; the page a
    resident reads has no rule id, no ISO date and no "GCL §" shorthand."""
    html = client.get(
        reverse("deadlines:calculator"), {"rule": "R-APL-1", "event_date": "2026-12-10"}
    ).content.decode()
    shown = _shown(html)
    assert (
        "Counted 15 days from the notice date, Thursday, December 10, 2026; the "
        "last day fell on Christmas Day, a public holiday, and then a weekend, so "
        "it moves to Monday, December 28, 2026."
    ) in shown
    assert "General Construction Law sections 20 and 25-a." in shown
    assert not re.search(r"R-[A-Z]{3}-\d", shown), shown
    assert not re.search(r"\d{4}-\d{2}-\d{2}", shown), shown
    assert "GCL" not in shown
    assert 'data-due="2026-12-28"' in html  # for machines, in an attribute


def test_calculator_offers_only_rules_with_a_fixed_or_default_period(client):
    html = client.get(reverse("deadlines:calculator")).content.decode()
    assert 'value="R-APL-1"' in html
    assert 'value="R-NOV-2"' not in html


def test_calculator_keeps_the_input_on_a_bad_date(client):
    response = client.get(
        reverse("deadlines:calculator"), {"rule": "R-APL-2", "event_date": "nope"}
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "Enter a valid date" in html
    assert 'value="R-APL-2" selected' in html
    assert "data-due=" not in html


# --- URL × role -----------------------------------------------------------------

ROLES = ["anonymous", "no_role", "smo", "clerk", "attorney", "inspector", "superuser"]
READERS = {"smo", "clerk", "superuser"}
STAFF = {"smo", "clerk", "attorney", "inspector", "superuser"}


def _pages(deadline):
    return {
        reverse("deadlines:calculator"): set(ROLES),
        reverse("deadlines:list"): READERS,
        reverse("deadlines:detail", args=[deadline.pk]): READERS,
        reverse("deadlines:reminders"): READERS,
        reverse("deadlines:closures"): READERS,
        reverse("deadlines:feed_settings"): STAFF,
    }


@pytest.mark.parametrize("role", ROLES)
def test_url_role_table(client_as, role):
    deadline = deadline_on(dt.date(2026, 12, 28), responsible="board")
    client = client_as(role)
    for url, allowed in _pages(deadline).items():
        status = client.get(url).status_code
        if role in allowed or url == reverse("deadlines:calculator"):
            expected = 200
        elif role == "anonymous":
            expected = 302
        else:
            expected = 403
        assert status == expected, (url, role, status)
    api = client.get(API, {"rule": "R-APL-1", "from": "2026-12-10"})
    assert api.status_code == 200


def test_clerk_does_not_see_an_smo_deadline_page(client_as):
    deadline = deadline_on(dt.date(2026, 12, 28), responsible="smo")
    board = deadline_on(dt.date(2026, 12, 28), responsible="board", purpose="b")
    client = client_as("clerk")
    assert (
        client.get(reverse("deadlines:detail", args=[deadline.pk])).status_code == 404
    )
    assert client.get(reverse("deadlines:detail", args=[board.pk])).status_code == 200


# --- the list and its actions ---------------------------------------------------


def test_list_filters_overdue_and_shows_the_explanation(smo_client):
    today = timezone.localdate()
    deadline_on(today - dt.timedelta(days=2), purpose="late")
    deadline_on(today + dt.timedelta(days=40), purpose="later")
    html = smo_client.get(reverse("deadlines:list"), {"show": "overdue"}).content
    html = html.decode()
    assert html.count("R-SPL-4 explanation.") == 1
    assert "Overdue" in html


def test_list_queries_do_not_grow_with_rows(smo_client, django_assert_max_num_queries):
    today = timezone.localdate()
    for i in range(30):
        d = deadline_on(today + dt.timedelta(days=i), purpose=f"p{i}")
        Reminder.objects.create(deadline=d, kind="before-5", recipient="a@b.example")
    with django_assert_max_num_queries(12):
        assert smo_client.get(reverse("deadlines:list")).status_code == 200


def test_smo_records_a_deadline_met_late_and_it_is_missed(smo_client, make_case):
    case = make_case()
    deadline = deadline_on(dt.date(2026, 3, 5), case=case)
    response = smo_client.post(
        reverse("deadlines:meet", args=[deadline.pk]), {"on": "2026-03-09"}
    )
    assert response.status_code == 302
    deadline.refresh_from_db()
    assert deadline.status == Deadline.Status.MISSED
    assert deadline.met_on == dt.date(2026, 3, 9)
    assert CaseEvent.objects.filter(case=case, summary__contains="(late)").exists()


def test_a_met_date_in_the_future_is_refused_and_the_input_kept(smo_client):
    deadline = deadline_on(timezone.localdate())
    future = (timezone.localdate() + dt.timedelta(days=3)).isoformat()
    response = smo_client.post(
        reverse("deadlines:meet", args=[deadline.pk]), {"on": future}
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert "cannot be in the future" in html and f'value="{future}"' in html
    deadline.refresh_from_db()
    assert deadline.is_open


def test_waiving_needs_a_reason(smo_client):
    deadline = deadline_on(timezone.localdate())
    url = reverse("deadlines:waive", args=[deadline.pk])
    assert smo_client.post(url, {"reason": "   "}).status_code == 400
    assert smo_client.post(url, {"reason": "Notice withdrawn"}).status_code == 302
    deadline.refresh_from_db()
    assert (deadline.status, deadline.waived_reason) == ("waived", "Notice withdrawn")


def test_clerk_may_close_a_board_duty_but_not_an_smo_duty(client_as):
    board = deadline_on(timezone.localdate(), responsible="board", rule_id="R-APL-2")
    smo = deadline_on(timezone.localdate(), responsible="smo")
    client = client_as("clerk")
    ok = client.post(reverse("deadlines:waive", args=[board.pk]), {"reason": "x"})
    assert ok.status_code == 302
    refused = client.post(reverse("deadlines:waive", args=[smo.pk]), {"reason": "x"})
    assert refused.status_code == 404  # not even visible to the clerk
    smo.refresh_from_db()
    assert smo.is_open


def test_closing_a_closed_deadline_is_a_message_not_an_error(smo_client):
    deadline = deadline_on(timezone.localdate())
    url = reverse("deadlines:waive", args=[deadline.pk])
    smo_client.post(url, {"reason": "first"})
    response = smo_client.post(url, {"reason": "second"}, follow=True)
    assert "already closed" in response.content.decode()
    deadline.refresh_from_db()
    assert deadline.waived_reason == "first"


# --- closures and reminders pages -----------------------------------------------


def test_smo_adds_a_closure_on_the_page_and_the_deadline_moves(smo_client, make_case):
    case = make_case()
    deadline = services.open_deadline(
        rule_id="R-SPL-4", event_date=dt.date(2026, 3, 2), source=case, case=case
    )
    response = smo_client.post(
        reverse("deadlines:closures"), {"day": "2026-03-04", "reason": "Snow"}
    )
    assert response.status_code == 302
    deadline.refresh_from_db()
    assert deadline.due_date == dt.date(2026, 3, 6)
    closure = OfficeClosure.objects.get()
    smo_client.post(reverse("deadlines:closure_remove", args=[closure.pk]))
    deadline.refresh_from_db()
    assert deadline.due_date == dt.date(2026, 3, 5)


def test_clerk_cannot_add_a_closure(client_as):
    client = client_as("clerk")
    response = client.post(
        reverse("deadlines:closures"), {"day": "2026-03-04", "reason": "Snow"}
    )
    assert response.status_code == 403
    assert not OfficeClosure.objects.exists()


def test_a_bad_closure_keeps_the_input(smo_client):
    response = smo_client.post(
        reverse("deadlines:closures"), {"day": "2026-13-40", "reason": "Snow day"}
    )
    assert response.status_code == 400
    assert 'value="Snow day"' in response.content.decode()


def test_reminders_page_says_what_was_sent_to_whom_and_when(smo_client):
    deadline = deadline_on(timezone.localdate())
    Reminder.objects.create(
        deadline=deadline,
        kind="before-1",
        recipient="smo@poquott.example",
        sent_at=timezone.now(),
    )
    Reminder.objects.create(deadline=deadline, kind="due-today", recipient="x@y.org")
    html = smo_client.get(reverse("deadlines:reminders")).content.decode()
    assert "smo@poquott.example" in html and "1 business day before" in html
    assert "not sent yet" in html
