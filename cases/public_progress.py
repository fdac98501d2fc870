"""What a case's progress means to a resident who reported it: the case app's
part of intake's public statuses (intake.public_status.CaseProgress), registered
in CasesConfig.ready(). The status page, the status-change e-mails and Open311
read it; never the case number, names, contacts or staff-only entries."""

from django.contrib.contenttypes.models import ContentType
from django.db.models import F

from intake import public_status
from intake.models import Report
from intake.public_status import PublicUpdate
from kernel.lookups import AnyOf
from kernel.models import CaseEvent

from .models import CaseStatus, EventKind, Note

STATUSES = {
    CaseStatus.NEW: public_status.RECEIVED,
    CaseStatus.INVESTIGATING: public_status.INVESTIGATING,
    CaseStatus.VIOLATION_CONFIRMED: public_status.BEING_ADDRESSED,
    CaseStatus.ENFORCEMENT: public_status.BEING_ADDRESSED,
    CaseStatus.RESOLVED: public_status.RESOLVED,
    CaseStatus.UNFOUNDED: public_status.NOT_A_VIOLATION,
    CaseStatus.EXEMPT: public_status.NOT_A_VIOLATION,
    CaseStatus.REFERRED: public_status.REFERRED,
    CaseStatus.DUPLICATE: public_status.COMBINED,
}

OPENED_TEXT = (
    "The Stormwater Management Officer reviewed your report and opened a file."
)


def words(case) -> str | None:
    """How a closed case's own facts say what happened (the kind of discharge
    the law allows, the agency it went to); None: its status's explanation."""
    if case.status == CaseStatus.UNFOUNDED:
        return (
            "Closed: the officer looked into your report and found no illicit "
            "discharge."
        )
    if case.status == CaseStatus.EXEMPT:
        category = case.exempt_category
        if category is not None:
            return (
                "Closed: the discharge is of a kind the law allows: "
                f"{category.plain_description}."
            )
        return (
            "Closed: the discharge is allowed by a written approval or a permit "
            "in force."
        )
    if case.status == CaseStatus.REFERRED and case.referred_to.strip():
        return (
            f"Referred to {case.referred_to.strip()}: that agency handles this "
            "kind of problem, and the officer passed your report on."
        )
    return None


def updates(case, report) -> list[PublicUpdate]:
    """The public entries of `case` for a resident who reported `report`: the
    case opened, public status changes (with the reason only where staff chose
    to share it), `report` combined into it when its case was merged, and public
    notes."""
    found = []
    events = CaseEvent.objects.filter(
        case=case,
        public=True,
        kind__in=[EventKind.OPENED, CaseEvent.Kind.TRANSITION],
    ).only("at", "kind", "to_status", "detail")
    for event in events:
        if event.kind == EventKind.OPENED:
            found.append(PublicUpdate(event.at, OPENED_TEXT))
            continue
        status = STATUSES.get(event.to_status)
        if status is None:
            continue
        found.append(PublicUpdate(event.at, status.label, event.detail))
    # A report moved here when its case was merged as a duplicate: its own
    # entry, public, says the reports were combined (never the entry's words).
    combined = CaseEvent.objects.filter(
        case=case,
        kind=EventKind.REPORT,
        public=True,
        content_type=ContentType.objects.get_for_model(Report),
        object_id=report.pk,
    ).only("at")
    for event in combined:
        found.append(
            PublicUpdate(
                event.at,
                public_status.COMBINED.label,
                public_status.COMBINED.explanation,
            )
        )
    for text, created_at in public_notes({case.pk}).get(case.pk, []):
        found.append(PublicUpdate(created_at, "Note from the officer", text))
    return found


def public_notes(case_ids: set[int]) -> dict:
    """{case id: [(text, created_at), ...]} of the cases' public notes, oldest
    first, in one query (the Open311 list: the ids of ~700 cases as one
    parameter, kernel.lookups.AnyOf)."""
    notes = {}
    for case_id, text, created_at in (
        Note.objects.filter(AnyOf(F("case_id"), case_ids), public=True)
        .order_by("created_at", "pk")
        .values_list("case_id", "text", "created_at")
    ):
        notes.setdefault(case_id, []).append((text, created_at))
    return notes


PROGRESS = public_status.CaseProgress(
    statuses=STATUSES,
    merged=CaseStatus.DUPLICATE,
    words=words,
    updates=updates,
    public_notes=public_notes,
)
