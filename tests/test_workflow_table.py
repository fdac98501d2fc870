"""Every transition of every state machine, as every role (issue 14): the refusal is
always `Refused`, and every reason is in words a user reads, never an identifier.
The guards' words come from `kernel.workflow.guard`; the roles from `kernel.roles`."""

import re

import pytest

from cases.management.commands.transitions_doc import fsm_fields
from kernel.roles import Role
from kernel.workflow import Refused, actions, reasons_not
from tests.conftest import make_user

MACHINES = [(model, field) for model, field in fsm_fields()]
IDENTIFIER = re.compile(r"\b[a-z]+_[a-z_]+\b")


def _all_transitions():
    for model, field in MACHINES:
        for t in field.get_all_transitions(model):
            yield pytest.param(
                model, field, t, id=f"{model.__name__}.{t.name}@{t.source}"
            )


def _words(text: str) -> bool:
    return bool(text.strip()) and " " in text and not IDENTIFIER.search(text)


@pytest.fixture
def users(db):
    made = {role: make_user(role.name.lower(), role) for role in Role}
    made[None] = make_user("nobody")
    return made


def test_there_are_thirteen_machines_or_more():
    assert len(MACHINES) >= 13


# Issue 30: the outbox, the deadlines and the respondent's requests are machines
# too, with the steps their services fire (a person's where a person acts).
SERVICE_MACHINES = {
    "outbox.OutgoingMessage": {
        "mark_sent": None,
        "mark_failed": None,
        "mark_skipped": None,
        "retry": (Role.SMO,),
    },
    "deadlines.Deadline": {
        "meet": (Role.SMO,),
        "meet_late": (Role.SMO,),
        "waive": (Role.SMO,),
        "record_met": None,
        "record_missed": None,
        "replace": None,
        "end": None,
    },
    "portal.CorrectionSubmission": {"accept": (Role.SMO,), "reject": (Role.SMO,)},
    "portal.ContactChangeRequest": {"confirm": (Role.SMO,), "decline": (Role.SMO,)},
}


@pytest.mark.parametrize("label", sorted(SERVICE_MACHINES))
def test_the_services_statuses_are_machines_with_their_steps(label):
    machine = {model._meta.label: (model, field) for model, field in MACHINES}
    assert label in machine, f"{label}.status is not a state machine"
    model, field = machine[label]
    found = {t.name: t for t in field.get_all_transitions(model)}
    assert set(found) == set(SERVICE_MACHINES[label])
    for name, roles in SERVICE_MACHINES[label].items():
        transition = found[name]
        if roles is None:  # the system's step: never a button
            assert transition.permission is None and transition.custom["hidden"]
        else:
            assert tuple(transition.permission.roles) == roles
            assert not transition.custom.get("hidden")


@pytest.mark.parametrize(("model", "field", "transition"), list(_all_transitions()))
def test_every_guard_says_why_in_words(model, field, transition):
    for condition in transition.conditions:
        text = getattr(condition, "refusal", "")
        assert _words(text), f"{condition.__name__} has no words: {text!r}"
        assert isinstance(getattr(condition, "supplied_by_form", None), bool)


@pytest.mark.parametrize(("model", "field", "transition"), list(_all_transitions()))
def test_every_role_is_refused_or_admitted_as_the_machine_says(
    model, field, transition, users
):
    instance = model(**{field.name: transition.source})
    if transition.permission is None:  # a system step (the document worker's)
        assert transition.custom.get("hidden")
        return
    admitted = set(transition.permission.roles)
    for role, user in users.items():
        if role in admitted:
            assert transition.has_perm(instance, user)
            continue
        reasons = reasons_not(instance, transition.name, user, field_name=field.name)
        refusal = Refused(*reasons)
        assert [r.text for r in reasons] == ["your role does not allow that step"]
        assert str(refusal) == "Your role does not allow that step."
        if not transition.custom.get("hidden"):
            offered = {a.name for a in actions(instance, user, field_name=field.name)}
            assert transition.name not in offered


@pytest.mark.parametrize(
    ("model", "field"), MACHINES, ids=lambda m: getattr(m, "__name__", "")
)
def test_a_step_from_the_wrong_state_says_the_state_in_words(model, field, users):
    states = [value for value, _ in field.choices]
    for t in field.get_all_transitions(model):
        wrong = next(
            (
                s
                for s in states
                if not getattr(model, t.name)._django_fsm.has_transition(s)
            ),
            None,
        )
        if wrong is None:
            continue
        instance = model(**{field.name: wrong})
        reasons = reasons_not(instance, t.name, users[Role.SMO], field_name=field.name)
        label = dict(field.choices)[wrong]
        assert len(reasons) == 1 and f"“{label}”" in reasons[0].text
        assert isinstance(Refused(*reasons), Refused)
