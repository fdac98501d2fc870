"""Appeals and the correction clock (issue 19; §§ 132-14, 132-15 A): a modified
decision, the hearing date, and the decision letter's facts — through the
services and the pages as users would, asserting the dates and the words a
person reads (the letter's PDF text through pypdf).

The fixtures' appeal: NOV issued Tue 2026-03-03 (abatement in 10 days), appeal
filed Tue 2026-03-10, hearing Tue 2026-03-24 19:00 (scheduled on the filing day)."""

import datetime as dt

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from deadlines.models import Deadline
from documents.contracts import validate_facts
from documents.services import document_render, issue_for
from enforcement.document_kinds import EnforcementDocument
from enforcement.documents import appeal_decision
from enforcement.models import (
    Appeal,
    AppealStatus,
    Decision,
    NoticeOfViolation,
    NoticeStatus,
    RequirementKind,
)
from enforcement.services import appeals as svc
from enforcement.services import notices as notice_svc
from kernel.models import CaseEvent
from kernel.workflow import Refused
from tests.documents.conftest import pdf_text
from tests.steps import confirmed
from tests.visible import visible_text

from .conftest import aware, schedule_hearing, village_day

pytestmark = pytest.mark.django_db

MODIFIED = "The abatement is limited to the catch basin in front of no. 12."
DECIDED = dt.date(2026, 3, 26)  # a Thursday


@pytest.fixture(autouse=True)
def private_media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


def decide(appeal, clerk, decision, **extra):
    values = {
        "appeal": appeal,
        "actor": clerk,
        "decision": decision,
        "decided_on": DECIDED,
        "resolution": "Resolved by the Board of Trustees.",
    }
    values.update(extra)
    return svc.appeal_decide(**values)


@pytest.fixture
def modified(scheduled_appeal, clerk_user):
    return decide(
        scheduled_appeal, clerk_user, Decision.MODIFIED, modification=MODIFIED
    )


def issue_superseding(appeal, smo, *, issued_on=dt.date(2026, 3, 30)):
    """The SMO carries out the modified decision: a correction of the notice
    appealed, its requirements and days changed as modified, issued."""
    draft = notice_svc.notice_start_correction(notice=appeal.notice, actor=smo)
    notice_svc.notice_update(
        notice=draft,
        actor=smo,
        recipient=draft.recipient,
        violation_date=draft.violation_date,
        findings=draft.findings,
        requirements=[(RequirementKind.ABATEMENT, "Clean the catch basin at no. 12.")],
        remediation_days=20,
    )
    return notice_svc.notice_issue(notice=draft, actor=smo, issued_on=issued_on)


def letter_text(appeal, actor) -> str:
    document = issue_for(
        kind=EnforcementDocument.APPEAL_DECISION, source=appeal, actor=actor
    )
    document = document_render(document_id=document.pk)
    return pdf_text(document.pdf.read())


# --- 1. the modified decision ------------------------------------------------


def test_a_modified_decision_must_say_what_the_board_modified(
    scheduled_appeal, clerk_user
):
    with pytest.raises(Refused, match="say what the Board modified"):
        decide(scheduled_appeal, clerk_user, Decision.MODIFIED, modification=" ")
    assert Appeal.objects.get(pk=scheduled_appeal.pk).decision == ""


def test_an_upheld_decision_does_not_record_a_modification(
    scheduled_appeal, clerk_user
):
    with pytest.raises(Refused, match="only a modified decision records"):
        decide(scheduled_appeal, clerk_user, Decision.UPHELD, modification=MODIFIED)


def test_a_modified_decision_opens_no_correction_clock_on_the_notice_appealed(
    modified, smo_user
):
    notice = modified.notice
    assert modified.modification == MODIFIED
    assert not notice.deadlines().filter(rule_id="R-COR-1").exists()
    remediation = notice.deadlines().get(rule_id="R-NOV-2")
    assert remediation.status == Deadline.Status.ENDED
    assert "The Board modified the notice on appeal" in remediation.waived_reason
    assert notice.compliance_deadline() is None
    assert CaseEvent.objects.filter(
        summary__startswith="Modified by the Board on Thursday, March 26, 2026: no five-business-day"
    ).exists()
    # The original requirements no longer stand: not "not complied" with them.
    with pytest.raises(Refused, match="the Board modified this notice on appeal"):
        notice_svc.notice_record_noncompliance(notice=notice, actor=smo_user)


