"""Issue 19, § 132-13 A and B: what the notice of violation prints and how its
weeks of continued violation are counted.

- The notice prints the date of the violation and, for every requirement that
  has one, its compliance date with the deadline engine's explanation (R-NOV-2
  for abatement/restoration, R-NOV-1 for elimination, monitoring and BMPs);
  cease and desist takes effect on the date of the notice.
- "Each week's continued violation shall constitute a separate additional
  violation" (R-PEN-4) counts from the date the notice requires compliance (the
  last of its dates), or the date of the notice when it sets none; never from
  the last day to appeal; it stops at the recorded compliance.

Built through the services and the pages; the letter is read as a person reads
it, in the PDF's text. Expected dates are counted by hand (comments)."""

import datetime as dt

import pytest
from django.urls import reverse

from deadlines.services import open_deadline_for
from documents.selectors import documents_of
from documents.services import document_render
from enforcement.document_kinds import EnforcementDocument
from enforcement.documents.notice import Requirement
from enforcement.models import NoticeRequirement, RequirementKind
from enforcement.selectors import continued_violation_for
from enforcement.services import notices as svc
from kernel.humanize import human_date
from tests.documents.conftest import pdf_text, squash
from tests.enforcement.conftest import FINE, draft
from tests.steps import confirmed
from tests.visible import visible_text

pytestmark = pytest.mark.django_db

ISSUED = dt.date(2026, 3, 3)  # a Tuesday
# R-NOV-2, 10 days: Wed 03-04 is day 1 … Fri 03-13 is day 10 (not rolled).
REMEDIATION_DUE = dt.date(2026, 3, 13)
# R-APL-1, 15 days: Wed 2026-03-18, a date the weekly count must never use.
APPEAL_DUE = dt.date(2026, 3, 18)


def notice_text(notice) -> str:
    document = documents_of(notice, EnforcementDocument.NOTICE_OF_VIOLATION).get()
    return pdf_text(document_render(document_id=document.pk).pdf.read())


def issue(notice, smo_user, on=ISSUED):
    return svc.notice_issue(notice=notice, actor=smo_user, issued_on=on)


@pytest.fixture
def full_notice(confirmed_case, smo_user):
    """Every kind of requirement; (1) in 20 days, (4) in 45, (3) in 10."""
    notice = draft(
        confirmed_case,
        smo_user,
        requirements=[
            (RequirementKind.ELIMINATION, "Cap the laundry drain at the lot line."),
            (RequirementKind.CEASE_DESIST, "Stop pumping pool water."),
            (RequirementKind.ABATEMENT, "Clean the catch basin."),
            (RequirementKind.MONITORING, "Sample the outfall weekly and report."),
            (RequirementKind.FINE, "Pay the fine to the Village Clerk."),
        ],
        remediation_days=10,
        proposed_fine=FINE,
        compliance_days={
            RequirementKind.ELIMINATION: 20,
            RequirementKind.MONITORING: 45,
        },
    )
    return issue(notice, smo_user)


# --- the notice prints its dates ---------------------------------------------


def test_the_notice_prints_the_date_of_the_violation(issued_notice):
    # violation_date 2026-03-02, a Monday (tests.enforcement.conftest.draft)
    text = notice_text(issued_notice)
    assert "Date of the violation Monday, March 2, 2026" in text


def test_the_notice_prints_a_compliance_date_and_its_explanation_per_requirement(
    full_notice,
):
    text = notice_text(full_notice)
    # (1) 20 days: Wed 03-04 is day 1 … Mon 03-23 is day 20.
    eliminate = open_deadline_for(full_notice, "R-NOV-1", RequirementKind.ELIMINATION)
    assert eliminate.due_date == dt.date(2026, 3, 23)
    assert "Comply with this requirement by Monday, March 23, 2026." in text
    assert squash(eliminate.people_explanation) in text
    # (4) 45 days: 28 days to Tue 03-31, 17 more to Fri 04-17.
    monitor = open_deadline_for(full_notice, "R-NOV-1", RequirementKind.MONITORING)
    assert monitor.due_date == dt.date(2026, 4, 17)
    assert "Comply with this requirement by Friday, April 17, 2026." in text
    assert squash(monitor.people_explanation) in text
    # (3) the remediation deadline and how it was counted (R-NOV-2).
    remediation = open_deadline_for(full_notice, "R-NOV-2")
    assert remediation.due_date == REMEDIATION_DUE
    assert "must be completed by Friday, March 13, 2026" in text
    assert squash(remediation.people_explanation) in text
    # (2) cease and desist: from the date of the notice.
    assert (
        "This order takes effect on the date of this notice, Tuesday, March 3, 2026."
        in text
    )
    # Each requirement's date sits in its own requirement, in order.
    assert (
        text.index("March 23, 2026")
        < text.index("takes effect on the date of this notice")
        < text.index("March 13, 2026")
        < text.index("April 17, 2026")
    )


