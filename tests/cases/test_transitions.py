"""Every edge of the case state machine: the happy path, the wrong source, a
failing condition and a missing permission (issue 3)."""

import datetime as dt

import pytest
from django.utils import timezone

from cases.models import Case, CaseStatus
from cases.services import (
    Refused,
    available_transitions,
    case_run_transition,
)
from intake.models import ExemptCategory
from kernel.models import CaseEvent

from .factories import CaseFactory, PartyFactory

pytestmark = pytest.mark.django_db
S = CaseStatus
YESTERDAY = timezone.localdate() - dt.timedelta(days=1)


def _exempt_category(substantial=False):
    category = ExemptCategory.objects.order_by("sort_order").first()
    category.substantial_contributor = substantial
    category.save()
    return category


# (transition, source status, target status, fields that satisfy its conditions)
EDGES = [
    ("start_investigation", S.NEW, S.INVESTIGATING, {}),
    ("close_unfounded", S.NEW, S.UNFOUNDED, {"closing_reason": "Rain water"}),
    ("close_unfounded", S.INVESTIGATING, S.UNFOUNDED, {"closing_reason": "None"}),
    (
        "close_exempt",
        S.NEW,
        S.EXEMPT,
        {"exemption_basis": "category", "exempt_category": "fresh"},
    ),
    (
        "close_exempt",
        S.INVESTIGATING,
        S.EXEMPT,
        {"exemption_basis": "smo_approval", "exemption_reference": "Approval 7/1"},
    ),
    ("refer", S.NEW, S.REFERRED, {"referred_to": "Suffolk County DHS"}),
    ("refer", S.INVESTIGATING, S.REFERRED, {"referred_to": "NYS DEC"}),
    ("mark_duplicate", S.NEW, S.DUPLICATE, {"merged_into": "other"}),
    ("mark_duplicate", S.INVESTIGATING, S.DUPLICATE, {"merged_into": "other"}),
    ("confirm_violation", S.INVESTIGATING, S.VIOLATION_CONFIRMED, {"party": True}),
    ("begin_enforcement", S.VIOLATION_CONFIRMED, S.ENFORCEMENT, {}),
    # R-ACT-1: only a case about an activity contaminating stormwater.
    (
        "notify_of_activity",
        S.VIOLATION_CONFIRMED,
        S.ENFORCEMENT,
        {
            "case_kind": "contaminating_activity",
            "activity_notified_on": YESTERDAY,
            "activity_notification": "Letter handed to the owner",
        },
    ),
    (
        "notify_of_activity",
        S.ENFORCEMENT,
        S.ENFORCEMENT,
        {
            "case_kind": "contaminating_activity",
            "activity_notified_on": YESTERDAY,
            "activity_notification": "Told by telephone, confirmed by letter",
        },
    ),
    (
        "resolve",
        S.VIOLATION_CONFIRMED,
        S.RESOLVED,
        {"eliminated_on": YESTERDAY, "verification": "Dye test negative"},
    ),
    (
        "resolve",
        S.ENFORCEMENT,
        S.RESOLVED,
        {"eliminated_on": YESTERDAY, "verification": "Re-inspected"},
    ),
    ("reopen", S.RESOLVED, S.INVESTIGATING, {}),
    ("reopen", S.UNFOUNDED, S.INVESTIGATING, {}),
    ("reopen", S.EXEMPT, S.INVESTIGATING, {}),
    ("reopen", S.REFERRED, S.INVESTIGATING, {}),
]


def _fields(spec):
    fields = dict(spec)
    if fields.pop("party", False):
        fields["responsible_party"] = PartyFactory()
    if fields.get("exempt_category") == "fresh":
        fields["exempt_category"] = _exempt_category()
    if fields.get("merged_into") == "other":
        fields["merged_into"] = CaseFactory()
    if fields.get("exemption_basis") == "smo_approval":
        _approval_in_force(fields["exemption_reference"])
    return fields


