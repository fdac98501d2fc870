"""Posting a workflow step as the page's form does (issue 16): a legally binding
step's form carries its ticked "I confirm: …" box (`<step>-confirm`)."""

CONFIRM = "on"


def confirmed(step: str, data: dict | None = None, **more) -> dict:
    """`data` (+ `more`) with step `step`'s confirmation box ticked."""
    return {**(data or {}), **more, f"{step}-confirm": CONFIRM}


def case_confirmed(data: dict | None = None, **more) -> dict:
    """A case step's form (`cases:transition`, unprefixed) with its box ticked."""
    return {**(data or {}), **more, "confirm": CONFIRM}
