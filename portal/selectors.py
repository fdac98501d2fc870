"""What the respondent's page shows: that party's own records of the case only
(never the reporter, other parties, internal notes or evidence)."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import QuerySet

from deadlines.models import CLOSED_WITHOUT_DUTY, Deadline
from documents import registry
from documents.models import IssuedDocument
from kernel.citations import cited
from kernel.compiled import CompiledQuery


@dataclass
class NoticeView:
    notice: object
    documents: list = field(default_factory=list)
    deadlines: list = field(default_factory=list)
    appeal: object = None
    appeal_documents: list = field(default_factory=list)
    next_steps: str = ""
    may_appeal: bool = False
    appeal_last_day: object = None
    # In force and unappealed by this party, yet barred (another party's appeal).
    appeal_barred: bool = False
    # Proof of correction: what the party sent on this notice, and whether the
    # notice still requires its work (so that proof may be sent).
    corrections: list = field(default_factory=list)
    may_send_proof: bool = False


def documents_for(access) -> list[IssuedDocument]:
    """The issued documents of the case addressed to the party, or sent to them
    in copy, newest first."""
    out = []
    docs = (
        IssuedDocument.objects.filter(
            case=access.case, status=IssuedDocument.Status.ISSUED
        )
        .select_related("content_type")
        .order_by("-created_at", "-id")
    )
    for doc in docs:
        try:
            party = registry.party_of(doc.kind, doc.source)
            copies = registry.copies_of(doc.kind, doc.source)
        except Exception:  # a kind no app registered: not the party's
            continue
        readers = {p.pk for p in (party, *copies) if p is not None}
        if access.party_id in readers:
            out.append(doc)
    # Each paper once: a version that a newer one replaced (a corrected notice,
    # a notice of hearing issued again) says which one replaced it.
    newer = {d.supersedes_id: d for d in out if d.supersedes_id}
    for doc in out:
        doc.replaced_by = newer.get(doc.pk)
    return out


def _current(docs):
    """The papers no newer version replaced (the one link a card shows)."""
    return [d for d in docs if getattr(d, "replaced_by", None) is None]


def document_for(access, pk: int) -> IssuedDocument | None:
    return next((d for d in documents_for(access) if d.pk == pk), None)


def _concerning_the_party(qs):
    """Deadlines the party must meet, or that run for them (the appeal period):
    the current date of each obligation only, never one that was replaced (by
    the correction date after the Board's decision), waived or ended."""
    return (
        qs.filter(responsible=Deadline.Responsible.DISCHARGER)
        .exclude(status__in=CLOSED_WITHOUT_DUTY)
        .order_by("due_date", "id")
    )


def notices_for(access) -> list[NoticeView]:
    from enforcement.models import AppealStatus, NoticeOfViolation, NoticeStatus
    from enforcement.models.notices import CORRECTABLE

    from .corrections import corrections_of

    notices = (
        NoticeOfViolation.objects.filter(case=access.case, recipient=access.party)
        .exclude(status=NoticeStatus.DRAFT)
        .prefetch_related("requirements")
        .order_by("issued_on", "id")
    )
    docs = documents_for(access)
    sent = list(corrections_of(access))
    rows = []
    for notice in notices:
        row = NoticeView(notice=notice)
        row.corrections = [c for c in sent if c.notice_id == notice.pk]
        row.may_send_proof = notice.status in CORRECTABLE
        row.documents = _current(
            d
            for d in docs
            if d.content_type.model == "noticeofviolation" and d.object_id == notice.pk
        )
        row.deadlines = list(_concerning_the_party(notice.deadlines()))
        row.appeal = (
            notice.appeals.filter(appellant=access.party)
            .exclude(status=AppealStatus.WITHDRAWN)
            .first()
        )
        if row.appeal is not None:
            row.appeal_documents = _current(
                d
                for d in docs
                if d.content_type.model == "appeal" and d.object_id == row.appeal.pk
            )
        row.may_appeal = notice.can_be_appealed()
        if row.may_appeal:
            from enforcement.services.appeals import appeal_due_date

            row.appeal_last_day = appeal_due_date(notice)
        else:
            from enforcement.models.notices import APPEALABLE

            row.appeal_barred = row.appeal is None and notice.status in APPEALABLE
        row.next_steps = next_steps(notice, row)
        rows.append(row)
    return rows


def next_steps(notice, row: NoticeView) -> str:
    """What happens if nothing is done, in plain words (§§ 132-13 B, 132-14,
    132-15)."""
    from enforcement.models import NoticeStatus

    if notice.status == NoticeStatus.COMPLIED:
        return (
            "The office has recorded that this notice was complied with. Nothing "
            "more is required by it."
        )
    if notice.status == NoticeStatus.CLOSED:
        return "The case was closed, so this notice requires nothing more of you."
    if notice.status == NoticeStatus.WITHDRAWN:
        return "This notice was withdrawn. Nothing is required by it."
    if notice.status == NoticeStatus.SUPERSEDED:
        return "This notice was replaced by a corrected one; follow the newer notice."
    if (
        row.appeal is not None
        and row.appeal.decision
        and notice.status
        in (
            NoticeStatus.ISSUED,
            NoticeStatus.NOT_COMPLIED,
        )
    ):
        return cited(
            "R-COR-1",
            "The Board of Trustees decided your appeal (see its decision). If the "
            "SMO's determination was upheld, the work must be done within five "
            "business days of the decision; otherwise the Stormwater Management "
            "Officer may ask your permission to enter and do it, at your cost "
            "({section}).",
        )
    if row.appeal is not None and not row.appeal.decision:
        return (
            "Your appeal is before the Board of Trustees. The Board hears it and "
            "decides; the decision is filed with the village clerk and mailed to "
            "you by certified mail."
        )
    return (
        cited(
            "R-COR-1",
            "If the work the notice requires is not done by its date, the Stormwater "
            "Management Officer may ask your permission to enter the premises and do "
            "it, at your cost ({section}); ",
        )
        + cited(
            "R-COR-2",
            "where access is refused, the officer may seek a court order ({section}). ",
        )
        + cited(
            "R-PEN-4",
            "Each week the violation continues counts as a separate violation, with "
            "its own penalty ({section}).",
        )
    )


def contact_requests_of(access):
    """The party's requests to change its contact details on the case, newest
    first (whichever of its codes sent them)."""
    from .models import ContactChangeRequest

    return ContactChangeRequest.objects.filter(
        access__case_id=access.case_id, access__party_id=access.party_id
    ).select_related("access")


@dataclass
class PartyAccessRow:
    party: object
    live: object = None
    earlier: list = field(default_factory=list)
    contact_requests: list = field(default_factory=list)
    corrections: list = field(default_factory=list)  # proofs sent, waiting first
    online_appeals: list = field(default_factory=list)


def staff_panel(case) -> list[PartyAccessRow]:
    """Per party of the case: the live code (issued / used) and earlier ones
    (revoked), for the case page."""
    from cases.selectors import case_recipients_listed, has_panel_records
    from enforcement.selectors import case_notices

    from .models import (
        ContactChangeRequest,
        ContactChangeStatus,
        CorrectionSubmission,
        PortalAccess,
    )

    # Only the kinds of record the case has (its page asked in one query).
    accesses, pending, sent = [], [], []
    if has_panel_records(case, "portal_accesses"):
        accesses = list(
            PortalAccess.objects.filter(case=case).select_related("party", "issued_by")
        )
    if accesses and has_panel_records(case, "contact_requests"):
        pending = list(
            ContactChangeRequest.objects.filter(
                access__case=case, status=ContactChangeStatus.PENDING
            ).select_related("access")
        )
    if accesses and has_panel_records(case, "corrections"):
        sent = sorted(
            CorrectionSubmission.objects.filter(access__case=case)
            .select_related("access", "notice", "decided_by")
            .prefetch_related("files"),
            key=lambda c: (not c.is_pending, c.submitted_at),
        )
    # the notices and parties the case page reads anyway (kernel.page_reads)
    online = sorted(
        (
            appeal
            for notice in case_notices(case)
            for appeal in notice.appeals.all()
            if appeal.filed_online
        ),
        # as the database orders them: by time received, any without one last
        key=lambda a: (
            a.received_at is None,
            a.received_at.timestamp() if a.received_at else 0,
            a.pk,
        ),
    )
    rows = []
    for party in case_recipients_listed(case):
        mine = [a for a in accesses if a.party_id == party.pk]
        rows.append(
            PartyAccessRow(
                party=party,
                live=next((a for a in mine if a.is_live), None),
                earlier=[a for a in mine if not a.is_live],
                contact_requests=[r for r in pending if r.access.party_id == party.pk],
                corrections=[c for c in sent if c.access.party_id == party.pk],
                online_appeals=[a for a in online if a.appellant_id == party.pk],
            )
        )
    return rows


def case_portal_sets(case) -> dict:
    """The portal's records on the case page, registered with its presence
    query (cases.selectors.register_panel_records, PortalConfig.ready())."""
    from .models import (
        ContactChangeRequest,
        ContactChangeStatus,
        CorrectionSubmission,
        PortalAccess,
    )

    return {
        "portal_accesses": PortalAccess.objects.filter(case=case),
        "contact_requests": ContactChangeRequest.objects.filter(
            access__case=case, status=ContactChangeStatus.PENDING
        ),
        "corrections": CorrectionSubmission.objects.filter(access__case=case),
    }


QUEUE_ROWS = 10
# What the queue prints of a request (portal/_respondents_queue.html): when it
# was sent, by whom, on which case. Naming them spares the ORM compiling every
# column of three tables: 3.0 -> 2.1 ms for the two lists (bench/NOTES.md).
QUEUE_FIELDS = (
    "status",
    "submitted_at",
    "access__party__name",
    "access__case__number",
    "access__case__status",  # read when a case is loaded (its state machine)
)


def _changes_waiting() -> QuerySet:
    from .models import ContactChangeRequest, ContactChangeStatus

    return (
        ContactChangeRequest.objects.filter(status=ContactChangeStatus.PENDING)
        .select_related("access__party", "access__case")
        .only(*QUEUE_FIELDS)
        .order_by("submitted_at", "id")
    )


def _proofs_waiting() -> QuerySet:
    from .corrections import waiting_review

    return (
        waiting_review()
        .select_related(None)
        .select_related("access__party", "access__case")
        .only("notice", *QUEUE_FIELDS)
    )


# The queue's two heads, each compiled once (kernel.compiled).
_CHANGES_HEAD = CompiledQuery(lambda: _changes_waiting()[:QUEUE_ROWS])
_PROOFS_HEAD = CompiledQuery(lambda: _proofs_waiting()[:QUEUE_ROWS])


def respondents_queue() -> dict:
    """What respondents sent from their pages for the SMO to deal with (the
    dashboard): proofs of correction to review and contact details to confirm,
    oldest first, the first QUEUE_ROWS of each with their counts."""
    from cases.selectors import head_and_count

    proof_rows, proof_count = head_and_count(
        _proofs_waiting(), QUEUE_ROWS, _PROOFS_HEAD
    )
    change_rows, change_count = head_and_count(
        _changes_waiting(), QUEUE_ROWS, _CHANGES_HEAD
    )
    return {
        "proofs_waiting": proof_rows,
        "proofs_waiting_count": proof_count,
        "contact_changes_waiting": change_rows,
        "contact_changes_waiting_count": change_count,
    }
