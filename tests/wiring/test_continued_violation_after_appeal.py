"""Issue 25, § 132-13 B and § 132-14: from which date the weeks of continued
violation count once the notice is appealed, and the weeks of the appeal.

"Each week's continued violation shall constitute a separate additional
violation" (R-PEN-4) counts only from a date the respondent was given in
writing: the notice's own compliance date, or, after a decision of the Board
upholding the notice, the correction date its decision letter gives (R-COR-1,
§ 132-15 A: five business days after the decision). The days an appeal of the
notice was pending (from its filing to its decision or withdrawal, or still
pending now) never count.

The notice of the fixtures (tests.enforcement.conftest): issued Tuesday
2026-03-03; cease and desist (2) and abatement (3) in 10 days, due Friday
2026-03-13 (R-NOV-2); last day to appeal Wednesday 2026-03-18 (R-APL-1); an
appeal filed Tuesday 2026-03-10, hearing Tuesday 2026-03-24. Built through the
services and read on the notice's page and in the letters as a person reads
them. Dates counted by hand in the comments."""

import datetime as dt

import pytest
from django.urls import reverse

from deadlines.services import deadlines_for
from documents.selectors import documents_of
from documents.services import document_render, issue_for
from enforcement.document_kinds import EnforcementDocument
from enforcement.models import Decision
from enforcement.selectors import continued_violation_for
from enforcement.services import appeals as appeal_svc
from enforcement.services import notices as notice_svc
from kernel.humanize import human_long_date
from tests.documents.conftest import pdf_text
from tests.enforcement.conftest import aware, schedule_hearing, village_day
from tests.visible import visible_text

pytestmark = pytest.mark.django_db

AS_OF = dt.date(2026, 5, 5)  # a Tuesday, the day the count is read
REMEDIATION_DUE = dt.date(2026, 3, 13)
DECIDED = dt.date(2026, 3, 31)  # three weeks after the filing on 03-10
# R-COR-1, five business days after Tue 03-31: Wed 04-01, Thu 04-02, Fri 04-03
# (Good Friday is no New York public holiday), Mon 04-06, Tue 04-07.
CORRECTION_DUE = dt.date(2026, 4, 7)

NOTICE_DATE = "the last date the notice requires compliance by"
BOARD_DATE = "the correction date in the Board's decision"


def _upheld(notice, appeal, clerk, smo):
    appeal, _ = schedule_hearing(appeal, clerk, aware(2026, 3, 24), location="Hall")
    return appeal_svc.appeal_decide(
        appeal=appeal,
        actor=clerk,
        decision=Decision.UPHELD,
        decided_on=DECIDED,
        resolution="The Board upholds the notice.",
    )


def _withdrawn(notice, appeal, clerk, smo):
    with village_day(DECIDED):  # withdrawn on Tue 03-31
        return appeal_svc.appeal_withdraw(
            appeal=appeal, actor=clerk, reason="The owner cleaned the basin."
        )


def _upheld_then_complied_late(notice, appeal, clerk, smo):
    _upheld(notice, appeal, clerk, smo)
    notice.refresh_from_db()
    notice_svc.notice_record_compliance(
        notice=notice, actor=smo, complied_on=dt.date(2026, 4, 20)
    )


FILED = dt.date(2026, 3, 10)
FILED_LATE = dt.date(2026, 3, 30)  # after the last day to appeal, 03-18

