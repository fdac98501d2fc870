"""Reading the one citation table (cases.Citation)."""

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
