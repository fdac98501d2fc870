"""Issue 26: the chronology people read writes its dates in words, never as
ISO dates. The main services' summaries (a deadline set and met, a notice
served, certified mail delivered, an appeal filed, its hearing scheduled) say
"Tuesday, March 10, 2026"; machine formats (CSV, iCal, JSON) keep ISO."""

import datetime as dt
import re

import pytest

from deadlines import services as deadline_services
from deadlines.models import Deadline
from enforcement.models import ServiceRecord
from enforcement.services import mail as mail_svc
from enforcement.services import notices as notice_svc
from kernel.models import CaseEvent

from .conftest import aware, schedule_hearing, village_day

pytestmark = pytest.mark.django_db

ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def _summaries(case) -> list[str]:
    return list(
        CaseEvent.objects.filter(case=case)
        .order_by("at", "id")
        .values_list("summary", flat=True)
    )


def test_the_main_services_write_their_chronology_without_iso_dates(
    issued_notice, appeal, clerk_user, smo_user
):
    case = issued_notice.case
    with village_day(dt.date(2026, 3, 20)):
        record = notice_svc.notice_record_service(
            notice=issued_notice,
            actor=smo_user,
            method=ServiceRecord.Method.CERTIFIED,
            served_on=dt.date(2026, 3, 4),
            article_number="9407 1000 0000 0000 0042",
        )
        mail_svc.mail_record_outcome(
            record=record, actor=smo_user, outcome="delivered", on=dt.date(2026, 3, 6)
        )
    schedule_hearing(appeal, clerk_user, aware(2026, 3, 24), location="Village Hall")
    remediation = Deadline.objects.filter(
        case=case, rule_id="R-NOV-2", status=Deadline.Status.OPEN
    ).first()
    assert remediation is not None
    deadline_services.meet_deadline(
        remediation, on=dt.date(2026, 3, 12), actor=smo_user
    )

    summaries = _summaries(case)
    text = "\n".join(summaries)
    assert not [s for s in summaries if ISO_DATE.search(s)], text
    for said in (
        "Deadline set: Appeal to the Board of Trustees, due Wednesday, March 18, 2026",
        "Deadline set: Remediation deadline in a notice of violation, due Friday, "
        "March 13, 2026",
        f"Appeal {appeal.pk} of notice {issued_notice.pk} filed by Pat Owner on "
        "Tuesday, March 10, 2026",
        "Deadline met: Appeal to the Board of Trustees on Tuesday, March 10, 2026, "
        "due Wednesday, March 18, 2026",
        "Deadline set: Board of Trustees hearing on the appeal, due Thursday, "
        "April 9, 2026",
        f"Notice of violation {issued_notice.pk} served: Certified mail on "
        "Wednesday, March 4, 2026, article 94071000000000000042",
        f"Notice NOV-{issued_notice.pk}: certified mail delivered on Friday, "
        "March 6, 2026",
        "Deadline met: Remediation deadline in a notice of violation on Thursday, "
        "March 12, 2026, due Friday, March 13, 2026",
    ):
        assert said in summaries, (said, text)
    # The hearing scheduled: its day and time as staff pages write them.
    scheduled = CaseEvent.objects.filter(
        case=case, summary__startswith=f"Appeal {appeal.pk}: Schedule the hearing"
    ).get()
    assert scheduled.detail == "Hearing Tue, Mar 24, 2026, 7:00 PM, Village Hall"
