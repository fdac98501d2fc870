"""The workflow kernel: the one way any record of this project changes state.

Every state machine (cases, field work, enforcement) is a django-fsm `status`
field whose transitions carry:
- `permission=` a role predicate from `kernel.roles`;
- `conditions=[...]`, each decorated with `guard` so it says, in words a user
  understands, why the step cannot be taken yet — and whether the step's own form
  supplies what it checks (`form=True`, checked on submit and answered with the
  form) or something else must be done first (`form=False`, shown beside a
  disabled button with a link to the page that does it);
- `custom={"label": …, "rule_id": …, "form": …}`: what the button says, the rule
  of RULES.md it applies, and which form collects its input; `"hidden": True` for
  a step another workflow fires (never a button); `"offered_if": "<predicate>"`
  for a step that applies only to some records of the machine (a case of one
  kind): not a button where the record's predicate is false (its guards still
  refuse it there, with words).

`actions(obj, user)` lists the buttons a page shows; `run(obj, name, …)` fires a
step: lock the row, check the version, check the role and the guards, fire, save,
write one chronology event and schedule the after-commit effects. A refusal is
always `Refused`, carrying its reasons; a stale copy is `CaseChangedError`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from django.core.exceptions import (
    NON_FIELD_ERRORS,
    ImproperlyConfigured,
    ValidationError,
)
from django.db import transaction
from django_fsm import ConcurrentTransition, TransitionNotAllowed

__all__ = [
    "Action",
    "CaseChangedError",
    "Reason",
    "Refused",
    "actions",
    "guard",
    "fire_locked",
    "lock",
    "reasons_not",
    "run",
    "transitions_of",
]


@dataclass(frozen=True)
class Reason:
    """Why a step cannot be taken: the words, the rule and where to fix it."""

    text: str
    rule_id: str = ""
    url: str = ""
    link_text: str = ""
    form: bool = False  # the step's own form supplies it

    def __str__(self) -> str:
        return self.text


class Refused(ValidationError):
    """The one refusal of the services (issue 30): a step, an edit or a record
    not allowed now, or input a service will not take. Every service a page
    calls says no with it or a subclass of it (CaseChangedError, DocumentError,
    FactsInvalid, ReportRefused, LockedRecordError); `kernel.actions.attempt`
    is the one place that turns it into a page.

    `reasons` say why (each with its rule id and, where something else must be
    done first, a link). Input refused (`Refused.invalid`) carries its messages
    by form field (NON_FIELD_ERRORS for the form as a whole), which a form puts
    on its fields. `str()` is the sentence a user reads. It is a Django
    ValidationError, so forms and model validation take it as their own
    (`message_dict`, `messages`). A subclass says how a page shows it
    (kernel.actions.show_refusal): `on_form` False, in the page's message only
    (a document that could not be made); `nothing_done` True, followed by
    "Nothing was saved." (facts that would not make a lawful document).

    The worker's JobRefused is one too (a job's work that cannot be done says so
    in a sentence the staff member reads on the job's page). Not a refusal of a
    person's request, so not this: the outbox's MessageNotNeeded, a backup's BackupError, Open311's wire-format
    errors."""

    on_form = True
    nothing_done = False

    def __init__(
        self,
        *reasons: Reason | str,
        lead: str = "",
        fields: dict[str, str | list[str]] | None = None,
    ):
        self.reasons = tuple(r if isinstance(r, Reason) else Reason(r) for r in reasons)
        self.lead = lead
        if fields:
            super().__init__(
                {
                    name: list(text) if isinstance(text, list | tuple) else [text]
                    for name, text in fields.items()
                }
            )
        else:
            super().__init__(self.sentence)

    @classmethod
    def invalid(cls, error: str | dict[str, str | list[str]]) -> Refused:
        """Input a service will not take: one message for the form as a whole, or
        {field: message or messages}."""
        if isinstance(error, dict):
            return cls(fields=error)
        return cls(fields={NON_FIELD_ERRORS: error})

    @property
    def fields(self) -> dict[str, list[str]]:
        """The refused input's messages by field ({} for a refusal of a step)."""
        return self.message_dict if hasattr(self, "error_dict") else {}

    @property
    def sentence(self) -> str:
        if hasattr(self, "error_dict"):
            return " ".join(self.messages)
        texts = "; ".join(r.text.rstrip(".") for r in self.reasons)
        if self.lead:
            return f"{self.lead} {texts}." if texts else self.lead
        return f"{texts[:1].upper()}{texts[1:]}." if texts else "Not allowed now."

    def __str__(self) -> str:
        return self.sentence


