"""Sample facts for every kind: the staff's template preview, the demo and tests.

Each app writes the samples of its own kinds (enforcement.documents,
inspections.documents) from the building blocks here and registers them with
documents.registry; `sample_facts(kind)` reads the registry.

The dates here are examples typed by hand, not computed: a real document gets its
dates from stored deadlines (deadlines)."""

import datetime as dt

from django.utils import timezone

from .contracts import Recipient, Signatory, village_contact
from .registry import sample_facts  # noqa: F401  (the one way to get a sample)

SAMPLE_ISSUED_ON = dt.date(2026, 3, 2)
SAMPLE_RECIPIENT = Recipient(
    name="Pat Example", address_lines=("12 Sample Lane", "Poquott, NY 11733")
)
SAMPLE_PREMISES = "12 Sample Lane, Poquott, NY 11733"
SAMPLE_SMO = Signatory(name="Sam Officer", title="Stormwater Management Officer")


def sample_common(case_number="MS4-2026-0001", number="", **extra) -> dict:
    """The facts every sample shares (case, date, recipient, contact, signatory)."""
    return {
        "case_number": case_number,
        "document_number": number,
        "issued_on": SAMPLE_ISSUED_ON,
        "recipient": SAMPLE_RECIPIENT,
        "contact": village_contact(),
        "signatory": SAMPLE_SMO,
        **extra,
    }


def sample_moment() -> dt.datetime:
    """The sample time of an event (a suspension, an inspection)."""
    return dt.datetime(2026, 3, 1, 14, 30, tzinfo=timezone.get_current_timezone())
