"""§ 132-17 A criterion (2), R-ALT-1: "the violator has no history of previous
violations of this article" is computed from everything the village recorded
against the person — confirmed violations, notices of violation standing (upheld
on appeal, or issued and not withdrawn, superseded or reversed) and court orders
— not only the court's offense records. Built through the services; asserted on
the remedy's page as the Municipal Attorney reads it."""

import datetime as dt

import pytest

from cases.models import CaseParty, Party, Premises
from cases.services import Refused, case_add_party, case_open, case_run_transition
from enforcement.models import Decision, InjunctionReferral
from enforcement.services import appeals as appeal_svc
from enforcement.services import notices as notice_svc
from enforcement.services import remedies as svc

from .conftest import aware, draft, schedule_hearing

pytestmark = pytest.mark.django_db

VIOLATION = dt.date(2026, 4, 1)  # the violation the alternative remedies are for
CRITERION = "(2) the violator has no history of previous violations"


def earlier_case(smo_user, party, premises=None, on=dt.date(2025, 6, 1)):
    """Another case of `party`, its violation confirmed on `on` (services only)."""
    premises = premises or Premises.objects.create(address="3 Bay Avenue")
    case = case_open(
        actor=smo_user, source="phone", summary="Wash water", premises=premises
    )
    case_add_party(case=case, actor=smo_user, role=CaseParty.Role.OWNER, party=party)
    case = case_run_transition(
        case=case, transition="start_investigation", actor=smo_user
    )
    return case_run_transition(
        case=case,
        transition="confirm_violation",
        actor=smo_user,
        responsible_party=party,
        violation_confirmed_on=on,
        violation_finding="Wash water to the catch basin.",
    )


def upheld_notice(case, smo_user, clerk_user, party):
    notice = draft(case, smo_user, violation_date=dt.date(2025, 6, 1))
    notice = notice_svc.notice_issue(
        notice=notice, actor=smo_user, issued_on=dt.date(2025, 6, 2)
    )
    appeal = appeal_svc.appeal_file(
        notice=notice,
        actor=clerk_user,
        appellant=party,
        filed_on=dt.date(2025, 6, 10),
        grounds="Not me.",
    )
    appeal, _ = schedule_hearing(appeal, clerk_user, aware(2025, 6, 24))
    appeal_svc.appeal_decide(
        appeal=appeal,
        actor=clerk_user,
        decision=Decision.UPHELD,
        decided_on=dt.date(2025, 6, 30),
        resolution="The SMO's determination is upheld.",
    )
    notice.refresh_from_db()
    return notice


def court_ordered_abatement(notice, smo_user):
    notice = notice_svc.notice_record_noncompliance(notice=notice, actor=smo_user)
    action = svc.corrective_request_access(
        notice=notice, actor=smo_user, request_letter_on=dt.date(2025, 8, 1)
    )
    action = svc.remedy_step(
        obj=action,
        transition="record_access_refused",
        actor=smo_user,
        response_on=dt.date(2025, 8, 5),
    )
    action = svc.remedy_step(
        obj=action,
        transition="record_warrant",
        actor=smo_user,
        warrant_court="Suffolk County District Court",
        warrant_applied_on=dt.date(2025, 8, 10),
        warrant_issued_on=dt.date(2025, 8, 12),
    )
    return svc.remedy_step(
        obj=action,
        transition="record_order",
        actor=smo_user,
        order_court="Suffolk County Supreme Court",
        order_on=dt.date(2025, 8, 20),
        order_terms="Abate the discharge and restore the swale.",
    )


def propose(case, smo_user, party):
    return svc.alternative_propose(
        case=case,
        actor=smo_user,
        party=party,
        violation_date=VIOLATION,
        unintentional=True,
        minimal_damage=True,
        acted_quickly=True,
        cooperated=True,
        findings="Cleaned up at once.",
        kinds=[("workshop", "May workshop")],
    )


def criterion_line(client, remedy) -> str:
    """The line of criterion (2) on the remedy's page, as read."""
    html = client.get(remedy.get_absolute_url()).content.decode()
    start = html.rindex("<li>", 0, html.index(CRITERION))
    return html[start : html.index("</li>", start)]


