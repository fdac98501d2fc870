# ruff: noqa: F811 (the enforcement fixtures, imported for this file at the root)
"""Issue 16: a legally binding step (issue, serve, decide, suspend, terminate,
close) asks for a ticked "I confirm: …" box saying what it does and starts, with
the dates from the deadline engine; a POST without it does nothing, says why and
keeps the user's input; done, the message says what happened in words."""

import pytest
from django.urls import reverse
from django.utils import timezone

from cases.confirmations import BUILDERS, confirm_text
from cases.deadlines.services import compute_due
from cases.humanize import human_date
from cases.models import Case, CaseStatus
from cases.workflow import transitions_of
from enforcement.models import Appeal, NoticeOfViolation
from enforcement.models.notices import NoticeStatus
from tests.cases.factories import CaseFactory
from tests.enforcement.conftest import (  # noqa: F401 (fixtures)
    agent,
    appeal,
    confirmed_case,
    draft_notice,
    issued_notice,
    owner,
    scheduled_appeal,
)
from tests.steps import confirmed

pytestmark = pytest.mark.django_db

BINDING = {
    (NoticeOfViolation, "issue"),
    (NoticeOfViolation, "withdraw"),
    (Appeal, "decide"),
    (Case, "close_unfounded"),
    (Case, "close_exempt"),
    (Case, "resolve"),
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

    from cases.documents.contracts import DocumentKind
    from cases.documents.registry import sample_facts
    from cases.documents.render import render_html, render_pdf
    from cases.documents.services import document_preview

    kind = DocumentKind.NOTICE_OF_VIOLATION
    preview = document_preview(kind, sample_facts(kind))
    issued = render_html(kind, sample_facts(kind))
    assert 'data-testid="draft-watermark"' in preview
    assert "DRAFT" not in issued
    pages = PdfReader(io.BytesIO(render_pdf(preview, pdf_variant=None))).pages
    assert all("DRAFT" in p.extract_text() for p in pages)


def test_the_draft_preview_page_says_draft(client_as):
    from cases.documents.contracts import DocumentKind

    html = (
        client_as("smo")
        .get(
            reverse("documents:sample_preview", args=[DocumentKind.NOTICE_OF_VIOLATION])
        )
        .content.decode()
    )
    assert "DRAFT — a preview, not issued" in html