def _approval_in_force(reference, *, days_ago=0):
    import datetime as dt

    from django.utils import timezone

    from inspections.models import DischargeApproval
    from tests.conftest import make_user

    from .factories import PremisesFactory

    day = timezone.localdate() - dt.timedelta(days=days_ago)
    return DischargeApproval.objects.create(
        premises=PremisesFactory(),
        reference=reference,
        harm_prevented="Basement flooding",
        discharge_description="Clear water pumped to the catch basin",
        starts_on=day,
        ends_on=day,
        conditions="Clear water only.",
        approved_by=make_user(f"approver-{reference}"),
        approved_on=day,
    )


def test_the_domain_refuses_an_expired_smo_approval_without_any_form(smo_user):
    """R-PRO-3 is checked by the state machine itself, not only by the web form."""
    _approval_in_force("SMO-OLD", days_ago=3)
    case = CaseFactory(status=S.INVESTIGATING)
    with pytest.raises(Refused, match="in force today") as refused:
        case_run_transition(
            case=case,
            transition="close_exempt",
            actor=smo_user,
            exemption_basis="smo_approval",
            exemption_reference="SMO-OLD",
        )
    assert [r.rule_id for r in refused.value.reasons] == ["R-PRO-3"]
    case.refresh_from_db()
    assert case.status == S.INVESTIGATING and case.version == 0


def test_the_edge_table_covers_every_edge_of_the_fsm():
    field = Case._meta.get_field("status")
    in_code = {(t.name, t.source) for t in field.get_all_transitions(Case)}
    assert in_code == {(name, str(src)) for name, src, _, _ in EDGES}


@pytest.mark.parametrize(("name", "source", "target", "spec"), EDGES)
def test_transition_happy_path_moves_the_case_and_writes_one_event(
    smo_user, name, source, target, spec
):
    spec = dict(spec)
    kind = spec.pop("case_kind", None)
    case = CaseFactory(status=source, **({"kind": kind} if kind else {}))
    case = case_run_transition(
        case=case,
        transition=name,
        actor=smo_user,
        reason="for the record",
        expected_status=source,
        **_fields(spec),
    )
    assert case.status == target
    event = CaseEvent.objects.get(case=case, kind="transition")
    assert (event.from_status, event.to_status) == (source, target)
    assert event.actor == smo_user and event.detail == "for the record"
    assert case.version == 1


@pytest.mark.parametrize(
    ("name", "wrong_source"),
    [
        ("start_investigation", S.INVESTIGATING),
        ("close_unfounded", S.VIOLATION_CONFIRMED),
        ("close_exempt", S.RESOLVED),
        ("refer", S.ENFORCEMENT),
        ("mark_duplicate", S.DUPLICATE),
        ("confirm_violation", S.NEW),
        ("begin_enforcement", S.INVESTIGATING),
        ("resolve", S.INVESTIGATING),
        ("reopen", S.DUPLICATE),
        ("reopen", S.NEW),
    ],
)
def test_transition_from_the_wrong_status_is_refused_and_nothing_saved(
    smo_user, name, wrong_source
):
    case = CaseFactory(status=wrong_source)
    with pytest.raises(Refused, match="not possible while"):
        case_run_transition(
            case=case,
            transition=name,
            actor=smo_user,
            closing_reason="x",
            referred_to="x",
        )
    case.refresh_from_db()
    assert case.status == wrong_source
    assert case.closing_reason == "" and case.version == 0
    assert not CaseEvent.objects.filter(case=case).exists()


