"""R-PRO-1 (§ 132-6 A), R-CON-1 (§ 132-6 B) and R-ACT-1 (§ 132-7), each through
the services and the case pages as the SMO uses them, asserting what the page
says. What RULES.md asks the software to do:
- R-PRO-1: "a confirmed non-exempt discharge is a violation";
- R-CON-1: "connection cases: location, type, when found, eliminated-at";
- R-ACT-1: "notification of activity, correction verified"."""

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from cases.models import (
    CaseKind,
    CaseParty,
    CaseStatus,
    ConnectionType,
    Party,
    Premises,
)
from cases.services import Refused, case_add_party, case_open, case_run_transition
from intake.models import ExemptCategory
from kernel.models import CaseEvent

from ..steps import case_confirmed

pytestmark = pytest.mark.django_db

TODAY = timezone.localdate


def investigating(smo_user, kind, summary="Found at screening"):
    """A case of `kind` under investigation, its owner named (services only)."""
    premises = Premises.objects.create(address="7 Harbor Road")
    owner = Party.objects.create(name="Sam Harbor", mailing_address="7 Harbor Road")
    case = case_open(
        actor=smo_user, source="phone", summary=summary, kind=kind, premises=premises
    )
    case_add_party(case=case, actor=smo_user, role=CaseParty.Role.OWNER, party=owner)
    return case_run_transition(
        case=case, transition="start_investigation", actor=smo_user
    ), owner


def post_step(client, case, name, **fields):
    case.refresh_from_db()
    return client.post(
        reverse("cases:transition", args=[case.number, name]),
        case_confirmed(
            {"expected_status": case.status, "expected_version": case.version},
            **fields,
        ),
    )


def page(client, case) -> str:
    return client.get(case.get_absolute_url()).content.decode()


# --- R-PRO-1 ---------------------------------------------------------------------


def test_r_pro_1_a_confirmed_non_exempt_discharge_is_a_violation(smo_user, smo_client):
    """R-PRO-1: a discharge other than stormwater, not exempt, confirmed → the case
    reads "Violation confirmed" under "Illicit discharge", its rule id R-PRO-1 apart
    (issue 16: plain names, the rule id as small text)."""
    case, owner = investigating(smo_user, CaseKind.ILLICIT_DISCHARGE)
    response = post_step(
        smo_client,
        case,
        "confirm_violation",
        responsible_party=owner.pk,
        violation_confirmed_on=f"{TODAY():%Y-%m-%d}",
        violation_finding="Grey water piped to the curb.",
    )
    assert response.status_code == 302
    html = page(smo_client, case)
    assert "Illicit discharge (R-PRO-1)" not in html
    assert "Illicit discharge" in html and 'data-testid="rule-id"' in html
    assert "R-PRO-1</span>" in html
    assert "Violation confirmed" in html and "Grey water piped to the curb." in html
    case.refresh_from_db()
    assert case.status == CaseStatus.VIOLATION_CONFIRMED
    assert case.rule_id == "R-PRO-1"


def test_r_pro_1_an_exempt_discharge_is_no_violation(smo_user):
    """R-PRO-1 with R-PRO-2: a discharge closed as exempt cannot be confirmed a
    violation."""
    case, owner = investigating(smo_user, CaseKind.ILLICIT_DISCHARGE)
    category = ExemptCategory.objects.filter(substantial_contributor=False).first()
    case = case_run_transition(
        case=case,
        transition="close_exempt",
        actor=smo_user,
        exemption_basis="category",
        exempt_category=category,
    )
    with pytest.raises(Refused, match="not possible while it is “Closed: exempt"):
        case_run_transition(
            case=case,
            transition="confirm_violation",
            actor=smo_user,
            responsible_party=owner,
        )


# --- R-CON-1 ---------------------------------------------------------------------


def test_r_con_1_a_connection_case_records_the_type_of_connection(smo_user, smo_client):
    """R-CON-1: confirming an illicit connection asks for its type; without it the
    step is refused; with it the case page says the type."""
    case, owner = investigating(smo_user, CaseKind.ILLICIT_CONNECTION)
    form = smo_client.get(
        reverse("cases:transition", args=[case.number, "confirm_violation"])
    ).content.decode()
    assert "Type of illicit connection" in form
    assert "Line conveying sewage (treated or untreated)" in form
    fields = {
        "responsible_party": owner.pk,
        "violation_confirmed_on": f"{TODAY():%Y-%m-%d}",
        "violation_finding": "Laundry line tied into the storm drain.",
    }
    refused = post_step(smo_client, case, "confirm_violation", **fields)
    assert refused.status_code == 200
    assert "This field is required." in refused.content.decode()
    done = post_step(
        smo_client,
        case,
        "confirm_violation",
        connection_type=ConnectionType.SEWAGE,
        **fields,
    )
    assert done.status_code == 302
    html = page(smo_client, case)
    assert "Type of illicit connection" in html
    assert "Line conveying sewage (treated or untreated)" in html
    case.refresh_from_db()
    assert case.connection_type == ConnectionType.SEWAGE
    assert case.status == CaseStatus.VIOLATION_CONFIRMED


