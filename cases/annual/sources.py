"""Counts of the annual report given by apps above cases (issue 27: the ledger's
money lines), registered in their AppConfig.ready() (STYLE.md, "Layers").

A part is a function (year, as_of) -> iterable of selectors.Count, as the
report's own parts are; annual_counts adds each after the enforcement counts."""

from collections.abc import Callable, Iterable

_PARTS: list[Callable] = []


def register(part: Callable) -> None:
    if part not in _PARTS:
        _PARTS.append(part)


def registered_parts() -> Iterable[Callable]:
    return tuple(_PARTS)
