"""Issue 25, § 132-14: the Board of Trustees' decision letter, as the person it
is mailed to reads it. There is one appeal per notice, so the letter invites no
appeal to the Board; it states the Board's own duty in the words of § 132-14
(R-APL-3) and what the Board did in a sentence; its dates are written out and
it carries no rule id and no ISO date. Upheld, it gives the day to correct as
the notice's stored R-COR-1 deadline says (read, never computed by the letter).

Decided through the services; the letter issued, rendered and read (its PDF
through pypdf, its HTML as a person sees it)."""

import datetime as dt
import re

import pytest

from deadlines.models import Deadline
from deadlines.services import open_deadline_for
from documents.services import document_render, issue_for
from enforcement.document_kinds import EnforcementDocument
from enforcement.models import Decision
from enforcement.services import appeals as svc
from tests.documents.conftest import pdf_text
from tests.visible import visible_text

pytestmark = pytest.mark.django_db

RULE_ID = re.compile(r"R-[A-Z]{3}-\d")
ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
DECIDED = dt.date(2026, 3, 26)  # a Thursday, two days after the hearing
BOARDS_DUTY = (
    "Within five days of making its decision, the Board of Trustees shall file "
    "its decision in the office of the municipal clerk and mail a copy of its "
    "decision by certified mail to the discharger"
)
OUTCOMES = {
    Decision.UPHELD: "upheld",
    Decision.MODIFIED: "modified",
    Decision.REVERSED: "reversed",
}


def decided(appeal, clerk, decision):
    extra = {}
    if decision == Decision.MODIFIED:
        extra["modification"] = "The abatement is limited to the catch basin."
    return svc.appeal_decide(
        appeal=appeal,
        actor=clerk,
        decision=decision,
        decided_on=DECIDED,
        resolution="The Board heard the appellant and the Stormwater Management "
        "Officer.",
        **extra,
    )


def letter(appeal, clerk) -> tuple[str, str]:
    """(the PDF's text, the HTML's visible text) of the issued letter."""
    document = issue_for(
        kind=EnforcementDocument.APPEAL_DECISION, source=appeal, actor=clerk
    )
    document = document_render(document_id=document.pk)
    return pdf_text(document.pdf.read()), visible_text(document.html)


@pytest.mark.parametrize("decision", list(OUTCOMES))
def test_the_decision_letter_reads_as_a_letter_with_no_rule_ids_or_iso_dates(
    scheduled_appeal, clerk_user, decision
):
    appeal = decided(scheduled_appeal, clerk_user, decision)
    for text in letter(appeal, clerk_user):
        assert not RULE_ID.search(text), RULE_ID.search(text)
        assert not ISO_DATE.search(text), ISO_DATE.search(text)
        assert (
            f"The Board of Trustees {OUTCOMES[decision]} the Stormwater Management "
            "Officer's determination."
        ) in text
        assert "The determination of the SMO" not in text
        # One appeal per notice (§ 132-14): the decision invites none.
        assert "appeal to the Board" not in text
        assert f"{BOARDS_DUTY} (Village Code § 132-14)." in text
        assert "Decided Thursday, March 26, 2026" in text
        assert "Hearing held Tuesday, March 24, 2026" in text
        if decision == Decision.UPHELD:
            assert "You must correct the violation by " in text
        else:
            assert "You must correct" not in text


def test_an_upheld_letter_gives_the_day_the_stored_deadline_gives(
    scheduled_appeal, clerk_user
):
    appeal = decided(scheduled_appeal, clerk_user, Decision.UPHELD)
    stored = open_deadline_for(appeal.notice, "R-COR-1")
    assert stored is not None
    # Whatever the deadline engine stored is what the letter prints: move the
    # stored day and the letter follows.
    Deadline.objects.filter(pk=stored.pk).update(due_date=dt.date(2026, 4, 13))
    pdf, html = letter(appeal, clerk_user)
    for text in (pdf, html):
        assert "You must correct the violation by Monday, April 13, 2026." in text
