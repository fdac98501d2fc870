# ruff: noqa: F811 (the enforcement fixtures, imported for this file at the root)
"""Issue 16: a legally binding step (issue, serve, decide, suspend, terminate,
close) asks for a ticked "I confirm: …" box saying what it does and starts, with
the dates from the deadline engine; a POST without it does nothing, says why and
keeps the user's input; done, the message says what happened in words."""

import contextlib
import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import timezone

from cases.models import Case, CaseStatus, Premises
from deadlines.services import compute_due
from documents.models import IssuedDocument
from enforcement.document_kinds import EnforcementDocument
from enforcement.models import (
    AlternativeKind,
    AlternativeRemedy,
    Appeal,
    CorrectiveAction,
    NoticeOfViolation,
    NuisanceAbatement,
)
from enforcement.models.notices import NoticeStatus
from enforcement.services import appeals as appeal_svc
from enforcement.services import notices as notice_svc
from enforcement.services import remedies as remedy_svc
from inspections import services as insp_svc
from inspections.models import Inspection, WarrantApplication
from kernel.confirmations import BUILDERS, confirm_text
from kernel.humanize import human_date
from kernel.workflow import transitions_of
from tests.cases.factories import CaseFactory
from tests.enforcement.conftest import (  # noqa: F401 (fixtures)
    agent,
    appeal,
    confirmed_case,
    draft_notice,
    issued_notice,
    issued_notice_of_hearing,
    owner,
    scheduled_appeal,
    village_day,
)
from tests.inspections.conftest import record as record_visit
from tests.steps import confirmed

pytestmark = pytest.mark.django_db

BINDING = {
    (NoticeOfViolation, "issue"),
    (NoticeOfViolation, "withdraw"),
    (Appeal, "decide"),
    (Case, "close_unfounded"),
    (Case, "close_exempt"),
    (Case, "resolve"),
    # issue 26
    (Inspection, "finalize"),  # R-ACC-1
    (AlternativeRemedy, "recommend"),  # R-ALT-1, the Municipal Attorney
    (AlternativeRemedy, "concur"),  # R-ALT-1, the Building Inspector
    (CorrectiveAction, "invoice"),  # R-COR-2
    (NuisanceAbatement, "invoice"),  # R-NUI-1
}


def _custom(model, name):
    meta = transitions_of(model)[name]._django_fsm
    return next(iter(meta.transitions.values())).custom


@pytest.mark.parametrize(("model", "name"), sorted(BINDING, key=str))
def test_binding_steps_are_marked_and_have_their_own_words(model, name):
    custom = _custom(model, name)
    assert custom.get("binding") is True
    assert custom.get("confirm") in BUILDERS


def test_every_confirm_names_a_builder():
    from django.apps import apps

    for model in apps.get_models():
        try:
            steps = transitions_of(model)
        except Exception:
            continue
        for method in steps.values():
            for t in method._django_fsm.transitions.values():
                if t.custom.get("binding"):
                    assert t.custom.get("confirm", "") in BUILDERS, method


def test_the_issue_form_says_the_last_day_to_appeal_from_the_engine(
    draft_notice, smo_client
):
    html = smo_client.get(draft_notice.get_absolute_url()).content.decode()
    last_day = compute_due("R-APL-1", timezone.localdate()).due
    assert 'name="issue-confirm"' in html
    assert "I confirm: Issuing" in html
    assert f"the last day to appeal will be {human_date(last_day)}" in html


def test_issuing_without_the_confirmation_does_nothing_and_says_why(
    draft_notice, smo_client
):
    url = reverse("enforcement:notice_step", args=[draft_notice.pk, "issue"])
    response = smo_client.post(url, {"expected_status": "draft"})
    assert response.status_code == 200
    assert "this legally binding step; nothing was done" in response.content.decode()
    draft_notice.refresh_from_db()
    assert draft_notice.status == NoticeStatus.DRAFT


def test_issuing_with_the_confirmation_issues_and_says_so_in_words(
    draft_notice, smo_client
):
    url = reverse("enforcement:notice_step", args=[draft_notice.pk, "issue"])
    response = smo_client.post(
        url, confirmed("issue", expected_status="draft"), follow=True
    )
    draft_notice.refresh_from_db()
    assert draft_notice.status == NoticeStatus.ISSUED
    html = response.content.decode()
    assert f"Notice NOV-{draft_notice.pk} issued; the last day to appeal is" in html
    assert "Done." not in html


