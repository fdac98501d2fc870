"""Demo records of enforcement (loaded by `manage.py load_demo_data`): one case
with an issued notice of violation and an appeal with its hearing scheduled.
Idempotent: a second run finds the demo case and changes nothing."""

import datetime as dt

from django.contrib.auth import get_user_model
from django.utils import timezone

from cases.models import Case, CaseSource, CaseStatus, Party, Premises
from cases.services import case_open, case_run_transition

from .models import Appeal, NoticeOfViolation, RequirementKind
from .services import appeals as appeal_services
from .services import notices as notice_services

DEMO_SUMMARY = "Demo: pool water pumped to the storm drain (enforcement)"


def load(stdout):
    if Case.objects.filter(summary=DEMO_SUMMARY).exists():
        return
    User = get_user_model()
    smo = User.objects.filter(username="smo").first()
    clerk = User.objects.filter(username="clerk").first()
    if smo is None or clerk is None:
        return
    today = timezone.localdate()
    owner, _ = Party.objects.get_or_create(
        name="Jordan Demo-Owner",
        defaults={"mailing_address": "7 Demo Lane\nPoquott, NY 11733"},
    )
    premises, _ = Premises.objects.get_or_create(address="7 Demo Lane, Poquott")
    case = case_open(
        actor=smo,
        source=CaseSource.OBSERVATION,
        summary=DEMO_SUMMARY,
        premises=premises,
    )
    case = case_run_transition(case=case, transition="start_investigation", actor=smo)
    case = case_run_transition(
        case=case,
        transition="confirm_violation",
        actor=smo,
        responsible_party=owner,
        violation_finding="Pool water pumped to the catch basin on Demo Lane.",
    )
    notice = notice_services.notice_draft(
        case=case,
        actor=smo,
        recipient=owner,
        # Before the notice is issued (five days ago): a notice prints the date
        # of the violation, which cannot follow it.
        violation_date=today - dt.timedelta(days=7),
        findings="Pool water was discharged to the MS4 (§ 132-6 A).",
        requirements=[
            (
                RequirementKind.CEASE_DESIST,
                "Stop discharging pool water to the street.",
            ),
            (RequirementKind.ABATEMENT, "Clean the catch basin in front of no. 7."),
        ],
        remediation_days=14,
    )
    issued_on = today - dt.timedelta(days=5)
    notice = notice_services.notice_issue(notice=notice, actor=smo, issued_on=issued_on)
    notice_services.notice_record_service(
        notice=notice,
        actor=smo,
        method="certified",
        served_on=issued_on,
        article_number="9407 1118 9876 5000 0000 01",
    )
    appeal = appeal_services.appeal_file(
        notice=notice,
        actor=clerk,
        appellant=owner,
        filed_on=today - dt.timedelta(days=2),
        grounds="The water was drained from the cover, not the pool.",
    )
    hearing = timezone.make_aware(
        dt.datetime.combine(today + dt.timedelta(days=14), dt.time(19, 30))
    )
    appeal_services.appeal_schedule_hearing(
        appeal=appeal,
        actor=clerk,
        hearing_at=hearing,
        location="Village Hall, 45 Birchwood Avenue",
    )
    assert NoticeOfViolation.objects.filter(case=case).count() == 1
    assert Appeal.objects.filter(notice=notice).count() == 1
    assert Case.objects.get(pk=case.pk).status == CaseStatus.ENFORCEMENT
    stdout.write(
        f"Enforcement demo: case {case.number}, notice NOV-{notice.pk}, "
        f"appeal {appeal.pk} with a hearing."
    )
