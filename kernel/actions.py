"""The one view helper of every workflow: which steps a page offers (from the state
machine, `kernel.workflow.actions`), binding a step's form from a POST, and turning
a service call's refusal into a message and form errors with the user's input kept.

Views never test a status or a role name to decide what to show: they call
`action_forms` and render `workflow/_actions.html`.

A legally binding step (`"binding": True` in its transition's `custom`) asks for
a ticked "I confirm: …" box saying what it does and starts
(`kernel.confirmations`); the box is a field of the step's form, so a POST
without it is refused by the form, server-side, with the user's input kept."""

from django import forms as django_forms
from django.contrib import messages
from django.core.exceptions import NON_FIELD_ERRORS, PermissionDenied, ValidationError
from django.http import Http404
from django.shortcuts import redirect
from django.utils.html import format_html, format_html_join

from .confirmations import confirm_text, is_binding
from .workflow import CaseChangedError, Refused, actions, transitions_of


class NoInput:
    """The form of a step that asks for nothing: always valid, no fields."""

    fields: dict = {}
    cleaned_data: dict = {}
    errors: dict = {}

    def __init__(self, *args, **kwargs):
        self.non_field = []

    def is_valid(self) -> bool:
        return True

    def add_error(self, field, error):
        self.non_field.append(error)

    def non_field_errors(self):
        return self.non_field

    def __str__(self) -> str:
        return ""


CONFIRM_FIELD = "confirm"
CONFIRM_MISSING = (
    "Tick “I confirm” to take this legally binding step; nothing was done."
)


class ConfirmOnly(django_forms.Form):
    """The form of a binding step that asks for nothing but the confirmation."""

    def __init__(self, data=None, files=None, *, prefix=None, **ignored):
        super().__init__(data, files, prefix=prefix)


def confirmation_field(text: str) -> django_forms.BooleanField:
    """The "I confirm: …" box of a binding step (required: unticked, nothing is done)."""
    return django_forms.BooleanField(
        required=True,
        label=f"I confirm: {text}",
        error_messages={"required": CONFIRM_MISSING},
    )


def with_confirmation(form_class, text: str):
    """`form_class` with the binding step's confirmation box as its last field."""
    base = ConfirmOnly if form_class is NoInput else form_class
    return type(
        f"Confirmed{base.__name__}", (base,), {CONFIRM_FIELD: confirmation_field(text)}
    )


def confirmed_form_class(form_class, instance, builder: str):
    """A binding act that is not a transition — a record form (an appeal's
    filing and mailing, a notice's service), a document's issue, a warrant
    application's start: `form_class` (or `NoInput`, for an act that asks for
    nothing else) with the same "I confirm: …" box, in the words of
    `kernel.confirmations` builder `builder`. Unticked, the form is invalid and
    `attempt` does nothing, keeping the user's input."""
    return with_confirmation(form_class, confirm_text(instance, {"confirm": builder}))


def confirmation_form(instance, builder: str, data=None, *, prefix: str):
    """The form of a binding act that asks for nothing but the confirmation."""
    return confirmed_form_class(NoInput, instance, builder)(data, prefix=prefix)


def step_form_class(obj, custom: dict, forms: dict):
    """The form class of the step whose transition carries `custom`: with the
    confirmation box when the step is binding."""
    form_class = forms.get(custom.get("form", "plain"), NoInput)
    if is_binding(custom):
        return with_confirmation(form_class, confirm_text(obj, custom))
    return form_class


def step_custom(obj, name: str) -> dict:
    """The `custom` of step `name` of `obj` from its present state ({} if none)."""
    method = transitions_of(type(obj)).get(name)
    meta = getattr(method, "_django_fsm", None)
    if meta is None:
        return {}
    field_name = meta.field if isinstance(meta.field, str) else meta.field.name
    state = getattr(obj, field_name)
    if not meta.has_transition(state):
        return {}
    return meta.get_transition(state).custom


def step_data(form) -> dict:
    """What the step's service is given: the form's data without the confirmation."""
    data = dict(getattr(form, "cleaned_data", None) or {})
    data.pop(CONFIRM_FIELD, None)
    return data


def action_forms(obj, user, forms: dict, *, bound=None, form_kwargs=None) -> list:
    """(action, form) for each step `user` may take on `obj` from here: the form
    is `forms[action.form_key]` (prefixed by the step's name), or `bound` — the
    submitted form of a refused step, with its errors and the user's input."""
    bound = bound or {}
    offered = []
    for action in actions(obj, user):
        form = bound.get(action.name)
        if form is None:
            form_class = step_form_class(obj, action.custom, forms)
            form = form_class(prefix=action.name, **(form_kwargs or {}))
        offered.append((action, form))
    return offered