@pytest.mark.parametrize(
    ("name", "source", "spec", "message"),
    [
        ("close_unfounded", S.NEW, {"closing_reason": "  "}, "give the reasons"),
        ("close_exempt", S.NEW, {"exemption_basis": ""}, "exemption"),
        (
            "close_exempt",
            S.NEW,
            {"exemption_basis": "spdes_permit", "exemption_reference": ""},
            "exemption",
        ),
        ("refer", S.NEW, {"referred_to": ""}, "agency"),
        ("mark_duplicate", S.NEW, {}, "merge into"),
        ("confirm_violation", S.INVESTIGATING, {}, "responsible party"),
        ("resolve", S.VIOLATION_CONFIRMED, {"verification": "ok"}, "eliminated"),
        (
            "resolve",
            S.ENFORCEMENT,
            {"eliminated_on": YESTERDAY, "verification": " "},
            "verified",
        ),
    ],
)
def test_transition_with_a_failing_condition_is_refused_saying_why(
    smo_user, name, source, spec, message
):
    case = CaseFactory(status=source)
    with pytest.raises(Refused, match=message):
        case_run_transition(case=case, transition=name, actor=smo_user, **spec)
    case.refresh_from_db()
    assert case.status == source


def test_exempt_category_marked_substantial_contributor_no_longer_exempts(smo_user):
    """R-PRO-2: "unless ... determined them to be substantial contributors"."""
    case = CaseFactory()
    with pytest.raises(Refused, match="substantial contributor"):
        case_run_transition(
            case=case,
            transition="close_exempt",
            actor=smo_user,
            exemption_basis="category",
            exempt_category=_exempt_category(substantial=True),
        )
    assert Case.objects.get(pk=case.pk).status == S.NEW


def test_a_merge_into_itself_fails_the_condition(smo_user):
    case = CaseFactory()
    with pytest.raises(Refused, match="merge into"):
        case_run_transition(
            case=case, transition="mark_duplicate", actor=smo_user, merged_into=case
        )


@pytest.mark.parametrize(("name", "source", "target", "spec"), EDGES)
@pytest.mark.parametrize("who", ["clerk_user", "attorney_user", "inspector_user"])
def test_transition_without_the_smo_role_is_refused(
    request, who, name, source, target, spec
):
    user = request.getfixturevalue(who)
    case = CaseFactory(status=source)
    with pytest.raises(Refused, match="role does not allow"):
        case_run_transition(case=case, transition=name, actor=user, **_fields(spec))
    assert Case.objects.get(pk=case.pk).status == source


def test_transition_refused_for_anonymous(client):
    from django.contrib.auth.models import AnonymousUser

    case = CaseFactory()
    with pytest.raises(Refused):
        case_run_transition(
            case=case, transition="start_investigation", actor=AnonymousUser()
        )


def test_unknown_action_is_refused(smo_user):
    with pytest.raises(Refused, match="no step"):
        case_run_transition(case=CaseFactory(), transition="delete", actor=smo_user)


def test_buttons_come_from_the_fsm_for_the_user(smo_user, clerk_user):
    case = CaseFactory(investigating=True)
    names = {t.name for t in available_transitions(case, smo_user)}
    assert names == {
        "close_unfounded",
        "close_exempt",
        "refer",
        "mark_duplicate",
        "confirm_violation",
    }
    assert available_transitions(case, clerk_user) == []
    confirmed = CaseFactory(violation_confirmed=True)
    # begin_enforcement is the enforcement app's to fire: never a button here.
    assert {t.name for t in available_transitions(confirmed, smo_user)} == {"resolve"}


def test_confirm_violation_keeps_a_given_date_and_defaults_to_today(smo_user):
    case = CaseFactory(investigating=True)
    case = case_run_transition(
        case=case,
        transition="confirm_violation",
        actor=smo_user,
        responsible_party=PartyFactory(),
    )
    assert case.violation_confirmed_on == timezone.localdate()


def test_reopen_counts_and_clears_the_closing_time(smo_user):
    case = CaseFactory(resolved=True)
    case = case_run_transition(
        case=case, transition="reopen", actor=smo_user, reason="Suds again"
    )
    assert case.reopen_count == 1 and case.closed_at is None
