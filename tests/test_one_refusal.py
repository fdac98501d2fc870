"""One refusal (issue 30): services say no with `kernel.workflow.Refused` (or a
kind of it), with the refused input by field when a form caused it, and
`kernel.actions.attempt` is the one place a refusal becomes a page."""

import re
from pathlib import Path

import pytest
from django import forms
from django.contrib.messages.storage.fallback import FallbackStorage
from django.core.exceptions import ValidationError
from django.test import RequestFactory

from documents.contracts import FactsInvalid
from documents.services import DocumentError
from inspections.models.common import LockedRecordError
from intake.services import ReportRefused
from jobs.registry import JobRefused
from kernel.actions import attempt, attempt_errors
from kernel.workflow import CaseChangedError, Refused

ROOT = Path(__file__).resolve().parents[1]
APPS = (
    "kernel",
    "jobs",
    "documents",
    "intake",
    "cases",
    "inspections",
    "enforcement",
    "ledger",
    "portal",
    "reporting",
)
CAUGHT = re.compile(
    r"except \(?(Refused|ValidationError|DocumentError|FactsInvalid|ReportRefused"
    r"|CaseChangedError|LockedRecordError)\b"
)
# Views that answer a refusal in a page of their own, and why.
OWN_ANSWER = {
    "intake/open311/views.py": "the Open311 POST answers a refusal as its JSON error",
    "documents/views.py": "the draft preview shows the facts a letter lacks",
}


def _modules(pattern: str):
    for app in APPS:
        yield from (ROOT / app).rglob(pattern)


@pytest.mark.parametrize(
    "kind",
    [
        CaseChangedError,
        DocumentError,
        FactsInvalid,
        ReportRefused,
        LockedRecordError,
        JobRefused,
    ],
)
def test_every_way_a_service_says_no_is_a_refusal(kind):
    assert issubclass(kind, Refused)
    assert issubclass(Refused, ValidationError)  # forms take it as their own


def test_no_view_catches_a_refusal_by_hand():
    views = [
        p for p in _modules("*.py") if "views" in p.name or p.parent.name == "views"
    ]
    assert len(views) > 20  # the scan reads the views
    found = {
        str(p.relative_to(ROOT))
        for p in views
        if CAUGHT.search(p.read_text(encoding="utf-8"))
    }
    assert found == set(OWN_ANSWER)


def test_no_service_raises_a_bare_validation_error():
    services = [
        p
        for p in _modules("*.py")
        if p.name == "services.py"
        or p.parent.name == "services"
        or p.name in {"court.py", "corrections.py", "delegations.py"}
    ]
    assert len(services) > 15
    offenders = [
        str(p.relative_to(ROOT))
        for p in services
        if "raise ValidationError(" in p.read_text(encoding="utf-8")
    ]
    assert offenders == []


class _AmountForm(forms.Form):
    amount = forms.CharField()


def _request():
    request = RequestFactory().post("/", {"amount": "ten"})
    request.session = {}
    request._messages = FallbackStorage(request)
    return request


def _refuse(error):
    def call():
        raise error

    return call


def test_refused_input_lands_on_its_field_and_the_input_is_kept():
    request, form = _request(), _AmountForm({"amount": "ten"})
    result = attempt(
        request,
        form,
        _refuse(Refused.invalid({"amount": "Give an amount in dollars."})),
    )
    assert result is None
    assert form.errors["amount"] == ["Give an amount in dollars."]
    assert form["amount"].value() == "ten"
    assert [str(m) for m in request._messages] == ["Please correct the errors below."]


def test_a_refused_step_is_said_in_words_with_its_reasons():
    request, form = _request(), _AmountForm({"amount": "10"})
    refusal = Refused("the notice is not in force", "the appeal is pending")
    assert attempt(request, form, _refuse(refusal)) is None
    words = "The notice is not in force; the appeal is pending."
    assert str(refusal) == words
    assert form.non_field_errors() == [words]
    assert [str(m) for m in request._messages] == [words]


def test_a_page_without_a_form_gets_the_same_messages_by_field():
    result, errors = attempt_errors(
        _refuse(Refused.invalid({"email": "That is not an e-mail address."}))
    )
    assert result is None and errors == {"email": ["That is not an e-mail address."]}
    _, errors = attempt_errors(_refuse(Refused.invalid("Give at least one detail.")))
    assert errors == {"": ["Give at least one detail."]}
    _, errors = attempt_errors(
        _refuse(Refused("This notice was not addressed to you."))
    )
    assert errors == {"": ["This notice was not addressed to you."]}
    assert attempt_errors(lambda: 42) == (42, {})


def test_a_document_that_could_not_be_made_is_said_in_the_message_only():
    """DocumentError (Refused.on_form False): the page's message says it; the
    form keeps the user's input with no error of its own."""
    request, form = _request(), _AmountForm({"amount": "10"})
    refusal = DocumentError("The notice has no recipient's address yet.")
    assert attempt(request, form, _refuse(refusal)) is None
    assert form.non_field_errors() == []
    assert form["amount"].value() == "10"
    assert [str(m) for m in request._messages] == [
        "The notice has no recipient's address yet."
    ]


def test_facts_that_make_no_lawful_document_say_nothing_was_done():
    """FactsInvalid (Refused.nothing_done): the message ends with what did not
    happen, in the caller's words; the form says why."""
    request, form = _request(), _AmountForm({"amount": "10"})
    refusal = FactsInvalid("notice_of_violation", ["the violation date is missing"])
    assert attempt(request, form, _refuse(refusal), nothing="issued") is None
    words = "Cannot render the Notice of violation: the violation date is missing"
    assert form.non_field_errors() == [words]
    assert [str(m) for m in request._messages] == [f"{words}. Nothing was issued."]