def test_r_con_1_the_service_refuses_a_connection_without_its_type(smo_user):
    """R-CON-1: the rule is the machine's, not only the form's."""
    case, owner = investigating(smo_user, CaseKind.ILLICIT_CONNECTION)
    with pytest.raises(Refused, match="say what type of illicit connection it is"):
        case_run_transition(
            case=case,
            transition="confirm_violation",
            actor=smo_user,
            responsible_party=owner,
        )


def test_r_con_1_an_illicit_discharge_case_is_not_asked_for_a_connection_type(
    smo_user, smo_client
):
    case, _ = investigating(smo_user, CaseKind.ILLICIT_DISCHARGE)
    form = smo_client.get(
        reverse("cases:transition", args=[case.number, "confirm_violation"])
    ).content.decode()
    assert "Type of illicit connection" not in form


# --- R-ACT-1 ---------------------------------------------------------------------


def confirmed_activity(smo_user):
    case, owner = investigating(
        smo_user, CaseKind.CONTAMINATING_ACTIVITY, "Car wash suds at the outfall"
    )
    return case_run_transition(
        case=case,
        transition="confirm_violation",
        actor=smo_user,
        responsible_party=owner,
        violation_finding="Fleet washing on the lot drains to PQ-07.",
    )


def test_r_act_1_the_notification_of_the_activity_and_the_verified_correction(
    smo_user, smo_client
):
    """R-ACT-1 (§ 132-7 B): the SMO records the notification to the person
    (the case goes into enforcement), then the correction and how it was
    verified; resolving before the notification is refused and says why."""
    case = confirmed_activity(smo_user)
    html = page(smo_client, case)
    notify_url = reverse("cases:transition", args=[case.number, "notify_of_activity"])
    assert "Record the notification of the activity" in html
    assert "Not yet: record first that the person was notified of the activity" in html

    notified_on = TODAY() - dt.timedelta(days=3)
    done = post_step(
        smo_client,
        case,
        "notify_of_activity",
        activity_notified_on=f"{notified_on:%Y-%m-%d}",
        activity_notification="Letter handed to the owner by the SMO.",
    )
    assert done.status_code == 302
    case.refresh_from_db()
    assert case.status == CaseStatus.ENFORCEMENT
    html = page(smo_client, case)
    assert "Notified of the activity" in html
    assert f"{notified_on:%Y-%m-%d}" in html
    assert "Letter handed to the owner by the SMO." in html
    assert notify_url not in html  # notified once
    summaries = list(
        CaseEvent.objects.filter(case=case, rule_id="R-ACT-1").values_list(
            "summary", flat=True
        )
    )
    assert (
        "Record the notification of the activity: Violation confirmed → In enforcement"
    ) in summaries

    form = smo_client.get(
        reverse("cases:transition", args=[case.number, "resolve"])
    ).content.decode()
    assert "Date the activity was corrected" in form
    assert "How the correction was verified" in form
    done = post_step(
        smo_client,
        case,
        "resolve",
        eliminated_on=f"{TODAY():%Y-%m-%d}",
        verification="Re-inspection: washing moved to the wash rack.",
    )
    assert done.status_code == 302
    html = page(smo_client, case)
    assert "Activity corrected" in html
    assert "Verified: Re-inspection: washing moved to the wash rack." in html
    case.refresh_from_db()
    assert case.status == CaseStatus.RESOLVED


def test_r_act_1_the_correction_is_not_recorded_before_the_notification(smo_user):
    case = confirmed_activity(smo_user)
    with pytest.raises(Refused, match="the duty to correct it follows"):
        case_run_transition(
            case=case,
            transition="resolve",
            actor=smo_user,
            eliminated_on=TODAY(),
            verification="Seen stopped.",
        )


def test_r_act_1_the_notification_step_is_only_for_an_activity_case(
    smo_user, smo_client
):
    """R-ACT-1: an illicit discharge case offers no such step, and refuses it."""
    case, owner = investigating(smo_user, CaseKind.ILLICIT_DISCHARGE)
    case = case_run_transition(
        case=case,
        transition="confirm_violation",
        actor=smo_user,
        responsible_party=owner,
    )
    assert "Record the notification of the activity" not in page(smo_client, case)
    with pytest.raises(Refused, match="on a case about an activity"):
        case_run_transition(
            case=case,
            transition="notify_of_activity",
            actor=smo_user,
            activity_notified_on=TODAY(),
            activity_notification="x",
        )
