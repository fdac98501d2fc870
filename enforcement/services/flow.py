"""Running one transition of a notice or an appeal: `kernel.workflow.run`, with the
enforcement chronology's event kind ("Notice of violation 3: Issue the notice
(Draft → Issued)", the kernel's wording)."""

from collections.abc import Callable

from kernel.workflow import CaseChangedError, Refused, run

__all__ = ["CaseChangedError", "Refused", "run_step"]


def run_step(
    *,
    obj,
    transition: str,
    actor,
    fields: dict | None = None,
    event_kind: str = "enforcement",
    detail: str = "",
    expected_status: str | None = None,
    before: Callable | None = None,
    after: Callable | None = None,
    effects=(),
):
    """Fire `transition` on a locked copy of `obj` for `actor` (kernel.workflow.run).

    `fields` are set on the row first (what the user recorded with the step).
    `after(locked)` runs in the same transaction, after the save and the event
    (deadlines, other workflows). Returns the saved copy. Raises Refused (with
    the reasons) or CaseChangedError; on either nothing is saved."""
    return run(
        obj,
        transition,
        actor=actor,
        fields=fields,
        expected_status=expected_status,
        event_kind=event_kind,
        detail=detail,
        before=before,
        after=after,
        effects=effects,
    )