def test_a_party_with_a_violation_an_upheld_notice_and_a_court_order_has_a_history(
    confirmed_case, smo_user, clerk_user, attorney_user, owner, client
):
    """R-ALT-1 criterion (2): the confirmed violation, the notice upheld on appeal
    and the court-ordered abatement each show on the page; the criterion is not
    met and the Municipal Attorney cannot recommend."""
    earlier = earlier_case(smo_user, owner)
    notice = upheld_notice(earlier, smo_user, clerk_user, owner)
    court_ordered_abatement(notice, smo_user)
    remedy = propose(confirmed_case, smo_user, owner)

    client.force_login(attorney_user)
    line = criterion_line(client, remedy)
    assert line.startswith("<li>✘")
    assert "No previous violation" not in line
    assert "Previous violations by Pat Owner" in line
    assert (
        f"Jun 1, 2025: violation confirmed (case {earlier.number}, at 3 Bay Avenue)"
        in (line)
    )
    assert (
        f"Jun 2, 2025: notice of violation NOV-{notice.pk} issued (case "
        f"{earlier.number}, at 3 Bay Avenue, upheld on appeal Jun 30, 2025)"
    ) in line
    assert (
        "Aug 20, 2025: court order to abate or restore (Suffolk County Supreme Court)"
        in (line)
    )
    with pytest.raises(Refused, match="five criteria"):
        svc.remedy_step(obj=remedy, transition="recommend", actor=attorney_user)


def test_a_clean_party_shows_no_history_of_previous_violations(
    confirmed_case, smo_user, attorney_user, owner, client
):
    """R-ALT-1: nothing recorded against the person before the violation."""
    remedy = propose(confirmed_case, smo_user, owner)
    client.force_login(attorney_user)
    line = criterion_line(client, remedy)
    assert line.startswith("<li>✔")
    assert "No previous violation by Pat Owner before Wednesday, April 1, 2026" in line
    done = svc.remedy_step(obj=remedy, transition="recommend", actor=attorney_user)
    assert "No previous violation by Pat Owner" in done.history_at_recommendation


def test_a_confirmed_violation_alone_is_a_history(
    confirmed_case, smo_user, attorney_user, owner
):
    """R-ALT-1: a confirmed violation on another case, without any notice yet."""
    earlier_case(smo_user, owner, on=dt.date(2026, 1, 15))
    remedy = propose(confirmed_case, smo_user, owner)
    _, met, how = remedy.criteria()[1]
    assert not met and "Jan 15, 2026: violation confirmed" in how


def test_a_later_violation_or_another_persons_does_not_count(
    confirmed_case, smo_user, owner
):
    """R-ALT-1: "previous" violations of "the violator": one confirmed after the
    violation considered, or another person's at the same premises, is none."""
    earlier_case(smo_user, owner, on=dt.date(2026, 4, 2))
    neighbour = Party.objects.create(name="Lee Neighbour", mailing_address="1 Main")
    earlier_case(smo_user, neighbour, premises=confirmed_case.premises)
    remedy = propose(confirmed_case, smo_user, owner)
    _, met, how = remedy.criteria()[1]
    assert met, how


def test_an_injunction_granted_is_a_history(
    confirmed_case, smo_user, attorney_user, owner
):
    """R-ALT-1: a court order of injunction (§ 132-16) on an earlier case."""
    earlier = earlier_case(smo_user, owner)
    referral = svc.injunction_refer(
        case=earlier,
        actor=smo_user,
        kind=InjunctionReferral.Kind.PERMANENT,
        relief=InjunctionReferral.Relief.RESTRAIN,
        referred_on=dt.date(2025, 7, 1),
        grounds="Repeated discharges.",
    )
    referral = svc.remedy_step(
        obj=referral,
        transition="record_petition",
        actor=smo_user,
        court="Suffolk County Supreme Court",
        petition_filed_on=dt.date(2025, 7, 10),
    )
    svc.remedy_step(
        obj=referral,
        transition="record_granted",
        actor=smo_user,
        decided_on=dt.date(2025, 9, 1),
        outcome_note="Restrained.",
    )
    remedy = propose(confirmed_case, smo_user, owner)
    _, met, how = remedy.criteria()[1]
    assert not met
    assert (
        "Sep 1, 2025: permanent injunction granted (Suffolk County Supreme Court)"
        in how
    )
