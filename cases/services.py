"""Writes to cases. Every status change goes through `case_run_transition`, which
locks the row, runs the FSM transition, saves and writes the timeline event in one
transaction. Views call these; nothing else changes a case's status.

Every write here bumps `Case.version`; callers pass the `expected_version` (and
`expected_status`) the user saw, and a stale form raises CaseChangedError with
nothing saved (issue 3: two officers at once, one wins)."""

from django.db import transaction
from django.utils import timezone

from intake.models import Report
from intake.services import notify_reporters_of_status_change
from kernel.humanize import human_datetime
from kernel.roles import Role, require_role
from kernel.timeline import record_event
from kernel.workflow import CaseChangedError, Refused, actions, lock, run

from .models import (
    Attachment,
    Case,
    CaseKind,
    CaseNumberSequence,
    CaseParty,
    CaseStatus,
    EventKind,
    Note,
    Party,
    Premises,
)

__all__ = ["CaseChangedError", "Refused"]


def next_case_number(year: int) -> str:
    """MS4-<year>-<nnnn>, numbered per year; takes a row lock on the year's counter."""
    CaseNumberSequence.objects.get_or_create(year=year)
    seq = CaseNumberSequence.objects.select_for_update().get(year=year)
    seq.last += 1
    seq.save(update_fields=["last"])
    return f"MS4-{year}-{seq.last:04d}"


def _require_writer(actor) -> None:
    require_role(actor, Role.SMO, doing="change cases")


@transaction.atomic
def case_open(*, actor, source: str, summary: str, **fields) -> Case:
    """Open a case (status "Opened, not yet investigated"). Who: SMO staff, or the system.

    `reports=[...]` attaches those triage-queue reports in the same transaction;
    `new_premises={address, tax_map_number, land_use}` records the premises too.
    Raises Refused if a report is already on a case."""
    pollutants = fields.pop("pollutant_categories", None)
    new_premises = fields.pop("new_premises", None)
    if new_premises:
        fields["premises"] = premises_create(actor=actor, **new_premises)
    reports = list(fields.pop("reports", None) or [])
    opened_at = fields.pop("opened_at", None) or timezone.now()
    case = Case(
        number=next_case_number(timezone.localtime(opened_at).year),
        source=source,
        summary=summary,
        opened_at=opened_at,
        opened_by=actor if getattr(actor, "is_authenticated", False) else None,
        **fields,
    )
    case.save()
    if pollutants:
        case.pollutant_categories.set(pollutants)
    record_event(
        case=case,
        actor=actor,
        kind="opened",
        summary=f"Case opened ({case.get_source_display()}): {summary}",
        to_status=case.status,
        rule_id=case.rule_id,
        public=True,
    )
    if reports:
        _attach_reports(case=case, reports=reports, actor=actor)
    return case


def _attach_reports(*, case: Case, reports, actor) -> list[Report]:
    """Attach triage-queue reports to `case` (caller holds the transaction)."""
    ids = [r.pk for r in reports]
    locked = list(
        Report.objects.select_for_update().filter(pk__in=ids).order_by("received_at")
    )
    taken = [r.tracking_code for r in locked if r.case_id is not None]
    if taken:
        raise Refused(
            "Already on a case (someone else triaged it): " + ", ".join(taken)
        )
    now = timezone.now()
    Report.objects.filter(pk__in=ids).update(case=case, attached_at=now)
    pollutant_ids = set()
    for report in locked:
        report.case, report.attached_at = case, now
        pollutant_ids.update(report.pollutant_categories.values_list("pk", flat=True))
        received = timezone.localtime(report.received_at)
        record_event(
            case=case,
            actor=actor,
            kind=EventKind.REPORT,
            summary=f"Report {report.tracking_code} ({report.get_channel_display()}, "
            f"received {human_datetime(received)}) added to the case",
            detail=report.description,
            subject=report,
        )
    if pollutant_ids:
        case.pollutant_categories.add(*pollutant_ids)
    notify_reporters_of_status_change(case)
    return locked