def test_the_notice_says_from_when_weeks_of_continued_violation_count(full_notice):
    # The last date the notice requires compliance by: (4), Fri 2026-04-17.
    text = notice_text(full_notice)
    assert (
        "the weeks of continued violation are counted from Friday, April 17, 2026, "
        "the last date the notice requires compliance by" in text
    )


def test_a_cease_and_desist_notice_counts_continued_weeks_from_its_date(
    confirmed_case, smo_user
):
    notice = draft(
        confirmed_case,
        smo_user,
        requirements=[(RequirementKind.CEASE_DESIST, "Stop pumping pool water.")],
        remediation_days=None,
    )
    text = notice_text(issue(notice, smo_user))
    assert "Comply with this requirement by" not in text
    assert (
        "counted from Tuesday, March 3, 2026, the date of the notice, which sets "
        "no later date for compliance" in text
    )
    assert "March 18, 2026, the" not in text  # not from the last day to appeal


def test_a_draft_preview_prints_the_dates_an_issue_today_would_set(
    confirmed_case, smo_user
):
    from enforcement.documents.notice import notice_contract

    notice = draft(
        confirmed_case,
        smo_user,
        requirements=[(RequirementKind.BMPS, "Cover the salt pile.")],
        remediation_days=None,
        compliance_days={RequirementKind.BMPS: 30},
    )
    (requirement,) = notice_contract(notice).requirements
    assert requirement.comply_by is not None
    # In the person's words (issue 26): no rule id.
    assert "Counted 30 days from the notice date" in requirement.comply_by_explanation
    assert "R-NOV-1" not in requirement.comply_by_explanation


# --- the form and its validation ---------------------------------------------


def _form(**changes):
    data = {
        "recipient": "",
        "violation_date": "2026-03-02",
        "findings": "Laundry water to the storm sewer.",
        "req_elimination": "on",
        "particulars_elimination": "Cap the laundry drain.",
        "days_elimination": "20",
    }
    data.update(changes)
    return data


def test_the_notice_form_records_days_for_a_requirement_and_issue_prints_them(
    confirmed_case, owner, client_as
):
    client = client_as("smo")
    response = client.post(
        reverse("enforcement:notice_create", args=[confirmed_case.pk]),
        _form(recipient=owner.pk),
    )
    assert response.status_code == 302
    notice = confirmed_case.notices.get()
    assert notice.requirements.get().compliance_days == 20
    page = client.post(
        reverse("enforcement:notice_step", args=[notice.pk, "issue"]),
        confirmed("issue"),
        follow=True,
    )
    assert page.status_code == 200
    stored = open_deadline_for(notice, "R-NOV-1", RequirementKind.ELIMINATION)
    due = stored.due_date
    assert (stored.event_date + dt.timedelta(days=20)) <= due  # rolled at most
    text = notice_text(notice)
    assert f"Comply with this requirement by {due:%A, %B} {due.day}, {due:%Y}." in text
    assert squash(stored.people_explanation) in text
    # The notice's page names the days and the stored date with its working.
    detail = client.get(reverse("enforcement:notice_detail", args=[notice.pk]))
    html = detail.content.decode()
    assert "To comply within 20 days of issuance (R-NOV-1)." in html
    assert f"due {human_date(due)}" in visible_text(html)


