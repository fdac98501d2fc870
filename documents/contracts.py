"""The generic parts of a document's plain-data contract: the kinds' table, what every
document carries, the legal check before rendering (FactsInvalid), and the JSON
frozen on the IssuedDocument row.

Each app owns the facts of its own documents (enforcement.documents: the notice
of violation, suspension and termination letters, corrective measures, the
Board's decision; inspections.documents: the inspection report and the warrant
cover sheet), builds them from its own records and registers them with
documents.registry. Nothing here reads those records: the contract is the
boundary, and what is issued is frozen as the contract's JSON.

Rules the law imposes on a document's content (RULES.md) are each facts class's
`problems()`, checked by `validate_facts` before anything is rendered; a
document that would say less than the law requires is refused with a clear
message (FactsInvalid).

Dates are facts: every legal date (the last day to appeal, a remediation
deadline…) comes from a stored Deadline (deadlines), never from arithmetic
in a contract. Words of the law come from the citation table (kernel.Citation),
never from the contracts or the templates; `relied_on()` names the rows a
document prints.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import types
import typing
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import ClassVar

from django.conf import settings
from django.db import models

from kernel.humanize import human_long_date
from kernel.workflow import Refused

# The kinds of document, each registered by the app that owns it (its
# TextChoices, in the module `<app>/document_kinds.py`): the pipeline knows none
# by name.
_KINDS: dict[str, str] = {}


def register_document_kinds(kinds) -> None:
    """Add an app's kinds of document ((value, label) pairs: its
    TextChoices.choices), in the order its pages list them."""
    _KINDS.update(dict(kinds))


def document_kinds() -> list[tuple[str, str]]:
    """(value, label) of every registered kind: the issued copy's choices."""
    return list(_KINDS.items())


def document_kind_values() -> tuple[str, ...]:
    return tuple(_KINDS)


def is_document_kind(kind) -> bool:
    return str(kind) in _KINDS


def kind_label(kind) -> str:
    """What a kind of document is called ("Notice of violation")."""
    return _KINDS.get(str(kind), str(kind))


class FactsInvalid(Refused):
    """The facts do not make a lawful document; `problems` says what is missing."""

    nothing_done = True

    def __init__(self, kind: str, problems: list[str]):
        self.kind = kind
        self.problems = problems
        self.text = f"Cannot render the {kind_label(kind)}: " + "; ".join(problems)
        super().__init__(self.text)

    @property
    def sentence(self) -> str:
        return self.text


# --- shared parts ---------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class Recipient:
    """The addressee as frozen at issue (name and postal address lines)."""

    name: str
    address_lines: tuple[str, ...] = ()
    attention: str = ""


@dataclass(frozen=True, kw_only=True)
class Contact:
    """Whom to call about the document."""

    name: str
    phone: str
    email: str = ""


@dataclass(frozen=True, kw_only=True)
class Signatory:
    name: str
    title: str


def village_contact() -> Contact:
    """The Stormwater Management Officer's contact from settings.VILLAGE."""
    village = settings.VILLAGE
    return Contact(
        name=village["smo_name"], phone=village["smo_phone"], email=village["smo_email"]
    )


def clerk_office() -> str:
    """Where appeals are filed (settings.VILLAGE clerk_office)."""
    return settings.VILLAGE["clerk_office"]


def how_to_pay(reference: str) -> str:
    """To whom, how and where to pay an amount the Village asks (issue 27), from
    settings.VILLAGE: the one home of these words (the notice, the receipt, the
    respondent's page). The Village takes no payment online."""
    village = settings.VILLAGE
    return (
        f"Pay to the {village['payable_to']}, {village['payment_methods']}, at "
        f"the office of the {village['payment_office']} "
        f"({village['office_hours']}), or by mail to that address with a check "
        f"or money order. Quote {reference} with your payment."
    )


@dataclass(frozen=True, kw_only=True)
class OnlineAccess:
    """The respondent's page as printed on a party's document (issue 18): the
    short address, the party's access code, grouped, and a QR code of the
    address."""

    address: str
    code: str