def case_attach_reports(*, case: Case, reports, actor) -> Case:
    """Attach reports waiting in triage to an existing case. Who: SMO staff.
    Raises Refused (role, report already on a case, duplicate case)."""
    _require_writer(actor)
    with transaction.atomic():
        locked = lock(case)
        if locked.status == CaseStatus.DUPLICATE:
            raise Refused(
                f"{locked.number} was merged into another case; attach to that one."
            )
        _attach_reports(case=locked, reports=reports, actor=actor)
    return locked


def case_open_from_reports(*, reports, actor, summary: str, **fields) -> Case:
    """Turn one or more triage reports into a new case. Who: SMO staff.
    The source is the first report's channel. Raises Refused."""
    _require_writer(actor)
    reports = sorted(reports, key=lambda r: r.received_at)
    if not reports:
        raise Refused("Choose at least one report.")
    first = reports[0]
    fields.setdefault("source", first.channel)
    fields.setdefault("description", first.description)
    if first.latitude is not None and "latitude" not in fields:
        fields["latitude"], fields["longitude"] = first.latitude, first.longitude
    if first.address and not fields.get("location_description"):
        fields["location_description"] = first.address[:200]
    return case_open(actor=actor, summary=summary, reports=reports, **fields)


def available_transitions(case: Case, user):
    """The steps `user` may take on `case` now (buttons), from the state machine."""
    return actions(case, user)


def case_run_transition(
    *,
    case: Case,
    transition: str,
    actor,
    reason: str = "",
    expected_status: str | None = None,
    expected_version: int | None = None,
    public: bool = False,
    **fields,
) -> Case:
    """Fire `transition` on `case` for `actor`, first setting `fields` on the case.

    Through the workflow kernel (`kernel.workflow.run`): `expected_status` /
    `expected_version` (what the user saw) guard against a concurrent change.
    Raises CaseChangedError or Refused; on either, nothing is saved."""
    run(
        case,
        transition,
        actor=actor,
        fields=fields,
        expected_status=expected_status,
        expected_version=expected_version,
        detail=reason,
        public=public,
        summary=lambda label, was, now: f"{label}: {was} → {now}",
        after=lambda locked: _after_case_step(locked, transition, actor),
    )
    case.refresh_from_db()
    return case


def _after_case_step(case: Case, transition: str, actor) -> None:
    notify_reporters_of_status_change(case)
    if transition == "resolve":
        # A resolved case asks nothing more of anyone: each notice still in
        # force closes with it (its clocks ended with the case's: cases.clocks).
        notices = getattr(case, "notices", None)
        for notice in notices.in_force() if notices is not None else ():
            run(
                notice,
                "close_with_case",
                actor=actor,
                event_kind="notice",
                detail=f"Case {case.number} resolved.",
            )


def case_merge_duplicate(
    *,
    case: Case,
    into: Case,
    actor,
    reason: str = "",
    expected_status: str | None = None,
    expected_version: int | None = None,
    public: bool = False,
) -> Case:
    """Close `case` as a duplicate of `into`: its reports move to `into`, its own
    timeline stays where it is, and both timelines say what happened. Each moved
    report's entry on `into` is public: its resident's status page says the
    reports were combined (intake.selectors.public_updates). `public`
    shows the step itself, with `reason`, as on any transition.

    Who: SMO staff. Raises Refused, CaseChangedError or Refused
    (merging into itself, or into a case that is itself a duplicate)."""
    if into.pk == case.pk:
        raise Refused("A case cannot be merged into itself.")
    with transaction.atomic():
        # Lock both rows, lower id first, so two opposite merges cannot deadlock.
        for pk in sorted([case.pk, into.pk]):
            Case.objects.select_for_update().get(pk=pk)
        target = Case.objects.get(pk=into.pk)
        if target.status == CaseStatus.DUPLICATE:
            raise Refused(
                f"{target.number} is itself a duplicate; merge into the case it "
                "was merged into."
            )
        case = case_run_transition(
            case=case,
            transition="mark_duplicate",
            actor=actor,
            reason=reason,
            expected_status=expected_status,
            expected_version=expected_version,
            public=public,
            merged_into=target,
        )
        moved = list(Report.objects.filter(case=case).order_by("received_at"))
        Report.objects.filter(case=case).update(case=target)
        codes = ", ".join(r.tracking_code for r in moved) or "none"
        record_event(
            case=case,
            actor=actor,
            kind=EventKind.MERGE,
            summary=f"Merged into {target.number}; reports moved: {codes}",
            detail=reason,
            subject=target,
        )
        record_event(
            case=target,
            actor=actor,
            kind=EventKind.MERGE,
            summary=f"{case.number} merged into this case; reports received: {codes}",
            detail=reason,
            subject=case,
        )
        for report in moved:
            record_event(
                case=target,
                actor=actor,
                kind=EventKind.REPORT,
                summary=f"Report {report.tracking_code} moved here from {case.number}",
                detail=report.description,
                subject=report,
                public=True,
            )
        if moved:
            pollutants = case.pollutant_categories.all()
            target.pollutant_categories.add(*pollutants)
    return case


