"""Issue 17, exports: the deadline list (with its filters), the notices of
violation and the clerk's appeal lists export what they show as CSV and XLSX,
formula text neutralised."""

import datetime as dt

import pytest
from django.urls import reverse

from cases.models import CaseParty, Party
from deadlines.services import open_deadline, waive_deadline
from enforcement.services import appeals as appeal_services
from enforcement.services import notices as notice_services

from ..enforcement.conftest import draft, schedule_hearing
from .helpers import HOSTILE, assert_neutralised, both

pytestmark = pytest.mark.django_db


# --- deadlines ------------------------------------------------------------------------
DEADLINE_HEADINGS = [
    "Due date",
    "Rule",
    "Deadline",
    "Link",
    "Case number",
    "Who must act",
    "Assigned to",
    "Status",
    "Done on",
    "Waived because",
    "Counts from",
    "Event date",
    "How it was computed",
    "Reminders",
]


def test_deadline_export_has_the_filtered_deadlines_with_formulas_neutralised(
    smo_client, smo_user, outfall_factory
):
    waived = []
    for n, text in enumerate(HOSTILE):
        deadline = open_deadline(
            rule_id="R-DEF-2",
            event_date=dt.date(2026, 1, 5 + n),
            source=outfall_factory(f"PQ-{n:03d}"),
            actor=smo_user,
            assigned_to=smo_user,
        )
        waived.append(waive_deadline(deadline, reason=text, actor=smo_user))
    still_open = open_deadline(
        rule_id="R-DEF-2",
        event_date=dt.date(2026, 2, 1),
        source=outfall_factory("PQ-100"),
        actor=smo_user,
    )

    csv_rows, xlsx_rows, headings = both(smo_client, "deadlines:export", "show=closed")

    assert headings == DEADLINE_HEADINGS
    for rows in (csv_rows, xlsx_rows):
        assert len(rows) == len(HOSTILE)
        assert {r["Status"] for r in rows} == {"Waived"}
        assert_neutralised(rows, "Waived because")
        assert str(still_open.pk) not in {
            r["Link"].rstrip("/").split("/")[-1] for r in rows
        }
    first = next(r for r in csv_rows if r["Link"].endswith(f"/{waived[0].pk}/"))
    assert first["Rule"] == "R-DEF-2"
    assert first["Due date"] == waived[0].due_date.isoformat()
    assert first["Who must act"] == waived[0].get_responsible_display()
    assert first["How it was computed"] == waived[0].explanation
    cell = next(r for r in xlsx_rows if r["Link"].endswith(f"/{waived[0].pk}/"))
    assert cell["Due date"] == dt.datetime.combine(waived[0].due_date, dt.time())


def test_the_deadline_list_links_its_exports_with_its_filters(smo_client):
    html = smo_client.get(reverse("deadlines:list") + "?show=closed&page=3").content
    assert f'href="{reverse("deadlines:export_xlsx")}?show=closed"' in html.decode()


def test_a_malformed_deadline_filter_exports_nothing_and_the_list_says_why(
    smo_client,
):
    response = smo_client.get(reverse("deadlines:export_csv") + "?show=sometimes")
    assert response.status_code == 302
    page = smo_client.get(response["Location"])
    assert "Select a valid choice. sometimes is not one of the available choices." in (
        page.content.decode()
    )


def test_the_clerk_exports_only_the_deadlines_her_list_shows(
    client_as, smo_user, outfall_factory
):
    open_deadline(
        rule_id="R-DEF-2",
        event_date=dt.date(2026, 1, 5),
        source=outfall_factory("PQ-001"),
        actor=smo_user,
    )
    csv_rows, xlsx_rows, _ = both(client_as("clerk"), "deadlines:export", "show=all")
    assert csv_rows == [] and xlsx_rows == []  # an SMO duty: not on her list