class CaseChangedError(Refused):
    """Someone else changed the record since the user loaded it."""

    default = "This record was changed by someone else. Review it and try again."

    def __init__(self, message: str | None = None, *, record=None):
        if message is None and record is not None:
            message = (
                f"This {record._meta.verbose_name} was changed by someone else. "
                "Review it and try again."
            )
        super().__init__(message or self.default)


def guard(
    text: str,
    *,
    form: bool = True,
    rule: str = "",
    fix: Callable | None = None,
    words: Callable | None = None,
):
    """Mark a side-effect-free FSM condition with what it says when it fails.

    `form=True`: the step's own form supplies what it checks (a date, a reason, a
    fine), so the button is offered and the check answers the submitted form.
    `form=False`: something else must happen first; the button is shown disabled
    with `text` and, if `fix(instance)` returns `(url, link text)`, a link.

    A section of the law is never typed into `text`: `{section}` stands for the
    section of `rule` and is read from the citation table when the reason is
    given (`guard("choose at least one requirement of {section}", rule="R-NOV-1")`).

    `words(instance)`, if given, says it for that record (a date to wait for);
    `text` stays the general statement (the transitions table).
    """
    if "{section}" in text and not rule:
        raise ValueError(f"guard {text!r} names {{section}} but no rule")

    def decorate(fn):
        fn.refusal = text
        fn.supplied_by_form = form
        fn.rule_id = rule
        fn.fix = fix
        fn.words = words
        return fn

    return decorate


@dataclass
class Action:
    """One button of a record's page: a transition this user may fire from here."""

    name: str
    label: str
    rule_id: str
    form_key: str
    target: str
    blocked_by: list[Reason] = field(default_factory=list)
    custom: dict = field(default_factory=dict)

    @property
    def enabled(self) -> bool:
        return not self.blocked_by


def transitions_of(model, field_name: str = "status") -> dict[str, object]:
    """name → django-fsm transition method of `model`'s state field."""
    fsm_field = model._meta.get_field(field_name)
    methods = fsm_field.transitions.get(model) or {}
    found = {}
    for method in methods.values():
        found[method.__name__] = method
    if not found:  # subclasses register on their concrete class only
        for klass, by_name in fsm_field.transitions.items():
            if issubclass(model, klass):
                found.update({m.__name__: m for m in by_name.values()})
    return found


def refusal_text(condition, instance=None) -> str:
    """What a failing guard says (for `instance`, if its guard has `words`), its
    `{section}` read from the citation table."""
    from .citations import cited

    text = getattr(condition, "refusal", None) or condition.__name__.replace("_", " ")
    words = getattr(condition, "words", None)
    if words is not None and instance is not None:
        text = words(instance) or text
    rule_id = getattr(condition, "rule_id", "")
    return cited(rule_id, text) if "{section}" in text else text


def _reason_for(condition, instance) -> Reason:
    text = refusal_text(condition, instance)
    url = link_text = ""
    fix = getattr(condition, "fix", None)
    if fix is not None:
        found = fix(instance)
        if found:
            url, link_text = found
    return Reason(
        text,
        rule_id=getattr(condition, "rule_id", ""),
        url=url,
        link_text=link_text,
        form=getattr(condition, "supplied_by_form", True),
    )


def _state(instance, field_name: str) -> str:
    return getattr(instance, field_name)


def _state_label(instance, field_name: str) -> str:
    return getattr(instance, f"get_{field_name}_display")()


def reasons_not(
    instance, name: str, user, *, field_name: str = "status", only_preconditions=False
) -> list[Reason]:
    """Why `user` may not fire `name` on `instance` now; [] when nothing stops it.

    The state, then the role, then every failing guard (all of them, so the user
    fixes everything at once). `only_preconditions` leaves out the guards the
    step's own form supplies (for deciding whether to offer the button)."""
    method = getattr(instance, name, None)
    meta = getattr(method, "_django_fsm", None)
    if meta is None:
        return [Reason(f"There is no step “{name}” for this record.")]
    state = _state(instance, field_name)
    if not meta.has_transition(state):
        return [
            Reason(
                f"that step is not possible while it is "
                f"“{_state_label(instance, field_name)}”"
            )
        ]
    transition = meta.get_transition(state)
    if not transition.has_perm(instance, user):
        return [Reason("your role does not allow that step")]
    found = []
    for condition in transition.conditions:
        if only_preconditions and getattr(condition, "supplied_by_form", True):
            continue
        if not condition(instance):
            found.append(_reason_for(condition, instance))
    return found


