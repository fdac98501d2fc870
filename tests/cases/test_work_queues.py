"""Every role's home is its work queue (issue 16): against a fixture with items
due today, due in the future and overdue, built through the services on a
village day stopped on Thursday 2026-12-03."""

import datetime as dt
import re

import pytest
from django.urls import reverse

from cases.models import Case, CaseStatus, Party, Premises
from enforcement.models import AlternativeKind, AlternativeRemedy, ServiceRecord
from enforcement.services import appeals as appeal_svc
from enforcement.services import notices as notice_svc
from enforcement.services import remedies as remedy_svc
from kernel.roles import Role
from tests.conftest import make_user
from tests.enforcement.conftest import aware, draft, schedule_hearing, village_day
from tests.visible import visible_text

pytestmark = pytest.mark.django_db
TODAY = dt.date(2026, 12, 3)  # a Thursday
ISSUED = dt.date(2026, 10, 30)


@pytest.fixture(autouse=True)
def today():
    with village_day(TODAY):
        yield TODAY


def _notice(smo, n):
    owner = Party.objects.create(name=f"Owner {n}", mailing_address="1 Shore Rd")
    case = Case.objects.create(
        number=f"MS4-2026-{900 + n:04d}",
        source="web",
        summary=f"Case {n}",
        premises=Premises.objects.create(address=f"{n} Shore Road"),
        responsible_party=owner,
        status=CaseStatus.VIOLATION_CONFIRMED,
        violation_confirmed_on=dt.date(2026, 10, 1),
        violation_finding="Pool water to the catch basin.",
    )
    notice = draft(case, smo, violation_date=dt.date(2026, 10, 1))
    return notice_svc.notice_issue(notice=notice, actor=smo, issued_on=ISSUED)


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


def _accepted(clerk, appeal):
    with village_day(appeal.filed_on):
        return appeal_svc.appeal_accept_late(appeal=appeal, actor=clerk)


def _scheduled(smo, clerk, n, filed_on, hearing_at, location="Village Hall"):
    appeal, _ = schedule_hearing(
        _appeal(smo, clerk, n, filed_on), clerk, hearing_at, location=location
    )
    return appeal


def _decided(smo, clerk, n, decided_on):
    filed = decided_on - dt.timedelta(days=10)
    appeal = _scheduled(smo, clerk, n, filed, aware(*filed.timetuple()[:3]))
    return appeal_svc.appeal_decide(
        appeal=appeal,
        actor=clerk,
        decision="upheld",
        decided_on=decided_on,
        resolution="The Board upholds the notice.",
    )


@pytest.fixture
def clerk_work(smo_user, clerk_user):
    smo, clerk = smo_user, clerk_user
    return {
        # R-APL-2: 30 days after filing (GCL § 25-a roll-over).
        "schedule_today": _appeal(smo, clerk, 1, dt.date(2026, 11, 3)),  # Dec 3
        "schedule_overdue": _appeal(smo, clerk, 2, dt.date(2026, 11, 1)),  # Dec 1
        # Filed after the 15 days (R-APL-1) and accepted by the Board: its
        # hearing-by clock counts from the filing.
        "schedule_later": _accepted(
            clerk, _appeal(smo, clerk, 3, dt.date(2026, 11, 30))
        ),  # Dec 30
        "hearing_a": _scheduled(
            smo, clerk, 4, dt.date(2026, 11, 20), aware(2026, 12, 10)
        ),
        "hearing_b": _scheduled(  # at the same Board meeting as hearing_a
            smo, clerk, 5, dt.date(2026, 11, 20), aware(2026, 12, 10)
        ),
        "hearing_held": _scheduled(
            smo, clerk, 6, dt.date(2026, 11, 20), aware(2026, 12, 1)
        ),
        "hearing_far": _scheduled(
            smo, clerk, 7, dt.date(2026, 12, 1), aware(2027, 1, 20)
        ),
        # R-APL-3: five days after the decision.
        "decided_today": _decided(smo, clerk, 8, dt.date(2026, 11, 28)),  # Dec 3
        "decided_overdue": _decided(smo, clerk, 9, dt.date(2026, 11, 25)),  # Nov 30
        "decided_later": _decided(smo, clerk, 10, dt.date(2026, 12, 2)),  # Dec 7
    }


