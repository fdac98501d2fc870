"""Demo records of what a step does to the clocks (issue 25; cases.clocks), so a
newcomer sees both behaviours on the case pages and the respondents' pages:

- a case resolved while its notice's clocks were running: every clock ended
  ("No longer running"), the notice closed with the case;
- an appeal upheld today of a notice that gave 60 days: the correction date is
  the notice's own later date, not five business days after the decision.

Idempotent: a second run finds the demo cases and changes nothing."""

import datetime as dt

from django.contrib.auth import get_user_model
from django.utils import timezone

from cases.models import Case, CaseSource, Party, Premises
from cases.services import case_open, case_run_transition

from .models import Decision, RequirementKind
from .services import appeals as appeal_services
from .services import notices as notice_services

RESOLVED = "Demo: wash water to the storm drain, resolved while its clocks ran"
UPHELD = "Demo: upheld appeal, the notice's own later date stands"


def _case_with_notice(smo, *, summary, owner_name, address, issued_ago, days):
    today = timezone.localdate()
    owner, _ = Party.objects.get_or_create(
        name=owner_name, defaults={"mailing_address": f"{address}\nPoquott, NY 11733"}
    )
    premises, _ = Premises.objects.get_or_create(address=f"{address}, Poquott")
    case = case_open(
        actor=smo, source=CaseSource.OBSERVATION, summary=summary, premises=premises
    )
    case = case_run_transition(case=case, transition="start_investigation", actor=smo)
    case = case_run_transition(
        case=case,
        transition="confirm_violation",
        actor=smo,
        responsible_party=owner,
        violation_finding="Wash water ran to the catch basin.",
    )
    issued_on = today - dt.timedelta(days=issued_ago)
    notice = notice_services.notice_draft(
        case=case,
        actor=smo,
        recipient=owner,
        violation_date=issued_on - dt.timedelta(days=1),
        findings="Wash water was discharged to the MS4.",
        requirements=[
            (RequirementKind.CEASE_DESIST, "Stop washing vehicles into the street."),
            (RequirementKind.ABATEMENT, "Clean the catch basin in front."),
        ],
        remediation_days=days,
    )
    notice = notice_services.notice_issue(notice=notice, actor=smo, issued_on=issued_on)
    return case, notice, owner


def load(stdout):
    User = get_user_model()
    smo = User.objects.filter(username="smo").first()
    clerk = User.objects.filter(username="clerk").first()
    if smo is None or clerk is None:
        return
    today = timezone.localdate()
    if not Case.objects.filter(summary=RESOLVED).exists():
        case, notice, _ = _case_with_notice(
            smo,
            summary=RESOLVED,
            owner_name="Riley Demo-Resolved",
            address="3 Clock Lane",
            issued_ago=10,
            days=30,
        )
        case_run_transition(
            case=case,
            transition="resolve",
            actor=smo,
            eliminated_on=today,
            verification="Dye test at the catch basin: clear.",
        )
        stdout.write(f"Clocks demo: case {case.number} resolved, its clocks ended.")
    if not Case.objects.filter(summary=UPHELD).exists():
        case, notice, owner = _case_with_notice(
            smo,
            summary=UPHELD,
            owner_name="Morgan Demo-Upheld",
            address="5 Clock Lane",
            issued_ago=6,
            days=60,
        )
        appeal = appeal_services.appeal_file(
            notice=notice,
            actor=clerk,
            appellant=owner,
            filed_on=today - dt.timedelta(days=5),
            grounds="The water came from the neighbour's yard.",
        )
        appeal, _ = appeal_services.appeal_schedule_hearing(
            appeal=appeal,
            actor=clerk,
            hearing_at=timezone.make_aware(dt.datetime.combine(today, dt.time(23, 0))),
            location="Village Hall, 45 Birchwood Avenue",
        )
        appeal_services.appeal_decide(
            appeal=appeal,
            actor=clerk,
            decision=Decision.UPHELD,
            decided_on=today,
            resolution="The Board upholds the determination of the SMO.",
        )
        stdout.write(
            f"Clocks demo: case {case.number}, appeal upheld; the notice's 60 days "
            "stand."
        )
