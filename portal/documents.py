"""The respondent's page on a party's papers: the short address, the party's
access code and a QR code of the address (issue 18)."""

from __future__ import annotations

import dataclasses

from django.urls import reverse

from documents import registry
from documents.contracts import DocumentFacts, OnlineAccess
from kernel.site_url import site_url

from .services import code_for_document


def portal_address() -> str:
    """The address printed on paper: the site's served name and /respond/."""
    return site_url() + reverse("portal:enter")


def with_online_access(
    facts: DocumentFacts, *, kind, case, source, actor
) -> DocumentFacts:
    """`facts` with the party's live code (issued now if the party has none),
    when the document of `kind` about `source` is addressed to a party."""
    try:
        party = registry.party_of(kind, source)
        copies = registry.copies_of(kind, source)
    except Exception:  # a kind no app registered (a test's own): no party
        party, copies = None, ()
    if party is None or not getattr(party, "pk", None):
        return facts
    if copies:
        # The same paper goes to another party too (its cc line): a code opens
        # one party's own records, so none is printed; each reads the letter on
        # the page their own code opens.
        return facts
    access = code_for_document(case=case, party=party, actor=actor)
    return dataclasses.replace(
        facts, online=OnlineAccess(address=portal_address(), code=access.printed)
    )