def bind_step(request, obj, name: str, forms: dict, *, form_kwargs=None):
    """The step's form bound to the POST. 404 for a step the record does not have,
    403 for one the user's role may never take (whatever the state)."""
    method = transitions_of(type(obj)).get(name)
    if method is None:
        raise Http404("No such step.")
    meta = method._django_fsm
    if not any(t.has_perm(obj, request.user) for t in meta.transitions.values()):
        raise PermissionDenied("Your role does not allow that step.")
    # the transition from the state the record is in (its custom says whether it is
    # binding), else the first one (its form refuses the step, with words)
    field_name = meta.field if isinstance(meta.field, str) else meta.field.name
    state = getattr(obj, field_name)
    first = (
        meta.get_transition(state)
        if meta.has_transition(state)
        else next(iter(meta.transitions.values()))
    )
    form_class = step_form_class(obj, first.custom, forms)
    return form_class(
        request.POST, request.FILES or None, prefix=name, **(form_kwargs or {})
    )


def take_step(request, record, name: str, forms: dict, steps: dict, page, **options):
    """The POST of one step of `record`'s state machine, for every workflow.

    Binds the step's form (`bind_step`; `form_kwargs=` are passed to it), runs
    `steps[name](form data, the state the user saw)` → (saved record, the words
    that say what happened). Done: those words, and the saved record's page.
    Not done: `page(bound={name: form})`, the record's page again with the form,
    its errors and the user's input (status 200)."""
    if name not in steps:
        raise Http404("No such step.")
    form = bind_step(
        request, record, name, forms, form_kwargs=options.get("form_kwargs")
    )
    seen = request.POST.get("expected_status") or None
    done = attempt(request, form, lambda: steps[name](step_data(form), seen))
    if done is None:
        return page(bound={name: form})
    saved, words = done
    messages.success(request, words)
    return redirect(saved.get_absolute_url())


def refusal_html(exc: Refused):
    """The refusal as a sentence, with a link to the page that fixes each reason."""
    links = [r for r in exc.reasons if r.url]
    if not links:
        return str(exc)
    return format_html(
        "{} {}",
        str(exc),
        format_html_join(
            " ", '<a href="{}">{}</a>', ((r.url, r.link_text) for r in links)
        ),
    )


def put_errors_on(form, error: ValidationError) -> None:
    """A service's ValidationError on the form (unknown keys: form-wide)."""
    if hasattr(error, "error_dict"):
        for field, errors in error.message_dict.items():
            form.add_error(field if field in form.fields else None, errors)
    else:
        form.add_error(None, error.messages)


def show_refusal(
    request, form, exc: ValidationError, *, on_changed=None, nothing="saved"
) -> None:
    """What the user reads of a refusal: a message, and on `form` (when given)
    the refused input by field or the sentence for the form as a whole.
    `nothing`: what did not happen, in the words of a document refused."""
    if isinstance(exc, CaseChangedError):
        messages.error(request, str(exc))
        if on_changed is not None:
            on_changed()
    elif isinstance(exc, Refused) and not exc.on_form:
        messages.error(request, refusal_html(exc))
    elif isinstance(exc, Refused) and exc.nothing_done:
        # The record would say less than the law requires: nothing was saved.
        messages.error(request, f"{exc}. Nothing was {nothing}.")
        if form is not None:
            form.add_error(None, str(exc))
    elif isinstance(exc, Refused) and not exc.fields:
        messages.error(request, refusal_html(exc))
        if form is not None:
            form.add_error(None, str(exc))
    elif form is None:
        messages.error(request, " ".join(exc.messages))
    else:
        put_errors_on(form, exc)
        messages.error(request, "Please correct the errors below.")


def refusal_errors(exc: ValidationError) -> dict[str, list[str]]:
    """A refusal as a page without a Django form shows it (the respondent's
    pages): messages by field, "" for the page as a whole."""
    if hasattr(exc, "error_dict"):
        return {
            "" if name == NON_FIELD_ERRORS else name: texts
            for name, texts in exc.message_dict.items()
        }
    return {"": exc.messages}


def attempt_errors(call) -> tuple[object, dict[str, list[str]]]:
    """`attempt` for a page without a Django form: (what `call()` returned, {})
    or (None, refusal_errors) when a service refused."""
    try:
        return call(), {}
    except ValidationError as exc:
        return None, refusal_errors(exc)


def attempt(request, form, call, *, success="", on_changed=None, nothing="saved"):
    """Validate `form` (when given), then run `call()`: the one place a
    service's refusal becomes a page (issue 30).

    Returns its result, or None when nothing happened: refused input goes on
    the form's fields; a refusal, a stale copy or a document that could not be
    made become a message (and a form error). The caller re-renders the form it
    passed, so the user's input is kept; `on_changed()` is called when the
    record changed under the user."""
    if form is not None and not form.is_valid():
        messages.error(request, "Please correct the errors below.")
        return None
    try:
        result = call()
    except ValidationError as exc:  # Refused, or a model's own validation
        show_refusal(request, form, exc, on_changed=on_changed, nothing=nothing)
        return None
    if success:
        messages.success(request, success)
    return result