def _home(client):
    response = client.get(reverse("cases:dashboard"))
    assert response.status_code == 200
    return response.content.decode()


def _row(html, testid, text):
    """The <li> of the list `testid` that contains `text`."""
    section = html.split(f'data-testid="{testid}"', 1)[1].split("</ul>", 1)[0]
    rows = [li for li in section.split("<li>") if text in li]
    assert rows, f"{text} not in {testid}"
    return " ".join(rows[0].split())


def test_clerk_sees_appeals_to_schedule_with_hearing_by_and_days_left(
    clerk_client, clerk_work
):
    html = _home(clerk_client)
    today = _row(
        html, "queue-to-schedule", f"appeal {clerk_work['schedule_today'].pk}<"
    )
    assert "hearing by Thu, Dec 3, 2026" in today and "due today" in today
    assert clerk_work["schedule_today"].get_absolute_url() in today
    late = _row(
        html, "queue-to-schedule", f"appeal {clerk_work['schedule_overdue'].pk}<"
    )
    assert "Tue, Dec 1, 2026" in late and "overdue by 2 days" in late
    later = _row(
        html, "queue-to-schedule", f"appeal {clerk_work['schedule_later'].pk}<"
    )
    assert "Wed, Dec 30, 2026" in later and "27 days left" in later
    # Overdue first (the clerk's list is in the order of filing).
    assert html.index(late[:40]) < html.index(today[:40]) < html.index(later[:40])


def test_clerk_sees_the_hearings_of_the_next_30_days_by_meeting(
    clerk_client, clerk_work
):
    html = _home(clerk_client)
    section = html.split('data-testid="queue-hearings"', 1)[1].split("</div>", 1)[0]
    flat = " ".join(section.split())
    words = visible_text(section)
    # One Board meeting, two hearings, the meeting's page linked.
    assert words.count("Board meeting Thu, Dec 10, 2026, 7:00 PM") == 1
    meeting = clerk_work["hearing_a"].meeting
    assert meeting == clerk_work["hearing_b"].meeting
    assert f'href="{meeting.get_absolute_url()}"' in flat
    for key in ("hearing_a", "hearing_b"):
        appeal = clerk_work[key]
        # No notice of hearing issued yet: the row's one action is to issue it.
        assert (
            f'href="{appeal.get_absolute_url()}#record-documents-{appeal.pk}">'
            f"Issue the notice of hearing: appeal {appeal.pk}<"
        ) in flat
    held = clerk_work["hearing_held"]
    assert (
        f'href="{held.get_absolute_url()}#step-decide">'
        f"Record the decision: appeal {held.pk}<"
    ) in flat
    assert "held — decision to record" in words
    assert words.index("held — decision to record") < words.index("Dec 10, 2026")
    assert "after the hearing-by date" not in flat  # all within R-APL-2
    assert f"appeal {clerk_work['hearing_far'].pk}<" not in flat  # Jan 20: past 30 days
    # Scheduled appeals are not among those waiting for a date.
    to_schedule = html.split('data-testid="queue-to-schedule"', 1)[1].split("</ul>")[0]
    assert f"appeal {clerk_work['hearing_a'].pk}<" not in to_schedule


def test_clerk_sees_decisions_to_file_and_mail_with_the_five_day_clock(
    clerk_client, clerk_user, clerk_work
):
    appeal_svc.appeal_record_clerk_filing(
        appeal=clerk_work["decided_overdue"], actor=clerk_user, filed_on=TODAY
    )
    html = _home(clerk_client)
    queue = "queue-to-file-and-mail"
    due = _row(html, queue, f"appeal {clerk_work['decided_today'].pk}<")
    assert "file with the clerk by Thu, Dec 3, 2026" in due
    assert "mail by Thu, Dec 3, 2026" in due and "due today" in due
    late = _row(html, queue, f"appeal {clerk_work['decided_overdue'].pk}<")
    assert "file with the clerk by" not in late  # recorded: only the mailing left
    assert "mail by Mon, Nov 30, 2026" in late and "overdue by 3 days" in late
    later = _row(html, queue, f"appeal {clerk_work['decided_later'].pk}<")
    assert "Mon, Dec 7, 2026" in later and "4 days left" in later


