"""The one registry of document kinds, keyed by kind.

Each app owns the documents of its records: it declares, per kind, the facts
class (its contract and the legal checks on it), the record it documents (a
model label), the function that builds the facts from such a record, and
sample facts for the template preview. documents only holds the generic
machinery (FactsInvalid, this registry, rendering, issuing) and reads what is
registered here; it never imports another app's records.

    @register(
        EnforcementDocument.NOTICE_OF_VIOLATION,
        facts=NoticeOfViolationFacts,
        source="enforcement.noticeofviolation",
        sample=sample_notice_of_violation,
    )
    def notice_contract(notice) -> NoticeOfViolationFacts: ...

The kind itself (its value and name) is declared by the app too, in its
`document_kinds` module (contracts.register_document_kinds). The apps register
in their AppConfig.ready() (importing their documents module).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from kernel.roles import Role

from .contracts import (
    DocumentFacts,
    FactsInvalid,
    document_kind_values,
    is_document_kind,
)

Builder = Callable[[Any], DocumentFacts]


def _own_case(record):
    return getattr(record, "case", None)


def _own_party(record):
    """The party a record's document is addressed to: its recipient, appellant
    or party, or its notice's recipient; None for the office's own papers."""
    for name in ("recipient", "appellant", "party"):
        party = getattr(record, name, None)
        if party is not None:
            return party
    notice = getattr(record, "notice", None)
    return getattr(notice, "recipient", None) if notice is not None else None


def _no_copies(record) -> tuple:
    return ()


@dataclass
class DocumentType:
    """What one kind of document is made of."""

    kind: str
    facts: type[DocumentFacts]
    # model label ("enforcement.appeal") → the function building the facts from
    # such a record. Usually one; a test may add another.
    builders: dict[str, Builder] = field(default_factory=dict)
    sample: Callable[..., DocumentFacts] | None = None
    # The case a record's document is filed on (default: its own `case`).
    case_of: Callable[[Any], Any] = _own_case
    # The party the document is addressed to (default: _own_party).
    party_of: Callable[[Any], Any] = _own_party
    # The other parties sent a copy of the same letter (its cc line): they read
    # it on their own page too; none by default.
    copies_of: Callable[[Any], tuple] = _no_copies
    # Who may issue it: the Stormwater Management Officer's unless the app that
    # owns the kind says otherwise (R-ADM-1; the Board's papers are its clerk's).
    issuers: tuple[Role, ...] = (Role.SMO,)

    @property
    def template(self) -> str:
        return self.facts.template

    @property
    def rule_id(self) -> str:
        return self.facts.rule_id


_TYPES: dict[str, DocumentType] = {}


def register(
    kind: str,
    *,
    facts: type[DocumentFacts],
    source: str,
    sample: Callable[..., DocumentFacts] | None = None,
    case_of: Callable[[Any], Any] | None = None,
    party_of: Callable[[Any], Any] | None = None,
    copies_of: Callable[[Any], tuple] | None = None,
    issuers: tuple[Role, ...] | None = None,
):
    """Decorator: register the builder of `kind` from a `source` record (model
    label), with the kind's facts class, its sample facts and who may issue it."""
    kind = str(kind)
    if not is_document_kind(kind):
        raise ValueError(f"unknown document kind {kind!r}: declare it first")
    if facts.kind != kind:
        raise ValueError(f"{facts.__name__} is the facts of {facts.kind}, not {kind}")

    def decorator(build: Builder) -> Builder:
        entry = _TYPES.get(kind)
        if entry is None:
            entry = _TYPES[kind] = DocumentType(kind=kind, facts=facts)
        elif entry.facts is not facts:
            raise ValueError(f"{kind} is already registered with another facts class")
        entry.builders[source.lower()] = build
        if sample is not None:
            entry.sample = sample
        if case_of is not None:
            entry.case_of = case_of
        if party_of is not None:
            entry.party_of = party_of
        if copies_of is not None:
            entry.copies_of = copies_of
        if issuers is not None:
            entry.issuers = tuple(issuers)
        return build

    return decorator


def document_type(kind: str) -> DocumentType:
    """The registered kind; FactsInvalid for a kind no app registered."""
    entry = _TYPES.get(str(kind))
    if entry is None:
        raise FactsInvalid(kind, [f"unknown document kind {kind!r}"])
    return entry


def issuers_of(kind: str) -> tuple[Role, ...]:
    """The roles that may issue `kind` (none for a kind no app registered)."""
    entry = _TYPES.get(str(kind))
    return entry.issuers if entry is not None else ()


def facts_class(kind: str) -> type[DocumentFacts]:
    return document_type(kind).facts


def registered_kinds() -> tuple[str, ...]:
    return tuple(_TYPES)


def label_of(source) -> str:
    """The model label of a record (or of a ContentType)."""
    if hasattr(source, "app_label") and hasattr(source, "model"):
        return f"{source.app_label}.{source.model}"
    return source._meta.label_lower


def builder_for(kind: str, source) -> Builder | None:
    """The builder of `kind` from `source` (a record, a ContentType or a model
    label), or None when that record has no document of that kind."""
    entry = _TYPES.get(str(kind))
    if entry is None:
        return None
    label = source.lower() if isinstance(source, str) else label_of(source)
    return entry.builders.get(label)


def kinds_for(source) -> tuple[str, ...]:
    """The kinds of document a record (or model label) has, in the order the
    apps declared them."""
    label = source.lower() if isinstance(source, str) else label_of(source)
    return tuple(
        kind
        for kind in document_kind_values()
        if kind in _TYPES and label in _TYPES[kind].builders
    )


def build_facts(kind: str, source) -> DocumentFacts:
    """The facts of `kind` built from `source`; FactsInvalid when the record has
    no document of that kind or cannot make one."""
    build = builder_for(kind, source)
    if build is None:
        raise FactsInvalid(kind, [f"no {kind} document for a {label_of(source)}"])
    return build(source)


def case_of(kind: str, source):
    """The case the document of `kind` about `source` is filed on."""
    return document_type(kind).case_of(source)


def party_of(kind: str, source):
    """The party the document of `kind` about `source` is addressed to, or None."""
    return document_type(kind).party_of(source)


def copies_of(kind: str, source) -> tuple:
    """The parties sent a copy of the document of `kind` about `source`."""
    return tuple(document_type(kind).copies_of(source))


def sample_facts(kind: str) -> DocumentFacts:
    """Complete, valid example facts of `kind` (the template preview)."""
    entry = document_type(kind)
    if entry.sample is None:
        raise KeyError(kind)
    return entry.sample()


# What a paper to a party prints of its online access (the respondent's page,
# issue 18): set by the app that owns that page, above this one, in its
# AppConfig.ready() (STYLE.md, "Layers"). A function (facts, *, kind, case,
# source, actor) -> facts; without one, papers print no access code.
_online_access: Callable[..., DocumentFacts] | None = None


def register_online_access(provider: Callable[..., DocumentFacts]) -> None:
    global _online_access
    _online_access = provider


def with_online_access(facts: DocumentFacts, **about) -> DocumentFacts:
    """`facts` with the party's online access, when an app provides it."""
    if _online_access is None:
        return facts
    return _online_access(facts, **about)
