"""Reads shared by the panels of one page (issue 28).

The case page's panels and its transition guards ask the same questions of one
case: the resolve guard and the ledger panel both read its charges, the
enforcement panel, the respondent's panel and the appeal guard its notices and
appeals. A view that renders a read-only page marks its case with `share(case)`;
then each of those reads runs once for that instance and the others use its
result. An unmarked instance (every service, every write) reads afresh, so a
write never decides on what a panel loaded earlier.

A read belongs to the app that owns its tables: an upper app (enforcement,
ledger) registers its loader here in `AppConfig.ready()` (STYLE.md, "Layers"), so
a lower one (the case's guards) can ask by name without importing it."""

from collections.abc import Callable

_ATTR = "_shared_page_reads"
_LOADERS: dict[str, Callable] = {}


def share(obj):
    """Mark `obj` (a case loaded for a read-only page): its shared reads run
    once. Returns `obj`."""
    if getattr(obj, _ATTR, None) is None:
        setattr(obj, _ATTR, {})
    return obj


def is_shared(obj) -> bool:
    return getattr(obj, _ATTR, None) is not None


def once(obj, key: str, load: Callable):
    """`load()`, once per marked instance; on an unmarked one, every time."""
    cache = getattr(obj, _ATTR, None)
    if cache is None:
        return load()
    if key not in cache:
        cache[key] = load()
    return cache[key]


def register(key: str, load: Callable) -> None:
    """An upper app's read of a case, asked by name (`read`)."""
    _LOADERS[key] = load


# The page's one presence query: which record sets of the case have rows
# (registered by cases, `cases.selectors._presence_of`).
PRESENCE = "panel_presence"


def has_records(obj, key: str) -> bool:
    """False only when the page's presence query found no `key` rows of `obj`
    (True off such a page: the caller reads them)."""
    return (read(obj, PRESENCE) or {}).get(key, True)


def read(obj, key: str):
    """The registered read `key` of `obj` (once per marked instance); None when
    no app registered it or `obj` is not marked (the caller asks the database
    its own way)."""
    load = _LOADERS.get(key)
    if load is None or getattr(obj, _ATTR, None) is None:
        return None
    return once(obj, key, lambda: load(obj))