def test_the_superseding_notice_names_the_decision_and_its_own_dates_govern(
    modified, smo_user
):
    superseding = issue_superseding(modified, smo_user)
    assert (
        f"This notice supersedes notice of violation NOV-{modified.notice_id} as "
        "modified by the decision of the Board of Trustees of March 26, 2026 on "
        f"appeal {modified.pk}. What the Board modified: {MODIFIED}"
    ) in superseding.findings
    original = NoticeOfViolation.objects.get(pk=modified.notice_id)
    assert original.status == NoticeStatus.SUPERSEDED
    assert superseding.carries_out_board_modification() == modified
    # Its own terms: 20 days from Mon 2026-03-30 is Sun 2026-04-19, moved to
    # Mon 2026-04-20 (GCL § 25-a) — not five business days after the decision.
    due = superseding.compliance_deadline()
    assert due.rule_id == "R-NOV-2" and due.due_date == dt.date(2026, 4, 20)
    assert not superseding.deadlines().filter(rule_id="R-COR-1").exists()


def test_the_pages_say_which_notices_requirements_stand(modified, smo_user, client_as):
    client = client_as("smo")
    page = client.get(reverse("enforcement:notice_detail", args=[modified.notice_id]))
    html = page.content.decode()
    assert "Modified by the Board on Thu, Mar 26, 2026:" in visible_text(html)
    assert "those of the notice the SMO issues to supersede" in html
    assert MODIFIED in html
    assert "No five-business-day correction clock runs" in html

    superseding = issue_superseding(modified, smo_user)
    original = client.get(
        reverse("enforcement:notice_detail", args=[modified.notice_id])
    ).content.decode()
    assert "the requirements that stand are those of <a" in original
    assert f"NOV-{superseding.pk}, issued Mon, Mar 30, 2026" in visible_text(original)
    new = client.get(
        reverse("enforcement:notice_detail", args=[superseding.pk])
    ).content.decode()
    assert "Issued to carry out the decision of the Board of Trustees of " in new
    assert "Thu, Mar 26, 2026" in visible_text(new) and MODIFIED in new
    assert "due Mon, Apr 20, 2026 R-NOV-2" in visible_text(new)
    appeal_page = client_as("clerk").get(modified.get_absolute_url()).content.decode()
    assert f"NOV-{superseding.pk}, issued Mon, Mar 30, 2026" in visible_text(
        appeal_page
    )
    panel = (
        client_as("smo")
        .get(reverse("enforcement:case_enforcement", args=[modified.notice.case_id]))
        .content.decode()
    )
    panel = visible_text(panel)
    assert "Modified by the Board on Thu, Mar 26, 2026:" in panel
    assert f"NOV-{superseding.pk}, issued Mon, Mar 30, 2026" in panel
    assert "by Mon, Apr 20, 2026" in panel  # the superseding notice's deadline


def test_the_decision_form_records_what_was_modified(scheduled_appeal, client_as):
    client = client_as("clerk")
    url = reverse("enforcement:appeal_step", args=[scheduled_appeal.pk, "decide"])
    form = {
        "decide-decision": "modified",
        "decide-decided_on": "2026-03-26",
        "decide-resolution": "The Board modifies the notice.",
        **confirmed("decide"),
    }
    refused = client.post(url, form)
    assert refused.status_code == 200
    assert "say what the Board modified" in refused.content.decode()
    assert "What the Board modified" in refused.content.decode()  # the field
    done = client.post(url, {**form, "decide-modification": MODIFIED}, follow=True)
    body = done.content.decode()
    assert "The SMO issues a notice superseding" in body
    appeal = Appeal.objects.get(pk=scheduled_appeal.pk)
    assert appeal.status == AppealStatus.DECIDED and appeal.modification == MODIFIED


