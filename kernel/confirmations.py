"""What a legally binding step does and starts, in words, for the confirmation its
form asks for (issue 16): the registry (issue 30).

A transition is binding when its `custom` says `"binding": True`; `"confirm"`
names a builder, which says what the step will do and the dates it starts. The
app that owns the step registers its builder (`@builder("notice_issue")`, in a
module its AppConfig.ready() imports): cases.confirmations, ledger.confirmations,
reporting.annual.confirmations. A binding step without a builder gets the
general sentence."""

from __future__ import annotations

from collections.abc import Callable

BUILDERS: dict[str, Callable[[object], str]] = {}


def builder(name: str):
    """Register the function that words the confirmation named `name`."""

    def register(fn):
        BUILDERS[name] = fn
        return fn

    return register


def is_binding(custom: dict) -> bool:
    return bool(custom.get("binding"))


def confirm_text(instance, custom: dict) -> str:
    """The sentence after "I confirm:" for a binding step of `instance`."""
    build = BUILDERS.get(custom.get("confirm", ""))
    if build is not None:
        return build(instance)
    label = custom.get("label", "this step")
    return (
        f"“{label}” is legally binding: it is recorded in the case file "
        "and cannot be undone from this page."
    )