def test_days_for_a_requirement_not_chosen_are_refused_on_the_form(
    confirmed_case, owner, client_as
):
    client = client_as("smo")
    response = client.post(
        reverse("enforcement:notice_create", args=[confirmed_case.pk]),
        _form(
            recipient=owner.pk,
            req_monitoring="",
            days_monitoring="30",
        ),
    )
    assert response.status_code == 200
    assert "Choose this requirement, or leave its days empty." in (
        response.content.decode()
    )
    assert not confirmed_case.notices.exists()


@pytest.mark.parametrize(
    ("kind", "days", "message"),
    [
        (RequirementKind.CEASE_DESIST, 5, "takes no compliance date"),
        (RequirementKind.FINE, 5, "takes no compliance date"),
        (RequirementKind.ABATEMENT, 5, "remediation deadline"),
        (RequirementKind.MONITORING, 5, "goes with the requirement"),
        (RequirementKind.ELIMINATION, 0, "at least 1"),
        (RequirementKind.ELIMINATION, 366, "At most 365"),
    ],
)
def test_the_service_refuses_days_where_the_notice_cannot_set_them(
    confirmed_case, smo_user, kind, days, message
):
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError, match=message):
        draft(
            confirmed_case,
            smo_user,
            requirements=[
                (RequirementKind.ELIMINATION, "Cap the drain."),
                (RequirementKind.CEASE_DESIST, "Stop."),
                (RequirementKind.ABATEMENT, "Clean the basin."),
                (RequirementKind.FINE, "Pay."),
            ],
            proposed_fine=FINE,
            compliance_days={kind: days},
        )
    assert not NoticeRequirement.objects.exists()


def test_a_correction_keeps_each_requirements_days(full_notice, smo_user):
    correction = svc.notice_start_correction(notice=full_notice, actor=smo_user)
    days = dict(correction.requirements.values_list("kind", "compliance_days"))
    assert days[RequirementKind.ELIMINATION] == 20
    assert days[RequirementKind.MONITORING] == 45
    assert days[RequirementKind.CEASE_DESIST] is None


def test_compliance_meets_every_requirements_deadline(full_notice, smo_user):
    svc.notice_record_compliance(
        notice=full_notice, actor=smo_user, complied_on=dt.date(2026, 3, 20)
    )
    statuses = dict(
        full_notice.deadlines()
        .filter(rule_id__in=["R-NOV-1", "R-NOV-2"])
        .values_list("purpose", "status")
    )
    # (1) due 03-23 and (4) due 04-17 met; (3) due 03-13 met late.
    assert statuses == {
        RequirementKind.ELIMINATION: "met",
        RequirementKind.MONITORING: "met",
        "": "missed",
    }


# --- the weeks of continued violation (R-PEN-4) -----------------------------


@pytest.mark.parametrize(
    ("days_after", "weeks"),
    [(6, 0), (7, 1), (13, 1), (14, 2)],
)
def test_weeks_count_from_the_remediation_deadline_at_the_week_boundaries(
    issued_notice, days_after, weeks
):
    # R-NOV-2 due Fri 2026-03-13: a week of violation is 03-14 … 03-20.
    as_of = REMEDIATION_DUE + dt.timedelta(days=days_after)
    result = continued_violation_for(issued_notice, as_of=as_of)
    assert result.deadline == REMEDIATION_DUE
    assert result.count == weeks


@pytest.mark.parametrize(
    ("complied_on", "weeks"),
    [
        (dt.date(2026, 3, 10), 0),  # before the deadline
        (dt.date(2026, 3, 20), 0),  # day 7: the week was not whole
        (dt.date(2026, 3, 21), 1),  # day 8: 03-14 … 03-20 in violation
        (dt.date(2026, 4, 1), 2),  # 03-20 and 03-27
    ],
)
def test_the_count_stops_at_the_recorded_compliance(
    issued_notice, smo_user, complied_on, weeks
):
    notice = svc.notice_record_compliance(
        notice=issued_notice, actor=smo_user, complied_on=complied_on
    )
    result = continued_violation_for(notice, as_of=dt.date(2026, 11, 1))
    assert result.count == weeks
    assert result.as_of == complied_on - dt.timedelta(days=1)


