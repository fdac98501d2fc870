"""Where the facts of a draft come from: each app registers, per kind, a function
that builds the contract from its own record (a notice, an appeal…), so the
preview page can show a draft before it is issued.

    @register_facts_builder(DocumentKind.NOTICE_OF_VIOLATION, "enforcement.notice")
    def notice_facts(notice) -> NoticeOfViolationFacts: ...
"""

from collections.abc import Callable

from .contracts import DocumentFacts

_BUILDERS: dict[tuple[str, str], Callable[[object], DocumentFacts]] = {}


def register_facts_builder(kind: str, model_label: str):
    def decorator(fn):
        _BUILDERS[(str(kind), model_label.lower())] = fn
        return fn

    return decorator


def facts_builder(kind: str, model_label: str):
    return _BUILDERS.get((str(kind), model_label.lower()))