def actions(instance, user, *, field_name: str = "status") -> list[Action]:
    """The steps `user` may take on `instance` from its present state, as the state
    machine says: the role may fire it, it is not another workflow's step, and
    (if `blocked_by` is empty) nothing but its own form's input is missing."""
    state = _state(instance, field_name)
    offered = []
    for name, method in transitions_of(type(instance), field_name).items():
        meta = method._django_fsm
        if not meta.has_transition(state):
            continue
        transition = meta.get_transition(state)
        if transition.custom.get("hidden"):
            continue
        if not transition.has_perm(instance, user):
            continue
        offered_if = transition.custom.get("offered_if")
        if offered_if and not getattr(instance, offered_if)():
            continue
        offered.append(
            Action(
                name=name,
                label=transition.custom.get("label", name.replace("_", " ")),
                rule_id=transition.custom.get("rule_id", ""),
                form_key=transition.custom.get("form", "plain"),
                target=str(transition.target),
                blocked_by=reasons_not(
                    instance,
                    name,
                    user,
                    field_name=field_name,
                    only_preconditions=True,
                ),
                custom=dict(transition.custom),
            )
        )
    return offered


def chronology_links(instance):
    """(case, premises) a record's chronology entries belong to: what the record
    says itself (`chronology_links()`, the case: itself and its premises), else
    its `case` and `premises`, the case's premises when it names none."""
    own = getattr(instance, "chronology_links", None)
    if own is not None:
        return own()
    case = getattr(instance, "case", None)
    premises = getattr(instance, "premises", None)
    if premises is None and case is not None:
        premises = case.premises
    return case, premises


def describe(instance) -> str:
    """How the chronology names a record: "Inspection 12", "Case MS4-2026-0001"."""
    number = getattr(instance, "number", None) or instance.pk
    return f"{instance._meta.verbose_name.capitalize()} {number}"


def lock(
    instance,
    *,
    expected_status: str | None = None,
    expected_version: int | None = None,
    field_name: str = "status",
):
    """The record's row, locked for the caller's transaction; CaseChangedError
    when the copy the user saw (its state, its version) is no longer current."""
    locked = type(instance).objects.select_for_update().get(pk=instance.pk)
    if expected_status is not None and _state(locked, field_name) != expected_status:
        raise CaseChangedError(record=locked)
    counter = _edit_counter(locked)
    if (
        expected_version is not None
        and counter
        and getattr(locked, counter) != int(expected_version)
    ):
        raise CaseChangedError(record=locked)
    return locked


def _edit_counter(record) -> str | None:
    """The field a model counts its saved edits in, for the stale-copy check:
    `EDIT_COUNTER` on the model (a document's `version` is its edition, not this)."""
    return getattr(type(record), "EDIT_COUNTER", None)


def run(
    instance,
    name: str,
    *,
    actor,
    fields: dict | None = None,
    expected_status: str | None = None,
    expected_version: int | None = None,
    field_name: str = "status",
    event_kind: str = "transition",
    summary: Callable | None = None,
    detail: str = "",
    rule_id: str = "",
    public: bool = False,
    before: Callable | None = None,
    after: Callable | None = None,
    effects: Iterable[Callable] = (),
):
    """Fire step `name` on a locked copy of `instance` for `actor`.

    1. lock the row (`select_for_update`), refuse a stale copy (`expected_status`,
       `expected_version` — what the user saw) with CaseChangedError;
    2. set `fields` (what the user's form recorded with the step), then run
       `before(locked)` (checks that need the locked row; may raise Refused);
    3. check the role and every guard, raising Refused with all the reasons;
    4. fire the transition, count the edit (`EDIT_COUNTER`) where the model has one, save;
    5. write one chronology event (on the record's case and premises, with the
       record as its subject; `summary(label, from_label, to_label)` words it,
       `rule_id` overrides the step's own), apply the clock table's row for the
       step (`cases.clocks`, registered with `register_step_hook`: the deadlines it starts, meets, replaces and ends),
       then `after(locked)` in the same transaction (other workflows);
    6. schedule each of `effects(locked)` after commit (mail, render, reminders).

    Returns the saved copy. Nothing is saved when it raises."""
    try:
        with transaction.atomic():
            locked = lock(
                instance,
                expected_status=expected_status,
                expected_version=expected_version,
                field_name=field_name,
            )
            method = getattr(locked, name, None)
            if getattr(method, "_django_fsm", None) is None:
                raise Refused(f"There is no step “{name}” for this record.")
            for attribute, value in (fields or {}).items():
                setattr(locked, attribute, value)
            if before is not None:
                before(locked)
            refusals = reasons_not(locked, name, actor, field_name=field_name)
            if refusals:
                raise Refused(*refusals, lead="Not done:")
            from_status = _state(locked, field_name)
            from_label = _state_label(locked, field_name)
            meta = method._django_fsm.get_transition(from_status)
            method()
            counter = _edit_counter(locked)
            if counter:
                setattr(locked, counter, getattr(locked, counter) + 1)
            locked.save()
            _record_step(
                locked,
                name,
                meta,
                from_status=from_status,
                from_label=from_label,
                actor=actor,
                field_name=field_name,
                event_kind=event_kind,
                summary=summary,
                detail=detail,
                rule_id=rule_id,
                public=public,
            )
            # What the step does to the legal clocks: the clock table's row.
            _apply_step_hooks(locked, name, actor=actor)
            if after is not None:
                after(locked)
            for effect in effects:
                # robust: the change is committed; a failing effect (the broker
                # down) is logged, never an error page for what was saved.
                transaction.on_commit(_bind(effect, locked), robust=True)
    except ConcurrentTransition as exc:
        raise CaseChangedError(record=instance) from exc
    except TransitionNotAllowed as exc:
        raise Refused(str(exc)) from exc
    return locked


