"""What every letter of enforcement shares: the signatories, the addressee's
lines, the facts common to every letter (issue 30: one module per letter)."""

from __future__ import annotations

from django.utils import timezone

from deadlines.services import open_deadline_for
from documents.contracts import Recipient, Signatory, village_contact

SMO_TITLE = "Stormwater Management Officer"
# The Board's papers (notice of hearing, decision, agenda) are signed once by the
# clerk for the Board: the title does not name the clerk again (issue 26).
CLERK_TITLE = "For the Board of Trustees"


def address_lines(address: str) -> tuple[str, ...]:
    return tuple(line.strip() for line in (address or "").splitlines() if line.strip())


def recipient_of(name: str, address: str) -> Recipient:
    return Recipient(name=name or "", address_lines=address_lines(address))


def person_name(user) -> str:
    if user is None:
        return ""
    return user.get_full_name() or user.get_username()


def smo_signatory(user) -> Signatory:
    return Signatory(name=person_name(user) or village_contact().name, title=SMO_TITLE)


def premises_address_of(case, premises=None) -> str:
    return str(premises or case.premises or case.location_description or "")


def today():
    return timezone.localdate()


def clerk_signatory() -> Signatory:
    """The signature block of the Board's papers: the Village Clerk, for the Board."""
    return Signatory(name="Village Clerk", title=CLERK_TITLE)


def common_facts(case, number, issued_on, recipient, signatory, contact=None) -> dict:
    return {
        "case_number": case.number,
        "document_number": number,
        "issued_on": issued_on,
        "recipient": recipient,
        "contact": contact or village_contact(),
        "signatory": signatory,
    }


def stored_deadline(notice, rule_id, purpose=""):
    """The notice's stored deadline of `rule_id` (and `purpose`): the open one,
    else the latest (met or waived later, the notice still printed it)."""
    found = open_deadline_for(notice, rule_id, purpose)
    if found is None:
        found = (
            notice.deadlines()
            .filter(rule_id=rule_id, purpose=purpose)
            .order_by("-id")
            .first()
        )
    return found
