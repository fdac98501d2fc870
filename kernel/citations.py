"""Reading the one citation table (kernel.Citation).

`citation(rule_id)` is the row (raises UnknownCitation); `section_of(rule_id)` is
its section for a message or a page, the rule id itself when the row is missing;
`cite(rule_id, text)` is the same, lazily, for words written at import time (form
labels, help texts, choices): `text` with `{section}` filled in when the words are
shown, so no page types "§ 132-…" and none fails at import for a missing row."""

from django.utils.functional import lazy

from .models import Citation


class UnknownCitation(LookupError):
    pass


def citation(rule_id: str) -> Citation:
    try:
        return Citation.objects.get(rule_id=rule_id)
    except Citation.DoesNotExist:
        raise UnknownCitation(f"No citation for {rule_id}") from None


def citations(*rule_ids: str) -> dict[str, Citation]:
    """The citations of `rule_ids`, keyed by rule id (one query)."""
    found = {c.rule_id: c for c in Citation.objects.filter(rule_id__in=rule_ids)}
    missing = set(rule_ids) - set(found)
    if missing:
        raise UnknownCitation(f"No citation for {', '.join(sorted(missing))}")
    return found


def section_of(rule_id: str) -> str:
    """`section_of("R-NOV-1")` → "§ 132-13 A"; the rule id if the table lacks it."""
    try:
        return citation(rule_id).section
    except UnknownCitation:
        return rule_id


def cited(rule_id: str, text: str = "{section}") -> str:
    """`text` with `{section}` replaced by the section of `rule_id`."""
    return text.replace("{section}", section_of(rule_id))


_lazy_cited = lazy(cited, str)


def cite(rule_id: str, text: str = "{section}"):
    """`cited`, read from the table only when the words are shown (a lazy
    string): `cite("R-NOV-1", "Choose at least one requirement of {section}.")`."""
    return _lazy_cited(rule_id, text)
