"""Enforcement messages name their sections from the citation table (issue 14):
a notice without a requirement, the issue step's guard, the remedy forms."""

import datetime as dt

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from enforcement.forms import REMEDY_STEP_FORMS, AlternativeCreateForm, NoticeForm
from enforcement.services import notices as notice_services
from enforcement.services.notices import case_recipients
from kernel.models import Citation
from kernel.workflow import Refused, reasons_not, run

from .conftest import draft

pytestmark = pytest.mark.django_db

NO_REQUIREMENT = "Choose at least one requirement of § 132-13 A."


def _amend_nov_1():
    Citation.objects.filter(rule_id="R-NOV-1").update(section="§ 132-13 A (new)")


def _notice_post(case, **extra):
    return {
        "recipient": case.responsible_party_id,
        "violation_date": "2026-03-02",
        "findings": "Pool water discharged to the MS4.",
        **extra,
    }


def test_the_notice_form_says_which_section_when_no_requirement_is_ticked(
    confirmed_case,
):
    form = NoticeForm(
        _notice_post(confirmed_case), recipients=case_recipients(confirmed_case)
    )
    assert not form.is_valid()
    assert form.non_field_errors() == [NO_REQUIREMENT]
    _amend_nov_1()
    form = NoticeForm(
        _notice_post(confirmed_case), recipients=case_recipients(confirmed_case)
    )
    assert not form.is_valid()
    assert form.non_field_errors() == [
        "Choose at least one requirement of § 132-13 A (new)."
    ]


def test_the_notice_page_shows_the_error_with_the_section(client_as, confirmed_case):
    response = client_as("smo").post(
        reverse("enforcement:notice_create", args=[confirmed_case.pk]),
        _notice_post(confirmed_case),
    )
    assert response.status_code == 200
    assert NO_REQUIREMENT in response.content.decode()


def test_the_service_says_which_section_when_no_requirement_is_given(
    confirmed_case, smo_user
):
    with pytest.raises(ValidationError) as refused:
        draft(confirmed_case, smo_user, requirements=[])
    assert refused.value.message_dict["requirements"] == [NO_REQUIREMENT]


def test_the_issue_guard_names_the_section_from_the_table(confirmed_case, smo_user):
    notice = draft(confirmed_case, smo_user)
    notice.requirements.all().delete()
    texts = [r.text for r in reasons_not(notice, "issue", smo_user)]
    assert "choose at least one requirement of § 132-13 A" in texts
    (reason,) = [r for r in reasons_not(notice, "issue", smo_user) if r.rule_id]
    assert reason.rule_id == "R-NOV-1"
    assert reason.url == reverse("enforcement:notice_edit", args=[notice.pk])

    _amend_nov_1()
    with pytest.raises(Refused) as refused:
        run(notice, "issue", actor=smo_user)
    assert "choose at least one requirement of § 132-13 A (new)" in str(refused.value)


def test_issuing_without_a_requirement_is_refused_in_those_words(
    confirmed_case, smo_user
):
    notice = draft(confirmed_case, smo_user)
    notice.requirements.all().delete()
    with pytest.raises(Refused) as refused:
        notice_services.notice_issue(
            notice=notice, actor=smo_user, issued_on=dt.date(2026, 3, 3)
        )
    assert "choose at least one requirement of § 132-13 A" in str(refused.value)


def test_remedy_forms_show_their_sections():
    lift = REMEDY_STEP_FORMS["suspension"]["lift"]()
    assert str(lift.fields["noncompliance_steps"].help_text) == (
        "What the SMO did when the order was not obeyed (§ 132-9 A)."
    )
    assert str(AlternativeCreateForm.base_fields["kinds"].label) == (
        "Remedies (§ 132-17 B)"
    )