def test_a_hearing_after_the_hearing_by_date_is_flagged_in_the_queue(
    clerk_client, smo_user, clerk_user
):
    late = _scheduled(
        smo_user, clerk_user, 50, dt.date(2026, 11, 1), aware(2026, 12, 8)
    )
    html = " ".join(_home(clerk_client).split())
    row = html.split(f"notice of hearing: appeal {late.pk}<", 1)[1].split("</li>")[0]
    assert "after the hearing-by date Tue, Dec 1, 2026" in visible_text(row)


def test_an_item_leaves_the_clerks_queue_when_its_action_is_recorded(
    clerk_client, clerk_user, clerk_work
):
    appeal = clerk_work["schedule_today"]
    appeal_svc.appeal_schedule_hearing(
        appeal=appeal, actor=clerk_user, hearing_at=aware(2026, 12, 17)
    )
    decided = clerk_work["decided_today"]
    appeal_svc.appeal_record_clerk_filing(
        appeal=decided, actor=clerk_user, filed_on=TODAY
    )
    appeal_svc.appeal_record_mailing(
        appeal=decided,
        actor=clerk_user,
        mailed_on=TODAY,
        article_number="9400 1110 0000 0000 0000",
    )
    html = _home(clerk_client)
    to_schedule = html.split('data-testid="queue-to-schedule"', 1)[1].split("</ul>")[0]
    assert f"appeal {appeal.pk}<" not in to_schedule
    assert f"notice of hearing: appeal {appeal.pk}<" in html  # now among the hearings
    to_file = html.split('data-testid="queue-to-file-and-mail"', 1)[1].split("</ul>")[0]
    assert f"appeal {decided.pk}<" not in to_file


def test_certified_mail_stays_until_its_delivery_or_return_is_recorded(
    client_as, smo_user, clerk_user
):
    notice = _notice(smo_user, 20)
    mailed = notice_svc.notice_record_service(
        notice=notice,
        actor=smo_user,
        method=ServiceRecord.Method.CERTIFIED,
        served_on=dt.date(2026, 11, 2),
        article_number="9400 1000 0000 0000 0001",
    )
    notice_svc.notice_record_service(
        notice=notice, actor=smo_user, method="personal", served_on=ISSUED
    )
    html = _home(client_as("clerk"))
    row = _row(html, "queue-certified-mail", "94001000000000000001")
    assert "mailed Mon, Nov 2, 2026" in visible_text(row) and "waiting 31 days" in row
    # The one action: the notice page's form for the mailing's outcome.
    notice_url = reverse("enforcement:notice_detail", args=[notice.pk])
    assert f"{notice_url}#delivery-{mailed.pk}" in row
    assert f"Record the outcome: notice NOV-{notice.pk}" in row
    mail = html.split('data-testid="queue-certified-mail"', 1)[1].split("</ul>")[0]
    assert mail.count("<li>") == 1  # the personal delivery awaits nothing
    notice_svc.service_record_returned(
        record=mailed, actor=smo_user, returned_on=TODAY, reason="Unclaimed"
    )
    html = _home(client_as("clerk"))
    assert 'data-testid="queue-certified-mail"' not in html
    assert "No certified mail is out." in html


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
def signoffs(smo_user, attorney_user):
    proposed_today = _proposal(smo_user, 30)
    proposed_long_ago = _proposal(smo_user, 31)
    AlternativeRemedy.objects.filter(pk=proposed_long_ago.pk).update(
        created_at=aware(2026, 11, 23, 10)
    )
    recommended = remedy_svc.remedy_step(
        obj=_proposal(smo_user, 32), transition="recommend", actor=attorney_user
    )
    return proposed_today, proposed_long_ago, recommended


def test_attorney_sees_remedies_to_recommend_with_how_long_each_waited(
    client_as, signoffs
):
    proposed_today, long_ago, recommended = signoffs
    html = " ".join(_home(client_as("attorney")).split())
    assert 'data-testid="attorney-queue"' in html
    assert f"Recommend or decline: {long_ago.case.number}" in html
    assert "proposed Mon, Nov 23, 2026 · waiting 10 days" in html
    assert f"Recommend or decline: {proposed_today.case.number}" in html
    assert "since today" in html
    assert long_ago.get_absolute_url() in html
    assert recommended.case.number not in html  # the inspector's now
    assert 'data-testid="clerk-queue"' not in html
    assert 'data-testid="inspector-queue"' not in html