EDITABLE_FIELDS = (
    "kind",
    "summary",
    "description",
    "premises",
    "location_description",
    "latitude",
    "longitude",
    "outfall",
    "assigned_officer",
)


def premises_create(
    *, actor, address: str, tax_map_number: str = "", land_use: str = "", **fields
) -> Premises:
    """Record a new premises (§ 132-3). Who: SMO staff."""
    _require_writer(actor)
    premises = Premises(address=address.strip(), tax_map_number=tax_map_number.strip())
    if land_use:
        premises.land_use = land_use
    for name, value in fields.items():
        setattr(premises, name, value)
    premises.full_clean()
    premises.save()
    return premises


def case_update_details(
    *,
    case: Case,
    actor,
    expected_version: int | None = None,
    new_premises: dict | None = None,
    pollutant_categories=None,
    **fields,
) -> Case:
    """Change what the case is about: kind, premises (chosen or `new_premises`),
    location, receiving outfall, assigned officer, pollutant categories (§ 132-3).

    Writes one "details changed" event listing each change. Who: SMO staff.
    Raises Refused or CaseChangedError (nothing saved)."""
    _require_writer(actor)
    unknown = set(fields) - set(EDITABLE_FIELDS)
    if unknown:
        raise Refused(f"Not editable here: {', '.join(sorted(unknown))}")
    with transaction.atomic():
        locked = lock(case, expected_version=expected_version)
        if new_premises:
            fields["premises"] = premises_create(actor=actor, **new_premises)
        changes = []
        for name, value in fields.items():
            old = getattr(locked, name)
            if old != value:
                label = Case._meta.get_field(name).verbose_name
                changes.append(f"{label}: {_show(name, old)} → {_show(name, value)}")
                setattr(locked, name, value)
        if pollutant_categories is not None:
            before = set(locked.pollutant_categories.all())
            after = set(pollutant_categories)
            if before != after:
                locked.pollutant_categories.set(after)
                changes.append(
                    "pollutant categories: "
                    + (", ".join(sorted(str(p) for p in after)) or "none")
                )
        if not changes:
            return locked
        locked.version += 1
        locked.save()
        record_event(
            case=locked,
            actor=actor,
            kind=EventKind.EDIT,
            summary="Case details changed",
            detail="\n".join(changes),
        )
    return locked


def _show(name: str, value) -> str:
    if value in (None, ""):
        return "—"
    if name == "kind":
        return CaseKind(value).label
    return str(value)


def case_add_party(
    *,
    case: Case,
    actor,
    role: str,
    party: Party | None = None,
    new_party: dict | None = None,
    expected_version: int | None = None,
) -> CaseParty:
    """Name a party (owner, operator, agent…; person or entity, § 132-3 PERSON) on
    the case — an existing one or `new_party`. Who: SMO staff.
    Raises Refused (role, already named in that role), CaseChangedError."""
    _require_writer(actor)
    with transaction.atomic():
        locked = lock(case, expected_version=expected_version)
        if party is None:
            if not new_party:
                raise Refused("Choose a party or enter a new one.")
            party = Party(**new_party)
            party.full_clean()
            party.save()
        if CaseParty.objects.filter(case=locked, party=party, role=role).exists():
            raise Refused(f"{party} is already named in that role.")
        link = CaseParty.objects.create(case=locked, party=party, role=role)
        record_event(
            case=locked,
            actor=actor,
            kind=EventKind.PARTY,
            summary=f"Party named: {party} ({link.get_role_display()}, "
            f"{party.get_kind_display().split(' (')[0].lower()})",
            subject=link,
        )
    return link


