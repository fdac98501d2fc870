"""Money still owed on a case, as the case's resolve guard asks it (issue 27).

The ledger sits above cases; it registers here, in LedgerConfig.ready(), the
function that says what is owed on a case (STYLE.md, "Layers"). Without it
nothing is owed, and the guard passes."""

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Owed:
    """One amount still owed: in words, with the page that settles it."""

    words: str
    url: str = ""


_SOURCES: list[Callable[[object], list[Owed]]] = []


def register(source: Callable[[object], list[Owed]]) -> None:
    if source not in _SOURCES:
        _SOURCES.append(source)


def owed_on(case) -> list[Owed]:
    """What is owed on `case`, neither paid, written off nor referred."""
    if getattr(case, "pk", None) is None:
        return []
    found = []
    for source in _SOURCES:
        found.extend(source(case))
    return found