def test_the_notice_appealed_is_not_appealed_again_but_the_superseding_one_may_be(
    modified, smo_user
):
    """§ 132-14: "any person receiving a notice of violation may appeal ... within
    15 days of its issuance": the notice decided on is not offered a second
    appeal; the superseding notice is a notice of violation of its own."""
    assert not NoticeOfViolation.objects.get(pk=modified.notice_id).can_be_appealed()
    superseding = issue_superseding(modified, smo_user)
    assert superseding.can_be_appealed()


# --- 2. hearing dates -----------------------------------------------------------


def test_a_hearing_cannot_be_scheduled_on_a_day_that_has_passed(appeal, clerk_user):
    yesterday = timezone.localdate() - dt.timedelta(days=1)
    when = timezone.make_aware(dt.datetime.combine(yesterday, dt.time(19)))
    with pytest.raises(Refused, match="day that has passed"):
        svc.appeal_schedule_hearing(appeal=appeal, actor=clerk_user, hearing_at=when)
    assert Appeal.objects.get(pk=appeal.pk).hearing_at is None


def test_a_hearing_today_or_later_is_scheduled(appeal, clerk_user):
    today = timezone.make_aware(dt.datetime.combine(timezone.localdate(), dt.time(9)))
    scheduled, _ = svc.appeal_schedule_hearing(
        appeal=appeal, actor=clerk_user, hearing_at=today
    )
    assert scheduled.status == AppealStatus.HEARING_SCHEDULED


def test_a_hearing_cannot_be_moved_into_the_past(scheduled_appeal, client_as):
    """Moved on Fri 2026-03-20 (village time) to Thu 2026-03-19: refused, the
    hearing of Tue 2026-03-24 stands; to Wed 2026-03-25: moved."""
    client = client_as("clerk")
    url = reverse(
        "enforcement:appeal_step", args=[scheduled_appeal.pk, "schedule_hearing"]
    )
    with village_day(dt.date(2026, 3, 20)):
        refused = client.post(url, {"schedule_hearing-hearing_at": "2026-03-19T19:00"})
        assert refused.status_code == 200
        assert "a hearing cannot be scheduled or moved to a day that has passed" in (
            refused.content.decode()
        )
        assert Appeal.objects.get(pk=scheduled_appeal.pk).hearing_at == aware(
            2026, 3, 24
        )
        moved = client.post(
            url, {"schedule_hearing-hearing_at": "2026-03-25T19:00"}, follow=True
        )
    assert "Hearing scheduled for Wed, Mar 25, 2026, 7:00 PM." in visible_text(moved)


def test_a_decision_is_still_not_dated_in_the_future_nor_before_the_hearing(
    scheduled_appeal, clerk_user
):
    with pytest.raises(ValidationError, match="future"):
        decide(
            scheduled_appeal,
            clerk_user,
            Decision.UPHELD,
            decided_on=timezone.localdate() + dt.timedelta(days=1),
        )
    with pytest.raises(Refused, match="before the hearing"):
        decide(
            scheduled_appeal,
            clerk_user,
            Decision.UPHELD,
            decided_on=dt.date(2026, 3, 23),
        )


def test_a_hearing_is_recorded_on_the_day_it_was_scheduled(appeal, clerk_user):
    """The fixtures' way of recording the past: the clerk schedules on the
    filing day; the same hearing scheduled today would be refused."""
    scheduled, _ = schedule_hearing(appeal, clerk_user, aware(2026, 3, 24))
    assert scheduled.hearing_at == aware(2026, 3, 24)


# --- 3. the decision letter states the facts as recorded -------------------------


def test_an_upheld_letter_issued_before_filing_and_mailing_says_so_and_gives_the_last_day(
    scheduled_appeal, clerk_user
):
    upheld = decide(scheduled_appeal, clerk_user, Decision.UPHELD)
    text = letter_text(upheld, clerk_user)
    assert (
        "The Board of Trustees upheld the Stormwater Management Officer's "
        "determination."
    ) in text
    assert "This decision is to be filed in the office of the municipal clerk." in text
    assert "A copy is to be mailed to the discharger by certified mail." in text
    assert "was filed" not in text and "was mailed" not in text
    # Five business days after Thu 2026-03-26: Thursday 2026-04-02 (R-COR-1),
    # as the notice's deadline stores it; the engine's explanation is the
    # office's, not the letter's.
    assert "You must correct the violation by Thursday, April 2, 2026." in text
    assert "5 business days after" not in text


