"""Every role's home page against one office (issue 16): items due today, due
in the future and overdue, built through the services on a village day stopped
on Friday 2026-12-11 (so that "overdue by 2 days" is a Wednesday and "3 days
left" a Monday: a limit that falls on a weekend rolls to the next business day,
GCL § 25-a, and could not be either). Each role sees its own work, in the
engine's words, and not another role's."""

import datetime as dt

import pytest
from django.urls import reverse

from cases.models import Case, CaseStatus, Party, Premises
from enforcement.models import AlternativeKind, AlternativeRemedy, ServiceRecord
from enforcement.services import appeals as appeal_svc
from enforcement.services import notices as notice_svc
from enforcement.services import remedies as remedy_svc
from kernel.roles import Role
from tests.conftest import make_user
from tests.visible import visible_text

from .conftest import aware, draft, schedule_hearing, village_day

pytestmark = pytest.mark.django_db
TODAY = dt.date(2026, 12, 11)  # a Friday


@pytest.fixture(autouse=True)
def today():
    with village_day(TODAY):
        yield TODAY


def _notice(smo, n, issued_on=dt.date(2026, 11, 2), officer=None):
    """An issued notice; its case assigned to `officer` (by default another
    officer: the SMO's home shows the limits of its own and unassigned cases)."""
    if officer is None:
        from django.contrib.auth import get_user_model

        officer = get_user_model().objects.filter(
            username="other-officer"
        ).first() or make_user("other-officer", Role.SMO)
    owner = Party.objects.create(name=f"Owner {n}", mailing_address="1 Shore Rd")
    case = Case.objects.create(
        number=f"MS4-2026-{700 + n:04d}",
        source="web",
        summary=f"Case {n}",
        premises=Premises.objects.create(address=f"{n} Shore Road"),
        responsible_party=owner,
        assigned_officer=officer,
        status=CaseStatus.VIOLATION_CONFIRMED,
        violation_confirmed_on=dt.date(2026, 10, 1),
        violation_finding="Pool water to the catch basin.",
    )
    notice = draft(case, smo, violation_date=dt.date(2026, 10, 1))
    with village_day(issued_on):
        return notice_svc.notice_issue(notice=notice, actor=smo, issued_on=issued_on)


def _appeal(smo, clerk, n, filed_on):
    notice = _notice(smo, n)
    with village_day(filed_on):
        return appeal_svc.appeal_file(
            notice=notice,
            actor=clerk,
            appellant=notice.recipient,
            filed_on=filed_on,
            grounds="Rain water.",
        )


def _decided(smo, clerk, n, decided_on):
    filed = decided_on - dt.timedelta(days=10)
    appeal, _ = schedule_hearing(
        _appeal(smo, clerk, n, filed), clerk, aware(*filed.timetuple()[:3])
    )
    with village_day(decided_on):
        return appeal_svc.appeal_decide(
            appeal=appeal,
            actor=clerk,
            decision="upheld",
            decided_on=decided_on,
            resolution="The Board upholds the notice.",
        )


def _proposal(smo, n):
    notice = _notice(smo, n)
    return remedy_svc.alternative_propose(
        case=notice.case,
        actor=smo,
        party=notice.recipient,
        violation_date=dt.date(2026, 10, 1),
        unintentional=True,
        minimal_damage=True,
        acted_quickly=True,
        cooperated=True,
        findings="First time; cleaned at once.",
        kinds=[(AlternativeKind.WORKSHOP, "May workshop")],
    )


@pytest.fixture
def office(smo_user, clerk_user, attorney_user):
    smo, clerk = smo_user, clerk_user
    work = {
        # The clerk: hearing by (R-APL-2, 30 days after the filing).
        "schedule_overdue": _appeal(smo, clerk, 1, dt.date(2026, 11, 9)),  # Wed 9
        "schedule_today": _appeal(smo, clerk, 2, dt.date(2026, 11, 11)),  # Fri 11
        "schedule_later": _appeal(smo, clerk, 3, dt.date(2026, 11, 14)),  # Mon 14
        # The clerk: file and mail by (R-APL-3, five days after the decision).
        "mail_overdue": _decided(smo, clerk, 4, dt.date(2026, 12, 4)),  # Wed 9
        "mail_today": _decided(smo, clerk, 5, dt.date(2026, 12, 6)),  # Fri 11
        "mail_later": _decided(smo, clerk, 6, dt.date(2026, 12, 9)),  # Mon 14
        # The SMO: remediation by (R-NOV-2, the draft's 10 days from issuance).
        "remedy_overdue": _notice(smo, 7, dt.date(2026, 11, 29), smo),  # Wed 9
        "remedy_today": _notice(smo, 8, dt.date(2026, 12, 1), smo),  # Fri 11
        "remedy_later": _notice(smo, 9, dt.date(2026, 12, 4), smo),  # Mon 14
        # The Municipal Attorney and the Building Inspector: sign-offs waiting.
        "proposed_today": _proposal(smo, 10),
        "proposed_long_ago": _proposal(smo, 11),
        "recommended_today": remedy_svc.remedy_step(
            obj=_proposal(smo, 12), transition="recommend", actor=attorney_user
        ),
        "recommended_earlier": remedy_svc.remedy_step(
            obj=_proposal(smo, 13), transition="recommend", actor=attorney_user
        ),
    }
    # When each was proposed and recommended (the village day is stopped; the
    # records' own clocks are not).
    for key, field, when in (
        ("proposed_today", "created_at", aware(2026, 12, 11, 9)),
        ("proposed_long_ago", "created_at", aware(2026, 12, 1, 10)),
        ("recommended_today", "recommended_at", aware(2026, 12, 11, 9)),
        ("recommended_earlier", "recommended_at", aware(2026, 12, 8, 10)),
    ):
        AlternativeRemedy.objects.filter(pk=work[key].pk).update(**{field: when})
    work["mailed"] = notice_svc.notice_record_service(
        notice=work["remedy_today"],
        actor=smo,
        method=ServiceRecord.Method.CERTIFIED,
        served_on=dt.date(2026, 12, 2),
        article_number="9407 5555 0000 0000 0000",
    )
    return work