PARTY_EDITABLE_FIELDS = (
    "kind",
    "name",
    "contact_person",
    "mailing_address",
    "email",
    "phone",
)


def party_update_details(*, case: Case, party: Party, actor, **fields) -> Party:
    """Change a party's own details (name, mailing address, e-mail, phone…),
    from the page of `case` it is named on. A party is one row however many cases
    name it; the change is written in this case's chronology (one event listing
    each change) and in the party's history (django-simple-history).

    Who: SMO staff. Raises Refused (role, a field not editable here) or
    django.core.exceptions.ValidationError (nothing saved)."""
    _require_writer(actor)
    unknown = set(fields) - set(PARTY_EDITABLE_FIELDS)
    if unknown:
        raise Refused(f"Not editable here: {', '.join(sorted(unknown))}")
    with transaction.atomic():
        locked_case = lock(case)
        locked = lock(party)
        changes = []
        for name, value in fields.items():
            old = getattr(locked, name)
            if old != value:
                label = Party._meta.get_field(name).verbose_name
                changes.append(
                    f"{label}: {_show_party(name, old)} → {_show_party(name, value)}"
                )
                setattr(locked, name, value)
        if not changes:
            return locked
        locked.full_clean()
        locked._history_user = actor
        locked._change_reason = f"Edited from case {locked_case.number}"
        locked.save()
        record_event(
            case=locked_case,
            actor=actor,
            kind=EventKind.PARTY,
            summary=f"Party details changed: {locked}",
            detail="\n".join(changes),
            subject=locked,
        )
    return locked


def _show_party(name: str, value) -> str:
    if value in (None, ""):
        return "—"
    if name == "kind":
        return Party.Kind(value).label.split(" (")[0]
    return " ".join(str(value).split())


def note_add(*, case: Case, actor, text: str, public: bool = False) -> Note:
    """Add a note; a public note is shown to the resident on the status page.
    Who: SMO staff. Raises Refused."""
    _require_writer(actor)
    with transaction.atomic():
        locked = lock(case)
        note = Note.objects.create(case=locked, author=actor, text=text, public=public)
        record_event(
            case=locked,
            actor=actor,
            kind=EventKind.NOTE,
            summary=("Public note: " if public else "Note: ") + text[:200],
            detail=text,
            public=public,
            subject=note,
        )
    return note


SAFE_INLINE_TYPES = {"image/jpeg", "image/png", "image/webp", "application/pdf"}


def attachment_add(*, case: Case, actor, upload, description: str = "") -> Attachment:
    """Keep an uploaded file as evidence: random private name, SHA-256 of the bytes
    as received, served only through the role-checked download view.
    Who: SMO staff. Raises Refused."""
    from kernel.uploads import sha256_of

    _require_writer(actor)
    digest = sha256_of(upload)
    with transaction.atomic():
        locked = lock(case)
        attachment = Attachment(
            case=locked,
            original_name=(upload.name or "file")[:200],
            content_type=(getattr(upload, "content_type", "") or "")[:100]
            or "application/octet-stream",
            size=upload.size,
            sha256=digest,
            description=description,
            uploaded_by=actor,
        )
        attachment.file.save("upload", upload, save=False)
        attachment.save()
        record_event(
            case=locked,
            actor=actor,
            kind=EventKind.ATTACHMENT,
            summary=f"Attachment added: {attachment.original_name}"
            + (f" — {description}" if description else ""),
            detail=f"SHA-256 {digest}, {attachment.size} bytes",
            subject=attachment,
        )
    return attachment


def case_record_referral_outcome(
    *, case: Case, actor, outcome: str, expected_version: int | None = None
) -> Case:
    """Record what the other agency did with a referred case. Who: SMO staff.
    Raises Refused (not referred, already recorded) or CaseChangedError."""
    _require_writer(actor)
    with transaction.atomic():
        locked = lock(case, expected_version=expected_version)
        if not locked.awaiting_referral_outcome:
            raise Refused("This case is not awaiting a referral outcome.")
        locked.referral_outcome = outcome
        locked.version += 1
        locked.save()
        record_event(
            case=locked,
            actor=actor,
            kind=EventKind.EDIT,
            summary=f"Referral outcome from {locked.referred_to} recorded",
            detail=outcome,
        )
    return locked