@pytest.mark.parametrize(("days_after", "weeks"), [(6, 0), (7, 1), (13, 1), (14, 2)])
def test_cease_and_desist_alone_counts_from_the_date_of_the_notice(
    confirmed_case, smo_user, days_after, weeks
):
    notice = issue(
        draft(
            confirmed_case,
            smo_user,
            requirements=[(RequirementKind.CEASE_DESIST, "Stop pumping.")],
            remediation_days=None,
        ),
        smo_user,
    )
    result = continued_violation_for(
        notice, as_of=ISSUED + dt.timedelta(days=days_after)
    )
    assert result.deadline == ISSUED
    assert result.count == weeks


def test_the_count_never_starts_at_the_last_day_to_appeal(confirmed_case, smo_user):
    notice = issue(
        draft(
            confirmed_case,
            smo_user,
            requirements=[(RequirementKind.CEASE_DESIST, "Stop pumping.")],
            remediation_days=None,
        ),
        smo_user,
    )
    assert open_deadline_for(notice, "R-APL-1").due_date == APPEAL_DUE
    # 03-10, 03-17, 03-24 from the notice's date; from the appeal day only 03-25.
    result = continued_violation_for(notice, as_of=dt.date(2026, 3, 25))
    assert list(result.weeks) == [
        dt.date(2026, 3, 10),
        dt.date(2026, 3, 17),
        dt.date(2026, 3, 24),
    ]


def test_the_count_starts_at_the_last_date_the_notice_requires(full_notice):
    # (4) due Fri 2026-04-17 is the last: (3) on 03-13 does not start it.
    result = continued_violation_for(full_notice, as_of=dt.date(2026, 4, 24))
    assert result.deadline == dt.date(2026, 4, 17)
    assert list(result.weeks) == [dt.date(2026, 4, 24)]


def test_a_fine_alone_has_no_continued_violation(confirmed_case, smo_user):
    notice = issue(
        draft(
            confirmed_case,
            smo_user,
            requirements=[(RequirementKind.FINE, "Pay the fine.")],
            remediation_days=None,
            proposed_fine=FINE,
        ),
        smo_user,
    )
    assert continued_violation_for(notice, as_of=dt.date(2026, 6, 1)) is None


def test_the_notice_page_states_the_count_from_the_notice_date(
    issued_notice, client_as
):
    html = client_as("smo").get(
        reverse("enforcement:notice_detail", args=[issued_notice.pk])
    )
    body = visible_text(html.content.decode())
    assert (
        "Counted from Friday, March 13, 2026, the last date the notice requires "
        "compliance by." in body
    )
    # Not from the last day to appeal (Wednesday, March 18, 2026).
    assert "Counted from Wednesday, March 18, 2026" not in body


# --- the letter refuses to say less than § 132-13 A requires ------------------


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"violation_date": None}, "the date of the violation is missing"),
        # sample issued Monday 2026-03-02
        ({"violation_date": dt.date(2026, 3, 5)}, "violation is dated after"),
        ({"remediation_deadline_explanation": ""}, "remediation deadline is missing"),
        (
            {
                "requirements": (
                    Requirement(
                        number=2,
                        particulars="Stop.",
                        comply_by=dt.date(2026, 3, 10),
                        comply_by_explanation="10 days.",
                    ),
                ),
                "remediation_deadline": None,
                "fine": None,
            },
            r"requirement \(2\) takes no compliance date",
        ),
        (
            {
                "requirements": (
                    Requirement(
                        number=4, particulars="Sample.", comply_by=dt.date(2026, 3, 10)
                    ),
                ),
                "remediation_deadline": None,
                "fine": None,
            },
            r"explanation of the compliance date of requirement \(4\)",
        ),
        (
            {
                "requirements": (
                    Requirement(
                        number=6,
                        particulars="Cover it.",
                        comply_by=dt.date(2026, 2, 27),
                        comply_by_explanation="Before.",
                    ),
                ),
                "remediation_deadline": None,
                "fine": None,
            },
            r"compliance date of requirement \(6\) \(Friday, February 27, 2026\) is before",
        ),
    ],
)
def test_a_notice_missing_or_misplacing_its_dates_is_refused(changes, message):
    from documents.contracts import FactsInvalid, validate_facts
    from enforcement.documents.notice import sample_notice_of_violation

    with pytest.raises(FactsInvalid, match=message):
        validate_facts(
            EnforcementDocument.NOTICE_OF_VIOLATION,
            sample_notice_of_violation(**changes),
        )