def test_a_decision_without_the_confirmation_keeps_the_input(
    scheduled_appeal, client_as
):
    response = client_as("clerk").post(
        reverse("enforcement:appeal_step", args=[scheduled_appeal.pk, "decide"]),
        {
            "decide-decision": "upheld",
            "decide-decided_on": "2026-03-26",
            "decide-resolution": "Resolved to uphold, kept.",
        },
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "nothing was done" in html
    assert "Resolved to uphold, kept." in html
    assert "must correct the violation by" in html  # what the decision starts
    assert Appeal.objects.get(pk=scheduled_appeal.pk).decision == ""


def test_closing_a_case_without_the_confirmation_does_nothing(smo_client):
    case = CaseFactory(investigating=True)
    url = reverse("cases:transition", args=[case.number, "close_unfounded"])
    form = smo_client.get(url).content.decode()
    assert "I confirm: Closing ends the case" in form
    data = {
        "expected_status": case.status,
        "expected_version": case.version,
        "closing_reason": "Clear sprinkler water",
    }
    refused = smo_client.post(url, data)
    assert refused.status_code == 200
    assert "nothing was done" in refused.content.decode()
    assert "Clear sprinkler water" in refused.content.decode()
    assert Case.objects.get(pk=case.pk).status == CaseStatus.INVESTIGATING
    done = smo_client.post(url, {**data, "confirm": "on"}, follow=True)
    assert Case.objects.get(pk=case.pk).status != CaseStatus.INVESTIGATING
    assert f"Close as unfounded: case {case.number} is now" in done.content.decode()


def test_a_step_that_is_not_binding_asks_for_no_confirmation(issued_notice, smo_client):
    html = smo_client.get(issued_notice.get_absolute_url()).content.decode()
    assert 'name="record_compliance-confirm"' not in html
    assert 'name="withdraw-confirm"' in html


def test_the_general_sentence_for_a_binding_step_without_its_own_words():
    text = confirm_text(object(), {"label": "Do it", "binding": True})
    assert "“Do it” is legally binding" in text


def test_a_drafts_preview_is_marked_draft_on_every_page_and_the_issued_html_not():
    import io

    from pypdf import PdfReader

    from documents.registry import sample_facts
    from documents.render import render_html, render_pdf
    from documents.services import document_preview

    kind = EnforcementDocument.NOTICE_OF_VIOLATION
    preview = document_preview(kind, sample_facts(kind))
    issued = render_html(kind, sample_facts(kind))
    assert 'data-testid="draft-watermark"' in preview
    assert "DRAFT" not in issued
    pages = PdfReader(io.BytesIO(render_pdf(preview, pdf_variant=None))).pages
    assert all("DRAFT" in p.extract_text() for p in pages)


def test_the_draft_preview_page_says_draft(client_as):

    html = (
        client_as("smo")
        .get(
            reverse(
                "documents:sample_preview",
                args=[EnforcementDocument.NOTICE_OF_VIOLATION],
            )
        )
        .content.decode()
    )
    assert "DRAFT — a preview, not issued" in html


# --- issue 26: every binding act asks, whether a step or a record ----------------


def _decided(appeal, clerk):
    return appeal_svc.appeal_decide(
        appeal=appeal,
        actor=clerk,
        decision="upheld",
        decided_on=dt.date(2026, 3, 24),
        resolution="Upheld.",
    )


def _issue(source, record, kind):
    return reverse("enforcement:document_issue", args=[source, record.pk, kind])


def _refused_inspection(smo):
    inspection = insp_svc.inspection_schedule(
        actor=smo,
        kind="follow_up",
        premises=Premises.objects.create(
            address="2 Shore Road", land_use="residential"
        ),
        officer=smo,
        scheduled_for=timezone.now() - dt.timedelta(hours=3),
    )
    return record_visit(inspection, smo, "refused", "Refused at the gate")


def _recorded_inspection(smo):
    inspection = insp_svc.inspection_schedule(
        actor=smo,
        kind="follow_up",
        premises=Premises.objects.create(
            address="2 Shore Road", land_use="residential"
        ),
        officer=smo,
        scheduled_for=timezone.now() - dt.timedelta(hours=3),
    )
    return record_visit(inspection, smo, "granted", "Walked the yard")


def _proposal(smo, notice):
    return remedy_svc.alternative_propose(
        case=notice.case,
        actor=smo,
        party=notice.recipient,
        violation_date=dt.date(2026, 3, 1),
        unintentional=True,
        minimal_damage=True,
        acted_quickly=True,
        cooperated=True,
        findings="First time; cleaned at once.",
        kinds=[(AlternativeKind.WORKSHOP, "May workshop")],
    )


def _work_done(notice, smo):
    notice = notice_svc.notice_record_noncompliance(notice=notice, actor=smo)
    action = remedy_svc.corrective_request_access(
        notice=notice, actor=smo, request_letter_on=dt.date(2026, 3, 20)
    )
    action = remedy_svc.remedy_step(
        obj=action,
        transition="record_access_granted",
        actor=smo,
        response_on=dt.date(2026, 3, 25),
    )
    action = remedy_svc.remedy_step(
        obj=action,
        transition="record_work",
        actor=smo,
        performed_by="contractor",
        performer_name="ACME",
        work_description="Basin cleaned",
        work_completed_on=dt.date(2026, 4, 8),
    )
    remedy_svc.cost_item_add(
        remedy=action,
        actor=smo,
        description="Vacuum truck",
        amount=Decimal("400"),
        incurred_on=dt.date(2026, 4, 8),
    )
    return action


def _act_finalize(f):
    i = _recorded_inspection(f.smo_user)
    step = reverse("inspections:inspection_step", args=[i.pk, "finalize"])
    return Act(
        "smo",
        i.get_absolute_url(),
        step,
        "finalize",
        {"expected_status": i.status},
        "Finalizing locks the inspection record",
        lambda: Inspection.objects.get(pk=i.pk).status == "finalized",
    )


def _act_warrant(f):
    i = _refused_inspection(f.smo_user)
    url = reverse("inspections:inspection_action", args=[i.pk, "warrant"])
    return Act(
        "smo",
        i.get_absolute_url(),
        url,
        "warrant",
        {},
        "Starting a search-warrant application records",
        lambda: WarrantApplication.objects.filter(inspection=i).exists(),
    )


def _act_recommend(f):
    p = _proposal(f.smo_user, f.issued_notice)
    page = reverse("enforcement:remedy_detail", args=["alternative", p.pk])
    step = reverse("enforcement:remedy_step", args=["alternative", p.pk, "recommend"])
    return Act(
        "attorney",
        page,
        step,
        "recommend",
        {"expected_status": p.status, "recommend-recommendation_note": "Agreed, kept."},
        "Recommending is the Municipal Attorney",
        lambda: AlternativeRemedy.objects.get(pk=p.pk).status == "recommended",
    )


def _act_concur(f):
    p = _proposal(f.smo_user, f.issued_notice)
    p = remedy_svc.remedy_step(obj=p, transition="recommend", actor=f.attorney_user)
    page = reverse("enforcement:remedy_detail", args=["alternative", p.pk])
    step = reverse("enforcement:remedy_step", args=["alternative", p.pk, "concur"])
    return Act(
        "inspector",
        page,
        step,
        "concur",
        {"expected_status": p.status, "concur-concurrence_note": "Concur, kept."},
        "Concurring is the Building Inspector",
        lambda: AlternativeRemedy.objects.get(pk=p.pk).status == "concurred",
    )


def _act_invoice_step(f):
    a = _work_done(f.issued_notice, f.smo_user)
    page = reverse("enforcement:remedy_detail", args=["corrective", a.pk])
    step = reverse("enforcement:remedy_step", args=["corrective", a.pk, "invoice"])
    return Act(
        "smo",
        page,
        step,
        "invoice",
        {"expected_status": a.status},
        "Issuing the invoice numbers it",
        lambda: CorrectiveAction.objects.get(pk=a.pk).invoice_amount is not None,
    )


def _act_invoice_document(f):
    a = _work_done(f.issued_notice, f.smo_user)
    kind = EnforcementDocument.CORRECTIVE_INVOICE
    return Act(
        "smo",
        reverse("enforcement:remedy_detail", args=["corrective", a.pk]),
        _issue("corrective", a, kind),
        kind,
        {},
        "Issuing the invoice numbers it",
        lambda: CorrectiveAction.objects.get(pk=a.pk).invoice_amount is not None,
    )


def _act_hearing_notice(f):
    a = f.scheduled_appeal
    kind = EnforcementDocument.HEARING_NOTICE
    return Act(
        "clerk",
        a.get_absolute_url(),
        _issue("appeal", a, kind),
        kind,
        {},
        "Issuing makes the notice of hearing the official notice",
        lambda: IssuedDocument.objects.filter(kind=kind).exists(),
        day=dt.date(2026, 3, 11),  # the fixtures' day, before the hearing
    )


def _act_decision_document(f):
    a = _decided(f.scheduled_appeal, f.clerk_user)
    kind = EnforcementDocument.APPEAL_DECISION
    return Act(
        "clerk",
        a.get_absolute_url(),
        _issue("appeal", a, kind),
        kind,
        {},
        "Issuing makes the Board&#x27;s written decision the official record",
        lambda: IssuedDocument.objects.filter(kind=kind).exists(),
    )


def _act_agenda(f):
    m = f.scheduled_appeal.meeting  # a meeting with the appeal's hearing
    kind = EnforcementDocument.MEETING_AGENDA
    return Act(
        "clerk",
        reverse("enforcement:meeting_detail", args=[m.pk]),
        _issue("meeting", m, kind),
        kind,
        {},
        "Issuing makes the agenda the official agenda",
        lambda: IssuedDocument.objects.filter(kind=kind).exists(),
        day=dt.date(2026, 3, 11),
    )


def _act_filing(f):
    a = _decided(f.scheduled_appeal, f.clerk_user)
    url = reverse("enforcement:appeal_record", args=[a.pk, "filing"])
    return Act(
        "clerk",
        a.get_absolute_url(),
        url,
        "filing",
        {"filing-filed_on": "2026-03-25"},
        "Recording the filing says",
        lambda: Appeal.objects.get(pk=a.pk).filed_with_clerk_on is not None,
        kept='value="2026-03-25"',
    )


def _act_mailing(f):
    a = _decided(f.scheduled_appeal, f.clerk_user)
    url = reverse("enforcement:appeal_record", args=[a.pk, "mailing"])
    return Act(
        "clerk",
        a.get_absolute_url(),
        url,
        "mailing",
        {
            "mailing-mailed_on": "2026-03-25",
            "mailing-article_number": "9407 1000 0000 0000 0001",
        },
        "Recording the mailing says",
        lambda: Appeal.objects.get(pk=a.pk).mailed_on is not None,
        kept="9407 1000 0000 0000 0001",
    )


def _act_hearing_service(f):
    a = f.scheduled_appeal
    with village_day(dt.date(2026, 3, 11)):
        issued_notice_of_hearing(a, f.clerk_user)
    url = reverse("enforcement:appeal_record", args=[a.pk, "hearing_service"])
    return Act(
        "clerk",
        a.get_absolute_url(),
        url,
        "hearing_service",
        {
            "hearing_service-sent_to": "Pat Owner",
            "hearing_service-method": "certified",
            "hearing_service-served_on": "2026-03-12",
            "hearing_service-article_number": "9407 1000 0000 0000 0001",
        },
        "Recording the sending says",
        lambda: a.hearing_notice_services.exists(),
        kept="9407 1000 0000 0000 0001",
        day=dt.date(2026, 3, 12),
    )


def _act_service(f):
    n = f.issued_notice
    url = reverse("enforcement:notice_service", args=[n.pk])
    return Act(
        "smo",
        url,
        url,
        None,
        {
            "method": "certified",
            "served_on": timezone.localdate().isoformat(),
            "article_number": "9407 1000 0000 0000 0001",
            "served_by": "Post office",
            "where": "12 Shore Road",
        },
        "Recording the service says",
        lambda: n.service_records.exists(),
        kept="9407 1000 0000 0000 0001",
    )


@dataclass
class Act:
    role: str
    page: str  # where the form is
    post: str  # where it is posted
    prefix: str | None  # the box is `<prefix>-confirm` (None: `confirm`)
    data: dict  # the form's other input
    words: str  # the start of what the box says it does
    done: Callable[[], bool]
    kept: str = ""  # a piece of the input shown again when refused
    day: dt.date | None = None  # the village's day the act is taken on


# every binding act of issue 26 that is not already tested above, step or record
ACTS = {
    "finalize an inspection (step)": _act_finalize,
    "start a warrant application (record)": _act_warrant,
    "the Attorney's recommendation (step)": _act_recommend,
    "the Building Inspector's concurrence (step)": _act_concur,
    "issue the invoice (step)": _act_invoice_step,
    "issue the invoice (document)": _act_invoice_document,
    "issue the notice of hearing (document)": _act_hearing_notice,
    "issue the Board's decision (document)": _act_decision_document,
    "issue a meeting's agenda (document)": _act_agenda,
    "record the decision's filing with the clerk (record)": _act_filing,
    "record the decision's certified mailing (record)": _act_mailing,
    "record the notice of violation's service (record)": _act_service,
    "record the sending of the notice of hearing (record)": _act_hearing_service,
}


class _Fixtures:
    """`f.name`: the fixture `name`, made only when an act asks for it."""

    def __init__(self, request):
        self._request = request

    def __getattr__(self, name):
        return self._request.getfixturevalue(name)


@pytest.fixture
def facts(request):
    return _Fixtures(request)


@pytest.mark.parametrize("name", list(ACTS))
def test_every_binding_act_asks_refuses_unticked_and_is_done_ticked(
    name, facts, client_as
):
    act = ACTS[name](facts)
    client = client_as(act.role)
    with village_day(act.day) if act.day else contextlib.nullcontext():
        _ask_refuse_do(name, act, client)


def _ask_refuse_do(name, act, client):
    box = f"{act.prefix}-confirm" if act.prefix else "confirm"
    page = client.get(act.page).content.decode()
    assert f'name="{box}"' in page, name
    assert f"I confirm: {act.words}" in page, name

    refused = client.post(act.post, act.data, follow=True)
    body = refused.content.decode()
    assert "nothing was done" in body, name
    if act.kept:
        assert act.kept in body, name
    assert not act.done(), name

    ticked = client.post(act.post, {**act.data, box: "on"}, follow=True)
    assert "nothing was done" not in ticked.content.decode(), name
    assert act.done(), name
