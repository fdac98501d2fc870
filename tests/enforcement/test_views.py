"""Screens: the URL × role table for every page, and the flows through them."""

import datetime as dt
from decimal import Decimal

import pytest
from django.urls import reverse

from deadlines.services import deadlines_for
from enforcement.models import (
    AccessSuspension,
    AccessTermination,
    AlternativeRemedy,
    Appeal,
    CorrectiveAction,
    InjunctionReferral,
    NoticeOfViolation,
    NoticeStatus,
    NuisanceAbatement,
    RequirementKind,
)
from enforcement.services import notices as notice_services
from kernel.models import CaseEvent
from tests.steps import confirmed

from .conftest import village_day

pytestmark = pytest.mark.django_db

ROLES = ["anonymous", "no_role", "smo", "clerk", "attorney", "inspector", "superuser"]
SMO = {"smo", "superuser"}
SMO_CLERK = {"smo", "clerk", "superuser"}
SIGNERS = {"attorney", "inspector", "superuser"}


@pytest.fixture
def world(confirmed_case, scheduled_appeal, smo_user):
    notice = scheduled_appeal.notice
    case = notice.case
    d = dt.date(2026, 3, 20)
    remedies = {
        "nuisance": NuisanceAbatement.objects.create(
            case=case, condition_description="x", declared_on=d
        ),
        "injunction": InjunctionReferral.objects.create(
            case=case, kind="preliminary", relief="compel", referred_on=d, grounds="x"
        ),
        "suspension": AccessSuspension.objects.create(
            case=case,
            party=case.responsible_party,
            suspended_at=d and scheduled_appeal.hearing_at,
            reasons="x",
        ),
        "termination": AccessTermination.objects.create(
            case=case, party=case.responsible_party, notice_on=d, reasons="x"
        ),
        "alternative": AlternativeRemedy.objects.create(
            case=case,
            party=case.responsible_party,
            violation_date=d,
            unintentional=True,
            minimal_damage=True,
            acted_quickly=True,
            cooperated=True,
            findings="x",
        ),
        "corrective": CorrectiveAction.objects.create(
            case=case, notice=notice, request_letter_on=d
        ),
    }
    return {"case": case, "notice": notice, "appeal": scheduled_appeal, **remedies}


def pages(w):
    case, notice, appeal = w["case"], w["notice"], w["appeal"]
    rows = [
        (reverse("enforcement:notice_list"), SMO),
        (reverse("enforcement:case_enforcement", args=[case.pk]), SMO_CLERK),
        (reverse("enforcement:notice_create", args=[case.pk]), SMO),
        (reverse("enforcement:notice_detail", args=[notice.pk]), SMO_CLERK),
        (reverse("enforcement:notice_service", args=[notice.pk]), SMO),
        (reverse("enforcement:party_offenses", args=[case.responsible_party_id]), SMO),
        (reverse("enforcement:appeal_list"), SMO_CLERK),
        (reverse("enforcement:appeal_create") + f"?notice={notice.pk}", SMO_CLERK),
        (reverse("enforcement:appeal_detail", args=[appeal.pk]), SMO_CLERK),
        (reverse("enforcement:hearings_ics"), SMO_CLERK),
        (reverse("enforcement:signoff_list"), SIGNERS),
    ]
    for flow in ("corrective", "nuisance", "injunction", "suspension", "termination"):
        rows.append(
            (reverse("enforcement:remedy_detail", args=[flow, w[flow].pk]), SMO_CLERK)
        )
        rows.append((reverse("enforcement:remedy_create", args=[case.pk, flow]), SMO))
    rows.append(
        (
            reverse(
                "enforcement:remedy_detail", args=["alternative", w["alternative"].pk]
            ),
            SMO_CLERK | SIGNERS,
        )
    )
    rows.append(
        (reverse("enforcement:remedy_create", args=[case.pk, "alternative"]), SMO)
    )
    return rows


def test_every_page_by_role(world, client_as):
    for role in ROLES:
        client = client_as(role)
        for url, allowed in pages(world):
            response = client.get(url)
            expected = 200 if role in allowed else 403
            if role == "anonymous":
                expected = 302
            assert response.status_code == expected, (role, url, response.status_code)
            if expected == 302:
                assert "/accounts/login/" in response["Location"]


