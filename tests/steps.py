"""Posting a workflow step as the page's form does (issue 16): a legally binding
step's form carries its ticked "I confirm: …" box (`<step>-confirm`)."""

CONFIRM = "on"


def confirmed(step: str, data: dict | None = None, **more) -> dict:
    """`data` (+ `more`) with step `step`'s confirmation box ticked."""
    return {**(data or {}), **more, f"{step}-confirm": CONFIRM}


def case_confirmed(data: dict | None = None, **more) -> dict:
    """A case step's form (`cases:transition`, unprefixed) with its box ticked."""
    return {**(data or {}), **more, "confirm": CONFIRM}


def tick_confirmation(page, step: str | None = None) -> None:
    """In a browser: tick the "I confirm: …" box of step `step`'s form (a
    workflow step) or of the case step page's form (`step=None`)."""
    name = f"{step}-confirm" if step else "confirm"
    page.locator(f'input[name="{name}"]').check()