@dataclass(frozen=True, kw_only=True)
class DocumentFacts:
    """What every document carries: the case, its own number and date, the
    recipient as frozen, whom to call and who signs."""

    kind: ClassVar[str]
    template: ClassVar[str]
    rule_id: ClassVar[str]  # the rule the document is issued under (timeline)
    base_rules: ClassVar[tuple[str, ...]] = ()
    # Whether the letter's online paragraph offers an appeal to the Board of
    # Trustees: only a notice of violation can be appealed, once (R-APL-1); a
    # decision, a request for access or an invoice invites none.
    invites_appeal: ClassVar[bool] = False

    case_number: str
    document_number: str
    issued_on: dt.date
    recipient: Recipient
    contact: Contact
    signatory: Signatory
    # Set when the document is issued to a party (portal.documents).
    online: OnlineAccess | None = None

    def relied_on(self) -> tuple[str, ...]:
        """The citation rows the document prints, in print order."""
        return self.base_rules

    def problems(self) -> list[str]:
        found = []
        for name in ("case_number", "document_number"):
            if not str(getattr(self, name) or "").strip():
                found.append(f"{name.replace('_', ' ')} is missing")
        if not isinstance(self.issued_on, dt.date):
            found.append("the date of issue is missing")
        if not self.recipient.name.strip():
            found.append("the recipient's name is missing")
        if not self.contact.name.strip() or not self.contact.phone.strip():
            found.append("whom to call (name and telephone) is missing")
        if not self.signatory.name.strip():
            found.append("the signatory is missing")
        return found

    def extra_context(self, cite: dict) -> dict:
        return {}


def after_issue(facts: DocumentFacts, day, what: str) -> list[str]:
    """The problem of a date (`what`) set before the document's date of issue."""
    if (
        isinstance(day, dt.date)
        and isinstance(facts.issued_on, dt.date)
        and day < facts.issued_on
    ):
        return [f"{what} ({human_long_date(day)}) is before the date of issue"]
    return []


def blank(value) -> bool:
    """True for a missing or whitespace-only fact."""
    return not str(value or "").strip()


def validate_facts(kind: str, facts: DocumentFacts) -> DocumentFacts:
    """Refuse (FactsInvalid) facts of the wrong type or that make an unlawful or
    incomplete document; return them unchanged otherwise."""
    from .registry import facts_class

    cls = facts_class(kind)  # FactsInvalid for an unknown kind
    if not isinstance(facts, cls):
        raise FactsInvalid(
            kind, [f"expected {cls.__name__}, got {type(facts).__name__}"]
        )
    problems = facts.problems()
    if problems:
        raise FactsInvalid(kind, problems)
    return facts


# --- JSON (the frozen copy on the IssuedDocument row) ------------------------------


def facts_to_json(facts: DocumentFacts) -> dict:
    """The facts as JSON-safe data: dates ISO, amounts as strings."""

    def convert(value):
        if dataclasses.is_dataclass(value):
            return {
                f.name: convert(getattr(value, f.name))
                for f in dataclasses.fields(value)
            }
        if isinstance(value, tuple | list):
            return [convert(v) for v in value]
        if isinstance(value, dt.date | dt.datetime):
            return value.isoformat()
        if isinstance(value, Decimal):
            return str(value)
        if isinstance(value, models.Choices):
            return value.value
        return value

    return convert(facts)


def facts_from_json(kind: str, data: dict) -> DocumentFacts:
    """Rebuild the contract of `kind` from facts_to_json's output (e.g. to start
    a correction from the issued facts)."""
    from .registry import facts_class

    return _from_json(facts_class(kind), data)


def _from_json(tp, value):
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        return None if value is None else _from_json(args[0], value)
    if origin is tuple:
        inner = typing.get_args(tp)[0]
        return tuple(_from_json(inner, v) for v in value)
    if dataclasses.is_dataclass(tp):
        hints = typing.get_type_hints(tp)
        return tp(
            **{
                f.name: _from_json(hints[f.name], value[f.name])
                for f in dataclasses.fields(tp)
                if f.name in value
            }
        )
    if tp is dt.datetime:
        return dt.datetime.fromisoformat(value)
    if tp is dt.date:
        return dt.date.fromisoformat(value)
    if tp is Decimal:
        try:
            return Decimal(value)
        except InvalidOperation:
            raise ValueError(f"not an amount: {value!r}") from None
    return value