def test_the_draft_edit_page_is_smo_only_and_an_issued_notice_redirects(
    draft_notice, issued_notice, client_as
):
    url = reverse("enforcement:notice_edit", args=[issued_notice.pk])
    assert client_as("clerk").get(url).status_code == 403
    assert client_as("smo").get(url).status_code == 302


def test_smo_drafts_and_issues_a_notice_through_the_screens(confirmed_case, client_as):
    client = client_as("smo")
    url = reverse("enforcement:notice_create", args=[confirmed_case.pk])
    data = {
        "recipient": confirmed_case.responsible_party_id,
        "violation_date": "2026-03-02",
        "findings": "Pool water.",
        "req_abatement": "on",
        "particulars_abatement": "Clean the basin.",
        "remediation_days": "",
    }
    response = client.post(url, data)
    assert response.status_code == 200  # re-rendered with the error, input kept
    html = response.content.decode()
    assert "R-NOV-2" in html and "Clean the basin." in html
    assert not NoticeOfViolation.objects.exists()
    data["remediation_days"] = "14"
    response = client.post(url, data)
    notice = NoticeOfViolation.objects.get()
    assert response.status_code == 302
    response = client.post(
        reverse("enforcement:notice_step", args=[notice.pk, "issue"]),
        confirmed("issue"),
    )
    notice.refresh_from_db()
    assert notice.status == NoticeStatus.ISSUED
    page = client.get(
        reverse("enforcement:notice_detail", args=[notice.pk])
    ).content.decode()
    assert "Appeal to the Board of Trustees" in page
    assert "Pat Owner" in page


def test_the_clerk_may_not_issue_a_notice(draft_notice, client_as):
    url = reverse("enforcement:notice_step", args=[draft_notice.pk, "issue"])
    assert client_as("clerk").post(url).status_code == 403


def test_a_step_not_allowed_now_is_refused_with_the_reason(issued_notice, client_as):
    client = client_as("smo")
    url = reverse("enforcement:notice_step", args=[issued_notice.pk, "escalate"])
    response = client.post(url, follow=True)
    assert "not possible" in response.content.decode()


def test_fine_outside_tier_is_a_form_error(confirmed_case, client_as):
    url = reverse("enforcement:notice_create", args=[confirmed_case.pk])
    response = client_as("smo").post(
        url,
        {
            "recipient": confirmed_case.responsible_party_id,
            "violation_date": "2026-03-02",
            "findings": "x",
            "req_fine": "on",
            "particulars_fine": "Pay.",
            "proposed_fine": "900",
        },
    )
    assert response.status_code == 200
    assert "outside the range of a first offense" in response.content.decode()


def test_clerk_records_a_late_appeal_hearing_and_upheld_decision(
    issued_notice, client_as
):
    client = client_as("clerk")
    response = client.post(
        reverse("enforcement:appeal_create"),
        {
            "notice": issued_notice.pk,
            "appellant": issued_notice.recipient_id,
            "filed_on": "2026-03-19",
            "grounds": "Too late?",
        },
        follow=True,
    )
    appeal = Appeal.objects.get()
    assert appeal.is_late
    assert "flagged LATE" in response.content.decode()
    step = lambda a: reverse("enforcement:appeal_step", args=[appeal.pk, a])  # noqa: E731
    # A late appeal starts no hearing-by clock until the Board accepts it.
    assert not deadlines_for(appeal).filter(rule_id="R-APL-2").exists()
    page = client.get(appeal.get_absolute_url()).content.decode()
    assert "Record the Board&#x27;s acceptance of the late appeal" in page
    with village_day(dt.date(2026, 3, 19)):
        client.post(step("accept_late"), confirmed("accept_late"), follow=True)
    assert deadlines_for(appeal).get(rule_id="R-APL-2").event_date == appeal.filed_on
    with village_day(dt.date(2026, 3, 19)):  # scheduled the day it was filed
        response = client.post(
            step("schedule_hearing"),
            {
                "schedule_hearing-hearing_at": "2026-04-30T19:00",
                "schedule_hearing-location": "Hall",
            },
            follow=True,
        )
    assert "after the hearing-by date" in response.content.decode()
    client.post(
        step("decide"),
        {
            "decide-decision": "upheld",
            "decide-decided_on": "2026-04-30",
            "decide-resolution": "Upheld.",
            **confirmed("decide"),
        },
    )
    appeal.refresh_from_db()
    assert appeal.status == "decided"
    assert issued_notice.deadlines().filter(rule_id="R-COR-1").exists()
    lists = client.get(reverse("enforcement:appeal_list")).content.decode()
    assert "Decisions to file and mail" in lists and f"Appeal {appeal.pk}" in lists
    assert CaseEvent.objects.filter(
        case=issued_notice.case, summary__startswith="Corrective-measures clock"
    ).exists()