def test_the_letter_states_the_filing_and_mailing_once_recorded(
    scheduled_appeal, clerk_user
):
    upheld = decide(scheduled_appeal, clerk_user, Decision.UPHELD)
    upheld, _ = svc.appeal_record_clerk_filing(
        appeal=upheld, actor=clerk_user, filed_on=dt.date(2026, 3, 27)
    )
    text = letter_text(upheld, clerk_user)
    assert (
        "was filed in the office of the municipal clerk on Friday, March 27, 2026."
    ) in text
    assert "A copy is to be mailed to the discharger by certified mail." in text
    upheld, _ = svc.appeal_record_mailing(
        appeal=upheld,
        actor=clerk_user,
        mailed_on=dt.date(2026, 3, 30),
        article_number="9407 1000 0000 0000 0009",
    )
    text = letter_text(upheld, clerk_user)
    assert (
        "A copy was mailed to the discharger by certified mail on Monday, March 30, "
        "2026 (article 94071000000000000009)."
    ) in text


def test_a_modified_letter_never_says_upholding_and_names_the_notice_that_stands(
    modified, clerk_user, smo_user
):
    text = letter_text(modified, clerk_user)
    assert (
        "The Board of Trustees modified the Stormwater Management Officer's "
        "determination."
    ) in text
    assert MODIFIED in text
    assert "will issue a notice of violation superseding notice no. " in text
    assert "uphold" not in text.lower()
    assert "last day to correct" not in text
    superseding = issue_superseding(modified, smo_user)
    text = letter_text(Appeal.objects.get(pk=modified.pk), clerk_user)
    assert (
        f"The requirements that stand are those of notice of violation no. "
        f"NOV-{superseding.pk} of Monday, March 30, 2026"
    ) in text
    assert "uphold" not in text.lower()


def test_a_reversed_letter_gives_no_day_to_correct(scheduled_appeal, clerk_user):
    reversed_ = decide(scheduled_appeal, clerk_user, Decision.REVERSED)
    text = letter_text(reversed_, clerk_user)
    assert (
        "The Board of Trustees reversed the Stormwater Management Officer's "
        "determination."
    ) in text
    assert "correct" not in text.lower().replace("corrects", "")


def test_the_letters_facts_refuse_what_the_record_does_not_say(
    scheduled_appeal, clerk_user
):
    upheld = decide(scheduled_appeal, clerk_user, Decision.UPHELD)
    facts = appeal_decision.appeal_decision_contract(upheld)
    assert facts.correction_due_on == dt.date(2026, 4, 2)
    from dataclasses import replace

    from documents.contracts import FactsInvalid

    for change, words in (
        ({"correction_due_on": DECIDED}, "last day to correct is not after"),
        ({"mailed_on": dt.date(2026, 3, 25)}, "certified mailing is dated before"),
        (
            {"outcome": "modified", "correction_due_on": None},
            "what the Board modified is missing",
        ),
        ({"outcome": "reversed"}, "only for a decision upholding"),
    ):
        with pytest.raises(FactsInvalid, match=words):
            validate_facts(
                EnforcementDocument.APPEAL_DECISION, replace(facts, **change)
            )


def test_the_appeal_page_gives_the_last_day_to_correct_after_an_upheld_decision(
    scheduled_appeal, clerk_user, client_as
):
    upheld = decide(scheduled_appeal, clerk_user, Decision.UPHELD)
    html = client_as("clerk").get(upheld.get_absolute_url()).content.decode()
    assert (
        "Upheld by the Board on Thu, Mar 26, 2026: the last day to "
        f"correct NOV-{upheld.notice_id} is Thu, Apr 2, 2026 (R-COR-1)."
    ) in visible_text(html)
    assert "Modified by the Board" not in html