def _record_step(
    locked,
    name,
    meta,
    *,
    from_status,
    from_label,
    actor,
    field_name,
    event_kind,
    summary,
    detail,
    rule_id,
    public,
):
    """The one chronology event of a step (run, fire_locked)."""
    from .timeline import record_event

    case, premises = chronology_links(locked)
    label = meta.custom.get("label", name)
    now_label = _state_label(locked, field_name)
    if summary is None:
        text = f"{describe(locked)}: {label} ({from_label} → {now_label})"
    else:
        text = summary(label, from_label, now_label)
    record_event(
        case=case,
        premises=premises,
        actor=actor,
        kind=event_kind,
        summary=text,
        detail=detail,
        from_status=from_status,
        to_status=_state(locked, field_name),
        rule_id=rule_id or meta.custom.get("rule_id", ""),
        subject=locked,
        public=public,
    )


def fire_locked(
    locked,
    name: str,
    *args,
    actor=None,
    field_name: str = "status",
    event: bool = True,
    event_kind: str = "transition",
    summary: Callable | None = None,
    detail: str = "",
    rule_id: str = "",
):
    """Fire a system step (`custom={"hidden": True}`) on a row the caller has
    already locked in its own transaction, where `run`'s lock does not fit: a
    worker holding the row with SELECT … FOR UPDATE SKIP LOCKED while it talks
    to the mail server. Checks the state and the guards, fires (with `args`),
    saves and writes the step's event as `run` does; `event=False` when the
    caller writes the step's own event in its words (a reminder's "sent").
    Must run inside the caller's transaction. Raises Refused."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("fire_locked must run inside the lock's transaction")
    method = getattr(locked, name, None)
    if getattr(method, "_django_fsm", None) is None:
        raise Refused(f"There is no step “{name}” for this record.")
    refusals = reasons_not(locked, name, actor, field_name=field_name)
    if refusals:
        raise Refused(*refusals, lead="Not done:")
    from_status = _state(locked, field_name)
    from_label = _state_label(locked, field_name)
    meta = method._django_fsm.get_transition(from_status)
    try:
        method(*args)
    except TransitionNotAllowed as exc:
        raise Refused(str(exc)) from exc
    locked.save()
    if event:
        _record_step(
            locked,
            name,
            meta,
            from_status=from_status,
            from_label=from_label,
            actor=actor,
            field_name=field_name,
            event_kind=event_kind,
            summary=summary,
            detail=detail,
            rule_id=rule_id,
            public=False,
        )
    _apply_step_hooks(locked, name, actor=actor)
    return locked


# What a step means beyond its own record, run in the step's transaction right
# after its chronology entry: the clock table (cases.clocks.apply: the deadlines a
# step starts, meets, replaces and ends) registers here in cases' AppConfig.ready().
_STEP_HOOKS: list[Callable] = []


def register_step_hook(hook: Callable) -> None:
    """`hook(record, step_name, actor=...)` runs after every step (`run`, the
    system's `fire_locked`). Registering the same hook twice keeps one."""
    if hook not in _STEP_HOOKS:
        _STEP_HOOKS.append(hook)


def _apply_step_hooks(locked, name, *, actor) -> None:
    if not _STEP_HOOKS:
        # A step that skipped the clock table would leave a deadline running
        # (or none started): never silently.
        raise ImproperlyConfigured(
            "No step hook is registered (cases' AppConfig.ready registers the "
            "clock table)."
        )
    for hook in _STEP_HOOKS:
        hook(locked, name, actor=actor)


def _bind(effect, locked):
    return lambda: effect(locked)
