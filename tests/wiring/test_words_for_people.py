"""Issue 26: the notice of violation and the Board's decision letter, as the
person they are sent to reads them: no rule id (R-NOV-1), no ISO date, no
"GCL § 20" shorthand; each date explained in a sentence (what was counted,
from which day, and why the last day moved), with the law in words on a quiet
line of its own. The staff explanation stored on each deadline is unchanged.

Issued through the services; the PDF read with pypdf, the HTML as seen."""

import datetime as dt
import re

import pytest

from deadlines.services import open_deadline_for
from documents.selectors import documents_of
from documents.services import document_render, issue_for
from enforcement.document_kinds import EnforcementDocument
from enforcement.models import Decision
from enforcement.services import appeals as appeal_services
from enforcement.services import notices as notice_services
from tests.documents.conftest import pdf_text
from tests.visible import visible_text

pytestmark = pytest.mark.django_db

RULE_ID = re.compile(r"R-[A-Z]{3}-\d")
ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
# Friday 2026-03-06: the 15 days to appeal (R-APL-1) end on Saturday 03-21, and
# the 8 days to remediate (R-NOV-2) on Saturday 03-14; both move to Monday.
ISSUED = dt.date(2026, 3, 6)


@pytest.fixture
def issued_notice(draft_notice, smo_user):
    draft_notice.remediation_days = 8
    draft_notice.save(update_fields=["remediation_days"])
    return notice_services.notice_issue(
        notice=draft_notice, actor=smo_user, issued_on=ISSUED
    )


def nov_texts(notice) -> tuple[str, str]:
    document = documents_of(notice, EnforcementDocument.NOTICE_OF_VIOLATION).get()
    document = document_render(document_id=document.pk)
    return pdf_text(document.pdf.read()), visible_text(document.html)


def assert_for_people(text: str) -> None:
    assert not RULE_ID.search(text), RULE_ID.search(text)
    assert not ISO_DATE.search(text), ISO_DATE.search(text)
    assert "GCL" not in text


def test_the_notice_explains_its_dates_in_words_and_the_law_on_a_quiet_line(
    issued_notice,
):
    for text in nov_texts(issued_notice):
        assert_for_people(text)
        assert (
            "Counted 15 days from the notice date, Friday, March 6, 2026; the last "
            "day fell on a weekend, so it moves to Monday, March 23, 2026."
        ) in text
        assert (
            "Counted 8 days from the notice date, Friday, March 6, 2026; the last "
            "day fell on a weekend, so it moves to Monday, March 16, 2026."
        ) in text
        assert "General Construction Law sections 20 and 25-a." in text
        assert "Village Code section 132-14" in text
    # The office's explanation stored on the deadline stays the office's.
    stored = open_deadline_for(issued_notice, "R-APL-1")
    assert (
        "GCL § 25-a" in stored.explanation
        and "Monday, March 23, 2026" in stored.explanation
    )


def test_the_decision_letter_has_no_rule_id_iso_date_or_shorthand(
    issued_notice, clerk_user, owner
):
    appeal = appeal_services.appeal_file(
        notice=issued_notice,
        actor=clerk_user,
        appellant=owner,
        filed_on=dt.date(2026, 3, 10),
        grounds="The water was rain water.",
    )
    from tests.enforcement.conftest import aware, schedule_hearing

    appeal, _ = schedule_hearing(appeal, clerk_user, aware(2026, 3, 24))
    appeal = appeal_services.appeal_decide(
        appeal=appeal,
        actor=clerk_user,
        decision=Decision.UPHELD,
        decided_on=dt.date(2026, 3, 26),
        resolution="Upheld.",
    )
    document = issue_for(
        kind=EnforcementDocument.APPEAL_DECISION, source=appeal, actor=clerk_user
    )
    document = document_render(document_id=document.pk)
    for text in (pdf_text(document.pdf.read()), visible_text(document.html)):
        assert_for_people(text)