def _home(client):
    response = client.get(reverse("cases:dashboard"))
    assert response.status_code == 200
    return " ".join(response.content.decode().split())


def _section(html, testid, end="</ul>"):
    assert f'data-testid="{testid}"' in html, testid
    return html.split(f'data-testid="{testid}"', 1)[1].split(end, 1)[0]


def _row(section, text):
    rows = [li for li in section.split("<li") if text in li]
    assert rows, f"{text} not in the section"
    return rows[0]


def test_the_clerks_home_words_each_limit_due_today_later_and_overdue(
    client_as, office
):
    html = _home(client_as("clerk"))
    to_schedule = _section(html, "queue-to-schedule")
    for key, date, words in (
        ("schedule_overdue", "Wed, Dec 9, 2026", "overdue by 2 days"),
        ("schedule_today", "Fri, Dec 11, 2026", "due today"),
        ("schedule_later", "Mon, Dec 14, 2026", "3 days left"),
    ):
        row = _row(to_schedule, f"appeal {office[key].pk}<")
        assert f"hearing by {date}" in row and words in row, key
        assert f"{office[key].get_absolute_url()}#step-schedule_hearing" in row
    to_file = _section(html, "queue-to-file-and-mail")
    for key, date, words in (
        ("mail_overdue", "Wed, Dec 9, 2026", "overdue by 2 days"),
        ("mail_today", "Fri, Dec 11, 2026", "due today"),
        ("mail_later", "Mon, Dec 14, 2026", "3 days left"),
    ):
        row = _row(to_file, f"appeal {office[key].pk}<")
        assert f"mail by {date}" in row and words in row, key
        assert f"file with the clerk by {date}" in row
        assert f"{office[key].get_absolute_url()}#record-filing" in row
    mail = _row(_section(html, "queue-certified-mail"), "94075555000000000000")
    assert "mailed Wed, Dec 2, 2026 · waiting 9 days" in visible_text(mail)
    # Not the clerk's: the SMO's remediation limits, the sign-offs.
    assert 'data-testid="attorney-queue"' not in html
    assert 'data-testid="inspector-queue"' not in html
    assert "Waiting for triage" not in html


def test_the_smos_home_puts_its_limits_in_overdue_and_due_this_week(client_as, office):
    html = _home(client_as("smo"))
    overdue = html.split('id="dl-overdue-h"', 1)[1].split("</section>", 1)[0]
    week = html.split('id="dl-week-h"', 1)[1].split("</section>", 1)[0]

    def remediation(panel, key):
        number = office[key].case.number
        return [li for li in panel.split("<li") if number in li and "R-NOV-2" in li]

    assert remediation(overdue, "remedy_overdue")
    assert "2026-12-09" in remediation(overdue, "remedy_overdue")[0]
    assert not remediation(week, "remedy_overdue")
    for key, day in (("remedy_today", "2026-12-11"), ("remedy_later", "2026-12-14")):
        assert remediation(week, key) and day in remediation(week, key)[0], key
        assert not remediation(overdue, key), key
    # The clerk's and the sign-offs' queues are not the SMO's.
    for testid in ("clerk-queue", "attorney-queue", "inspector-queue"):
        assert f'data-testid="{testid}"' not in html


def test_the_attorneys_home_says_how_long_each_proposal_waited(client_as, office):
    html = _home(client_as("attorney"))
    queue = _section(html, "attorney-queue", "</section>")
    row = _row(queue, office["proposed_long_ago"].case.number)
    assert "proposed Tue, Dec 1, 2026 · waiting 10 days" in row
    assert office["proposed_long_ago"].get_absolute_url() in row
    row = _row(queue, office["proposed_today"].case.number)
    assert "proposed Fri, Dec 11, 2026 · since today" in row
    # R-ALT-1 sets no time for the sign-offs: nothing is due or overdue.
    assert "overdue" not in queue and "days left" not in queue
    assert office["recommended_today"].case.number not in queue  # the inspector's
    for testid in ("clerk-queue", "inspector-queue"):
        assert f'data-testid="{testid}"' not in html


def test_the_inspectors_home_says_how_long_each_recommendation_waited(
    client_as, office
):
    html = _home(client_as("inspector"))
    queue = _section(html, "inspector-queue", "</section>")
    row = _row(queue, office["recommended_earlier"].case.number)
    assert "recommended Tue, Dec 8, 2026 · waiting 3 days" in row
    row = _row(queue, office["recommended_today"].case.number)
    assert "recommended Fri, Dec 11, 2026 · since today" in row
    assert "overdue" not in queue and "days left" not in queue
    assert office["proposed_today"].case.number not in queue  # the attorney's
    for testid in ("clerk-queue", "attorney-queue"):
        assert f'data-testid="{testid}"' not in html