# (appeal filed on, what happened next, start, basis, weeks, what the page says)
ROWS = [
    pytest.param(
        # § 132-13 B: the notice's own compliance date, R-NOV-2 due Fri 03-13;
        # 53 days to Tue 05-05: 7 whole weeks, 03-20 … 05-01.
        None,
        None,
        REMEDIATION_DUE,
        NOTICE_DATE,
        [dt.date(2026, 3, 20) + dt.timedelta(weeks=k) for k in range(7)],
        "Counted from Friday, March 13, 2026, the last date the notice requires "
        "compliance by.",
        id="notice-only",
    ),
    pytest.param(
        # § 132-14 and § 132-15 A: the Board upheld the notice; the decision
        # letter gives the date to correct, Tue 04-07 (R-COR-1), and the weeks
        # count from it (§ 132-13 B): 04-14, 04-21, 04-28, 05-05. Before issue
        # 25 the replaced R-NOV-2 date was dropped and the weeks counted from
        # the date of issue, Tue 03-03: 9 weeks.
        FILED,
        _upheld,
        CORRECTION_DUE,
        BOARD_DATE,
        [dt.date(2026, 4, 14) + dt.timedelta(weeks=k) for k in range(4)],
        "Counted from Tuesday, April 7, 2026, the correction date in the Board's "
        "decision; the 3 weeks the appeal was pending are not counted.",
        id="appealed-and-upheld",
    ),
    pytest.param(
        # § 132-14: the appeal filed Tue 03-10 is pending now; no day from its
        # filing counts (§ 132-13 B), so none after the date of Fri 03-13.
        FILED,
        None,
        REMEDIATION_DUE,
        NOTICE_DATE,
        [],
        "Counted from Friday, March 13, 2026, the last date the notice requires "
        "compliance by; an appeal filed Tuesday, March 10, 2026 is pending: no "
        "week is counted while it is.",
        id="appeal-pending-now",
    ),
    pytest.param(
        # § 132-14: an appeal filed late, Mon 03-30, is pending now; the weeks
        # before it count (03-20, 03-27), none since its filing.
        FILED_LATE,
        None,
        REMEDIATION_DUE,
        NOTICE_DATE,
        [dt.date(2026, 3, 20), dt.date(2026, 3, 27)],
        "Counted from Friday, March 13, 2026, the last date the notice requires "
        "compliance by; an appeal filed Monday, March 30, 2026 is pending: no "
        "week is counted while it is.",
        id="late-appeal-pending-now",
    ),
    pytest.param(
        # § 132-14: the appeal filed Tue 03-10 was withdrawn Tue 03-31; the
        # days it was pending (03-10 … 03-30) still do not count (§ 132-13 B).
        # Counted days from 03-31: the 7th is Mon 04-06, then weekly to 05-04.
        FILED,
        _withdrawn,
        REMEDIATION_DUE,
        NOTICE_DATE,
        [dt.date(2026, 4, 6) + dt.timedelta(weeks=k) for k in range(5)],
        "Counted from Friday, March 13, 2026, the last date the notice requires "
        "compliance by; the 3 weeks the appeal was pending are not counted.",
        id="appeal-withdrawn",
    ),
    pytest.param(
        # § 132-15 A: upheld, and compliance recorded Mon 04-20, after the
        # date to correct: the R-COR-1 row is closed (missed) and still the
        # date the weeks count from; the last day counted is Sun 04-19.
        FILED,
        _upheld_then_complied_late,
        CORRECTION_DUE,
        BOARD_DATE,
        [dt.date(2026, 4, 14)],
        "Counted from Tuesday, April 7, 2026, the correction date in the Board's "
        "decision; the 3 weeks the appeal was pending are not counted.",
        id="upheld-then-complied-late",
    ),
]


@pytest.mark.parametrize(("filed_on", "then", "start", "basis", "weeks", "words"), ROWS)
def test_weeks_count_from_a_date_given_in_writing_and_never_while_appealed(
    issued_notice,
    owner,
    smo_user,
    clerk_user,
    filed_on,
    then,
    start,
    basis,
    weeks,
    words,
):
    notice = issued_notice
    if filed_on is not None:
        appeal = appeal_svc.appeal_file(
            notice=notice,
            actor=clerk_user,
            appellant=owner,
            filed_on=filed_on,
            grounds="The water was rain water.",
        )
        if then is not None:
            then(notice, appeal, clerk_user, smo_user)
    notice.refresh_from_db()
    result = continued_violation_for(notice, as_of=AS_OF)
    assert result.deadline == start
    assert result.basis == basis
    assert list(result.weeks) == weeks
    assert result.counted_from == words