def test_the_attorney_cannot_record_an_appeal_step(scheduled_appeal, client_as):
    url = reverse("enforcement:appeal_step", args=[scheduled_appeal.pk, "decide"])
    assert client_as("attorney").post(url, {}).status_code == 403


def test_the_case_panel_lists_notices_appeals_and_remedies(world, client_as):
    html = (
        client_as("smo")
        .get(reverse("enforcement:case_enforcement", args=[world["case"].pk]))
        .content.decode()
    )
    assert f"NOV-{world['notice'].pk}" in html
    assert "Appeal <a" in html
    assert "Corrective measures" in html and "Alternative remedies" in html


def test_the_attorney_sees_what_awaits_the_recommendation_and_not_the_case_file(
    world, client_as
):
    client = client_as("attorney")
    html = client.get(reverse("enforcement:signoff_list")).content.decode()
    assert world["case"].number in html
    detail = client.get(
        reverse(
            "enforcement:remedy_detail", args=["alternative", world["alternative"].pk]
        )
    ).content.decode()
    assert "Case summary" in detail
    assert (
        reverse("enforcement:case_enforcement", args=[world["case"].pk]) not in detail
    )
    assert (
        client.get(
            reverse("enforcement:case_enforcement", args=[world["case"].pk])
        ).status_code
        == 403
    )


def test_the_inspector_sees_nothing_until_the_attorney_recommends(world, client_as):
    html = (
        client_as("inspector").get(reverse("enforcement:signoff_list")).content.decode()
    )
    assert "Nothing awaits your sign-off" in html


def test_ical_lists_hearings_for_clerk(scheduled_appeal, client_as):
    body = client_as("clerk").get(reverse("enforcement:hearings_ics")).content.decode()
    assert "BEGIN:VEVENT" in body and f"UID:appeal-{scheduled_appeal.pk}@" in body


def test_appeal_document_download_is_for_clerk_and_smo(
    issued_notice, clerk_user, owner, client_as
):
    from django.core.files.uploadedfile import SimpleUploadedFile

    from enforcement.services.appeals import appeal_file

    appeal = appeal_file(
        notice=issued_notice,
        actor=clerk_user,
        appellant=owner,
        filed_on=dt.date(2026, 3, 10),
        grounds="x",
        documents=[SimpleUploadedFile("a.pdf", b"%PDF", "application/pdf")],
    )
    url = reverse("enforcement:appeal_document", args=[appeal.documents.get().pk])
    assert client_as("clerk").get(url).status_code == 200
    assert client_as("attorney").get(url).status_code == 403
    assert client_as("anonymous").get(url).status_code == 302


def _more_appeals(like, n):
    """`n` more appeals, each of another notice on the same case (a notice is
    appealed once) and each filed a day later."""
    from enforcement.services import appeals as appeal_services

    from .conftest import draft

    appeals = []
    for i in range(n):
        notice = notice_services.notice_issue(
            notice=draft(like.notice.case, like.notice.created_by),
            actor=like.notice.created_by,
            issued_on=like.notice.issued_on,
        )
        appeals.append(
            appeal_services.appeal_file(
                notice=notice,
                actor=like.recorded_by,
                appellant=like.appellant,
                filed_on=like.filed_on + dt.timedelta(days=i + 1),
                grounds="More grounds.",
            )
        )
    return appeals


def test_appeal_list_shows_the_25_most_urgent_of_a_section_and_a_link_to_all(
    appeal, client_as
):
    _more_appeals(appeal, 29)  # 30 filed appeals in all
    html = client_as("clerk").get(reverse("enforcement:appeal_list")).content.decode()
    assert html.count("hear by") == 25
    assert f"Appeal {appeal.pk}<" in html  # the earliest filed is the most urgent
    assert "The 25 most urgent of 30" in html
    assert 'href="?section=open"' in html and "See all 30" in html