# --- notices of violation ---------------------------------------------------------
def test_notice_export_lists_every_notice_with_recipients_neutralised(
    smo_client, smo_user, confirmed_case
):
    notices = []
    for text in HOSTILE:
        party = Party.objects.create(name=text, mailing_address="1 Shore Road")
        CaseParty.objects.create(
            case=confirmed_case, party=party, role=CaseParty.Role.AGENT
        )
        notices.append(draft(confirmed_case, smo_user, recipient=party))
    issued = notice_services.notice_issue(
        notice=draft(confirmed_case, smo_user, remediation_days=14),
        actor=smo_user,
        issued_on=dt.date(2026, 3, 3),
    )

    csv_rows, xlsx_rows, headings = both(smo_client, "enforcement:notice_export")

    assert headings[:6] == [
        "Notice",
        "Link",
        "Case number",
        "Recipient",
        "Status",
        "Issued on",
    ]
    for rows in (csv_rows, xlsx_rows):
        assert {r["Notice"] for r in rows} == {
            f"NOV-{n.pk}" for n in [*notices, issued]
        }
        assert_neutralised(rows, "Recipient")
    row = next(r for r in csv_rows if r["Notice"] == f"NOV-{issued.pk}")
    assert row["Issued on"] == "2026-03-03"
    assert row["Requirements"] == " ".join(
        f"({r.number})" for r in issued.requirements.all()
    )
    assert row["Days to comply"] == "14"
    cell = next(r for r in xlsx_rows if r["Notice"] == f"NOV-{issued.pk}")
    assert cell["Days to comply"] == 14  # a number in the spreadsheet


def test_the_notice_list_links_its_exports(smo_client):
    html = smo_client.get(reverse("enforcement:notice_list")).content.decode()
    assert f'href="{reverse("enforcement:notice_export_csv")}"' in html


# --- appeals ----------------------------------------------------------------------
def _appeal(case, smo_user, clerk_user, name):
    party = Party.objects.create(name=name, mailing_address="1 Shore Road")
    CaseParty.objects.create(case=case, party=party, role=CaseParty.Role.AGENT)
    notice = notice_services.notice_issue(
        notice=draft(case, smo_user, recipient=party),
        actor=smo_user,
        issued_on=dt.date(2026, 3, 3),
    )
    return appeal_services.appeal_file(
        notice=notice,
        actor=clerk_user,
        appellant=party,
        filed_on=dt.date(2026, 3, 10),
        grounds="Rain water.",
    )


def test_appeal_export_has_the_section_shown_or_all_three_lists(
    clerk_client, clerk_user, smo_user, confirmed_case, aware_at
):
    appeals = [_appeal(confirmed_case, smo_user, clerk_user, text) for text in HOSTILE]
    heard, _ = schedule_hearing(
        _appeal(confirmed_case, smo_user, clerk_user, "Hale Marine"),
        clerk_user,
        aware_at(2026, 3, 24),
        location="=Village Hall",
    )

    open_csv, open_xlsx, headings = both(
        clerk_client, "enforcement:appeal_export", "section=open"
    )
    assert headings[:3] == ["Appeal", "Link", "List"]
    for rows in (open_csv, open_xlsx):
        assert {str(r["Appeal"]) for r in rows} == {str(a.pk) for a in appeals}
        assert {r["List"] for r in rows} == {"Appeals open — hearing to schedule"}
        assert_neutralised(rows, "Appellant")
    first = next(r for r in open_csv if r["Appeal"] == str(appeals[0].pk))
    assert first["Filed on"] == "2026-03-10"
    hear_by = appeals[0].notice.case.deadlines.get(
        rule_id="R-APL-2", object_id=appeals[0].pk
    )
    assert first["Hear by (R-APL-2)"] == hear_by.due_date.isoformat()
    cell = next(r for r in open_xlsx if r["Appeal"] == appeals[0].pk)
    assert isinstance(cell["Appeal"], int)  # ids stay numbers

    all_csv, all_xlsx, _ = both(clerk_client, "enforcement:appeal_export")
    # a CSV quotes text a spreadsheet would run; an XLSX has it as a text cell
    for rows, written in ((all_csv, "'=Village Hall"), (all_xlsx, "=Village Hall")):
        assert {str(r["Appeal"]) for r in rows} == {
            str(a.pk) for a in [*appeals, heard]
        }
        hearing = next(r for r in rows if str(r["Appeal"]) == str(heard.pk))
        assert hearing["List"] == "Hearings coming"
        assert hearing["Hearing location"] == written


def test_the_appeal_lists_link_their_exports(clerk_client):
    html = clerk_client.get(reverse("enforcement:appeal_list")).content.decode()
    assert f'href="{reverse("enforcement:appeal_export_csv")}"' in html
    html = clerk_client.get(
        reverse("enforcement:appeal_list") + "?section=hearings"
    ).content.decode()
    assert (
        f'href="{reverse("enforcement:appeal_export_xlsx")}?section=hearings"' in html
    )