def test_the_correction_date_is_the_stored_row_of_the_decision(
    issued_notice, owner, smo_user, clerk_user
):
    # The date the weeks count from is the R-COR-1 row as stored (its due
    # date), not a count of its own.
    appeal = appeal_svc.appeal_file(
        notice=issued_notice,
        actor=clerk_user,
        appellant=owner,
        filed_on=FILED,
        grounds="The water was rain water.",
    )
    _upheld(issued_notice, appeal, clerk_user, smo_user)
    (row,) = deadlines_for(issued_notice).filter(rule_id="R-COR-1")
    assert row.due_date == CORRECTION_DUE
    assert continued_violation_for(issued_notice, as_of=AS_OF).deadline == (
        row.due_date
    )


def test_the_notice_page_says_from_when_and_leaves_the_appeal_out(
    issued_notice, owner, smo_user, clerk_user, client_as
):
    appeal = appeal_svc.appeal_file(
        notice=issued_notice,
        actor=clerk_user,
        appellant=owner,
        filed_on=FILED,
        grounds="The water was rain water.",
    )
    _upheld(issued_notice, appeal, clerk_user, smo_user)
    client = client_as("smo")
    with village_day(AS_OF):
        page = client.get(reverse("enforcement:notice_detail", args=[issued_notice.pk]))
    text = visible_text(page)
    assert (
        "4 whole weeks of continued violation up to Tuesday, May 5, 2026, each a "
        "separate additional violation; accrued on Tuesday, April 14, 2026; "
        "Tuesday, April 21, 2026; Tuesday, April 28, 2026; Tuesday, May 5, 2026."
    ) in text
    assert (
        "Counted from Tuesday, April 7, 2026, the correction date in the Board's "
        "decision; the 3 weeks the appeal was pending are not counted."
    ) in text
    # Never from the date of issue the upheld decision's clock replaced.
    assert "Counted from Tuesday, March 3, 2026" not in text


def test_the_notice_page_says_no_week_counts_while_the_appeal_is_pending(
    appeal, client_as
):
    with village_day(AS_OF):
        page = client_as("smo").get(
            reverse("enforcement:notice_detail", args=[appeal.notice_id])
        )
    text = visible_text(page)
    assert "No whole week of continued violation up to Tuesday, May 5, 2026." in text
    assert (
        "an appeal filed Tuesday, March 10, 2026 is pending: no week is counted "
        "while it is." in text
    )


def test_the_notice_tells_the_respondent_the_appeal_weeks_do_not_count(
    issued_notice,
):
    # § 132-13 B and § 132-14 as the notice of violation prints them.
    document = documents_of(
        issued_notice, EnforcementDocument.NOTICE_OF_VIOLATION
    ).get()
    text = pdf_text(document_render(document_id=document.pk).pdf.read())
    assert (
        "the weeks of continued violation are counted from Friday, March 13, 2026, "
        "the last date the notice requires compliance by, until the violation is "
        "corrected; each week is a separate additional violation. The weeks while "
        "an appeal of this notice is pending before the Board of Trustees are not "
        "counted. If the Board upholds this notice, the weeks are counted from the "
        "date to correct that its decision gives." in text
    )


def test_the_decision_letter_gives_the_date_the_weeks_count_from(
    issued_notice, owner, smo_user, clerk_user
):
    # § 132-15 A: the decision upholding the notice gives the date to correct in
    # writing; § 132-13 B: the weeks count from it, the appeal's weeks left out.
    appeal = appeal_svc.appeal_file(
        notice=issued_notice,
        actor=clerk_user,
        appellant=owner,
        filed_on=FILED,
        grounds="The water was rain water.",
    )
    decided = _upheld(issued_notice, appeal, clerk_user, smo_user)
    document = issue_for(
        kind=EnforcementDocument.APPEAL_DECISION, source=decided, actor=clerk_user
    )
    text = pdf_text(document_render(document_id=document.pk).pdf.read())
    assert (
        f"You must correct the violation by {human_long_date(CORRECTION_DUE)}." in text
    )
    assert (
        "Each week the violation continues after that day is a separate additional "
        "violation (§ 132-13 B); the weeks while the appeal was pending are not "
        "counted." in text
    )