def test_appeal_section_pages_through_every_appeal_of_that_list(appeal, client_as):
    later = _more_appeals(appeal, 29)
    client = client_as("clerk")
    url = reverse("enforcement:appeal_list")
    first = client.get(url, {"section": "open"}).content.decode()
    assert "Appeals open — hearing to schedule" in first
    assert first.count("hear by") == 25 and "Page 1 of 2" in first
    second = client.get(url, {"section": "open", "page": 2}).content.decode()
    assert second.count("hear by") == 5
    assert f"Appeal {later[-1].pk}<" in second
    assert "Hearings coming" not in second


def test_appeal_list_without_overflow_has_no_see_all(appeal, client_as):
    html = client_as("clerk").get(reverse("enforcement:appeal_list")).content.decode()
    assert "See all" not in html and f"Appeal {appeal.pk}<" in html


def test_appeal_section_of_an_unknown_name_is_the_lists(appeal, client_as):
    response = client_as("clerk").get(
        reverse("enforcement:appeal_list"), {"section": "nope"}
    )
    assert response.status_code == 200
    assert "Hearings coming" in response.content.decode()


def test_a_draft_with_a_fine_offers_issue_and_issues_with_the_appeal_day(
    confirmed_case, smo_user, client_as
):
    from tests.enforcement.conftest import draft

    notice = draft(
        confirmed_case,
        smo_user,
        requirements=[(RequirementKind.FINE, "Pay the fine.")],
        proposed_fine=Decimal("300"),
        remediation_days=None,
    )
    client = client_as("smo")
    page = client.get(reverse("enforcement:notice_detail", args=[notice.pk]))
    html = page.content.decode()
    assert 'data-step="issue"' in html and "Not yet" not in html
    response = client.post(
        reverse("enforcement:notice_step", args=[notice.pk, "issue"]),
        confirmed("issue"),
        follow=True,
    )
    notice.refresh_from_db()
    assert notice.status == NoticeStatus.ISSUED and notice.fine_max == Decimal("350")
    assert f"Notice NOV-{notice.pk} issued; the last day to appeal is" in (
        response.content.decode()
    )


def test_issuing_a_fine_outside_the_tier_names_the_range_on_the_page(
    confirmed_case, smo_user, client_as
):
    from tests.enforcement.conftest import draft

    notice = draft(
        confirmed_case,
        smo_user,
        requirements=[(RequirementKind.FINE, "Pay the fine.")],
        proposed_fine=Decimal("300"),
        remediation_days=None,
    )
    NoticeOfViolation.objects.filter(pk=notice.pk).update(proposed_fine=900)
    response = client_as("smo").post(
        reverse("enforcement:notice_step", args=[notice.pk, "issue"]),
        confirmed("issue"),
    )
    assert response.status_code == 200
    assert "a fine not exceeding $350" in response.content.decode()
    notice.refresh_from_db()
    assert notice.status == NoticeStatus.DRAFT


def test_the_corrective_measures_page_says_why_no_notice_can_be_chosen(
    appeal, client_as
):
    """Corrective measures follow a notice not complied with (R-COR-1): while
    there is none, the page names each notice and why it is not one yet."""
    url = reverse(
        "enforcement:remedy_create", args=[appeal.notice.case_id, "corrective"]
    )
    page = client_as("smo").get(url).content.decode()
    assert 'data-testid="corrective-waits"' in page
    assert f"NOV-{appeal.notice_id}" in page
    # § 132-14: the appeal filed Tue 2026-03-10 is before the Board.
    assert (
        "an appeal of this notice, filed Tuesday, March 10, 2026, is pending before "
        "the Board of Trustees; corrective measures can start after its decision"
    ) in page


def test_the_corrective_measures_page_offers_a_notice_not_complied_with(
    issued_notice, smo_user, client_as
):
    from enforcement.services import notices as notice_services

    notice_services.notice_record_noncompliance(notice=issued_notice, actor=smo_user)
    url = reverse(
        "enforcement:remedy_create", args=[issued_notice.case_id, "corrective"]
    )
    page = client_as("smo").get(url).content.decode()
    assert 'data-testid="corrective-waits"' not in page
    assert f'<option value="{issued_notice.pk}"' in page