def test_inspector_sees_remedies_to_concur_in_and_they_leave_when_done(
    client_as, signoffs, inspector_user
):
    proposed_today, long_ago, recommended = signoffs
    html = " ".join(_home(client_as("inspector")).split())
    assert f"Concur or decline: {recommended.case.number}" in html
    # Recommended a moment ago (the real clock; only the village day is stopped).
    assert re.search(r"recommended \w{3}, \w{3} \d{1,2}, \d{4} · since today", html)
    assert long_ago.case.number not in html
    assert 'data-testid="attorney-queue"' not in html
    remedy_svc.remedy_step(obj=recommended, transition="concur", actor=inspector_user)
    html = _home(client_as("inspector"))
    assert "Nothing waits for your concurrence." in html


def test_smo_sees_triage_outbox_and_no_clerks_queue(client_as, clerk_work):
    from tests.outbox.factories import OutgoingMessageFactory

    from .factories import ReportFactory

    waiting = ReportFactory()
    OutgoingMessageFactory(failed=True, recipient="f@example.org")
    OutgoingMessageFactory(recipient="p@example.org")
    OutgoingMessageFactory(sent=True, recipient="gone@example.org")
    html = _home(client_as("smo"))
    assert "Waiting for triage" in html and waiting.tracking_code in html
    assert 'data-testid="outbox-dashboard"' in html  # the count include, kept
    queue = html.split('data-testid="outbox-queue"', 1)[1].split("</section>")[0]
    assert "failed</span>" in queue and "to f@example.org" in queue
    assert "waiting</span>" in queue and "to p@example.org" in queue
    assert "gone@example.org" not in queue
    assert reverse("outbox:list") in queue
    assert 'data-testid="clerk-queue"' not in html
    assert 'data-testid="attorney-queue"' not in html


def test_a_user_with_several_roles_sees_each_roles_section(
    client, clerk_work, signoffs
):
    from django.contrib.auth.models import Group

    user = make_user("many", Role.CLERK)
    for role in (Role.ATTORNEY, Role.BUILDING_INSPECTOR):
        user.groups.add(Group.objects.get(name=role.value))
    client.force_login(user)
    html = _home(client)
    for testid in ("clerk-queue", "attorney-queue", "inspector-queue"):
        assert f'data-testid="{testid}"' in html
    assert "Waiting for triage" not in html


def test_the_home_page_costs_the_same_with_more_work(
    clerk_client, smo_user, clerk_user, clerk_work
):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def count():
        with CaptureQueriesContext(connection) as ctx:
            _home(clerk_client)
        return len(ctx.captured_queries)

    before = count()
    _appeal(smo_user, clerk_user, 40, dt.date(2026, 11, 10))
    _scheduled(smo_user, clerk_user, 41, dt.date(2026, 11, 20), aware(2026, 12, 11))
    _decided(smo_user, clerk_user, 42, dt.date(2026, 12, 1))
    assert count() == before
    # Session, user, roles, the deadline panels, the activity, and a fixed few
    # per list of the queue (21 on 2026-12-03: the Board meetings, the notices of
    # hearing and their sendings, three kinds of certified mail).
    assert before <= 24


@pytest.mark.parametrize(
    ("due", "words"),
    [
        (dt.date(2026, 12, 3), "due today"),
        (dt.date(2026, 12, 4), "1 day left"),
        (dt.date(2026, 12, 6), "3 days left"),
        (dt.date(2026, 12, 2), "overdue by 1 day"),
        (dt.date(2026, 12, 1), "overdue by 2 days"),
    ],
)
def test_the_engine_words_how_soon_a_date_is_due(due, words):
    from deadlines import engine

    assert engine.days_left_words(due, TODAY) == words
    assert ("overdue" in words) == engine.is_past_due(due, TODAY)


def test_the_engine_words_how_long_something_waited():
    from deadlines import engine

    assert engine.waited_words(TODAY, TODAY) == "since today"
    assert engine.waited_words(dt.date(2026, 12, 2), TODAY) == "waiting 1 day"
    assert engine.waited_words(dt.date(2026, 11, 23), TODAY) == "waiting 10 days"
