"""The clock table: what each step of a record does to the legal deadlines.

One row per (record, step): which clocks the step starts, which it meets,
which it replaces (and by what), and which it ends. The workflow kernel
(`kernel.workflow.run`) applies the row in the same transaction as the step;
a step that is not a state change (an appeal received, the Board's decision
filed or mailed) is applied with `apply` by its service, still from this table.
No service opens, meets, replaces or ends a legal clock by hand
(tests/test_clock_table.py fails when one does).

Records are named by their model label ("enforcement.noticeofviolation"), so
this ground-floor module imports no feature app; what a row needs of a record
(the date a clock counts from, a notice's own periods) it reads by attribute or
method name. `make docs` writes this table as plain sentences (`sentences`).

The law behind each row is in its `law` line (RULES.md ids).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass

from django.db.models import Q

__all__ = ["TABLE", "apply", "rows_for", "sentences"]

# The Village's own duties: the Board files and mails its decision within five
# days (R-APL-3). The SMO closing the case does not excuse the Village from them.
VILLAGE_DUTIES = ("R-APL-3",)


# --- what a step does to a clock ---------------------------------------------


@dataclass(frozen=True)
class Start:
    """Start the clock of `rule_id`, counted from the stepping record's
    `counts_from` (an attribute or method giving a date).

    `of`: whose clock it is ("" the stepping record; else the attribute naming
    it, e.g. "notice"). `period`: a method of the stepping record giving the
    period's parameters ({"days": 60}). `each`: a method giving one clock per
    item, as (purpose, label, parameters). `when`: a predicate of the stepping
    record; the clock starts only when it holds."""

    rule_id: str
    counts_from: str
    of: str = ""
    period: str = ""
    each: str = ""
    purpose: str = ""
    label: str = ""
    responsible: str = ""
    when: str = ""
    # The record's own link to the clock it keeps (a spill's notice_deadline).
    store_as: str = ""
    # The record's e-mail address of the person whose duty it is (reminders).
    notify: str = ""
    # The clock is the acting user's to watch (the SMO who recorded the event).
    assign_to_actor: bool = False


@dataclass(frozen=True)
class Meet:
    """The duty of the open `rule_ids` clocks of `of` was done on the day the
    stepping record's `on` gives (late if after the due date)."""

    rule_ids: tuple[str, ...]
    on: str
    of: str = ""
    purpose: str | None = None
    when: str = ""  # a predicate of the stepping record: met only when it holds


@dataclass(frozen=True)
class Replace:
    """Start `by`, and let it take the place of the open `rule_ids` clocks of
    `of`, for `reason`. With `never_earlier`, the new date is never earlier than
    the latest of the dates it replaces: it does not take away time the
    respondent was given in writing. Without it (a date recorded wrongly and
    corrected), the new date is what the corrected event gives."""

    rule_ids: tuple[str, ...]
    by: Start
    reason: str
    of: str = ""
    never_earlier: bool = True


@dataclass(frozen=True)
class End:
    """Every open clock of `of` (or, `whole_case`, of the whole case) stops
    running, for `reason`; `rule_ids` limits it to those rules, `keep` spares
    the Village's own duties."""

    reason: str
    of: str = ""
    rule_ids: tuple[str, ...] = ()
    whole_case: bool = False
    keep: tuple[str, ...] = ()


@dataclass(frozen=True)
class Row:
    record: str
    step: str
    does: tuple = ()
    when: str = ""  # a predicate of the stepping record: the row applies only then
    law: str = ""
    words: str = ""  # the step, as the table page names it


OUTFALL = "cases.outfall"
SPILL = "inspections.spillnotification"
CALIBRATION = "inspections.calibration"
BMP = "inspections.bmprequirement"
SUSPENSION = "enforcement.accesssuspension"
NOTICE = "enforcement.noticeofviolation"
APPEAL = "enforcement.appeal"
CASE = "cases.case"

_NOTICE_ENDS = ("R-APL-1", "R-NOV-1", "R-NOV-2", "R-COR-1")

TABLE: tuple[Row, ...] = (
    # --- an outfall's TMDL (§ 132-3) ------------------------------------------------
    Row(
        OUTFALL,
        "save",
        when="tmdl_date_corrected",
        words="Correcting an outfall's TMDL approval date",
        law="R-DEF-2: six months from the approval date as corrected",
        does=(
            Replace(
                ("R-DEF-2",),
                by=Start(
                    "R-DEF-2", counts_from="tmdl_approved_on", assign_to_actor=True
                ),
                reason="The TMDL approval date was corrected.",
                never_earlier=False,
            ),
        ),
    ),
    Row(
        OUTFALL,
        "save",
        when="tmdl_date_removed",
        words="Removing an outfall's TMDL approval date",
        does=(End("The TMDL approval date was removed.", rule_ids=("R-DEF-2",)),),
    ),
    Row(
        OUTFALL,
        "save",
        when="awaits_tmdl_clock",
        words="Recording an outfall's TMDL approval date",
        law="R-DEF-2: the program is modified within six months of EPA's "
        "approval of a TMDL",
        does=(Start("R-DEF-2", counts_from="tmdl_approved_on", assign_to_actor=True),),
    ),
    # --- a spill notification (§ 132-11) ------------------------------------------
    Row(
        SPILL,
        "record",
        words="Recording a spill notification",
        law="R-SPL-3 (a nonhazardous spill: notice by the next business day, met "
        "on the day the Village was told), R-SPL-4 (an in-person or telephone "
        "notice: written confirmation within three business days), R-SPL-5 (a "
        "commercial or industrial source: on-site record kept three years)",
        does=(
            Start(
                "R-SPL-3",
                counts_from="known_day",
                when="is_nonhazardous",
                store_as="notice_deadline",
                notify="reporter_email",
            ),
            Meet(("R-SPL-3",), on="notice_day", when="notice_day"),
            Start(
                "R-SPL-4",
                counts_from="notice_day",
                when="needs_written_confirmation",
                store_as="confirmation_deadline",
                notify="reporter_email",
            ),
            Start(
                "R-SPL-5",
                counts_from="known_day",
                when="commercial_or_industrial",
                store_as="retention_deadline",
                notify="reporter_email",
            ),
        ),
    ),
    Row(
        SPILL,
        "record_confirmation",
        words="Recording the written confirmation of a spill",
        does=(Meet(("R-SPL-4",), on="confirmation_mailed_on"),),
    ),
    # --- a facility's monitoring equipment and best management practices -------
    Row(
        CALIBRATION,
        "record",
        words="Recording a calibration of monitoring equipment",
        law="R-ACC-2: the equipment is recalibrated within the interval set for it",
        does=(
            Meet(("R-ACC-2",), on="calibrated_on", of="equipment"),
            Start(
                "R-ACC-2",
                counts_from="calibrated_on",
                of="equipment",
                period="calibration_period",
            ),
        ),
    ),
    Row(
        BMP,
        "require",
        words="Requiring best management practices",
        law="R-BMP-1: implemented within the days the SMO sets",
        does=(
            Start("R-BMP-1", counts_from="required_on", period="implementation_period"),
        ),
    ),
    Row(
        BMP,
        "verify",
        words="Verifying the best management practices in place",
        does=(Meet(("R-BMP-1",), on="verified_on"),),
    ),
    Row(
        BMP,
        "satisfy_by_permit",
        words="A best management practice requirement satisfied by a SPDES permit",
        law="R-BMP-1: a facility holding an industrial SPDES permit complies by it",
        does=(End("Satisfied by the facility's industrial SPDES permit."),),
    ),
    # --- an emergency suspension of MS4 access (§ 132-9 A) -----------------------
    Row(
        SUSPENSION,
        "start",
        words="Suspending MS4 access without prior notice",
        law="R-SUS-1: the written notice of the reasons within the business days "
        "the Village sets",
        does=(Start("R-SUS-1", counts_from="suspended_day"),),
    ),
    Row(
        SUSPENSION,
        "record_notice",
        words="Recording the written notice of the reasons",
        does=(Meet(("R-SUS-1",), on="notice_sent_on"),),
    ),
    Row(
        SUSPENSION,
        "lift",
        words="Lifting a suspension",
        does=(End("The suspension was lifted."),),
    ),
    # --- the notice of violation (§ 132-13, § 132-14) ---------------------------
    Row(
        NOTICE,
        "issue",
        words="Issuing a notice of violation",
        law="R-APL-1 (15 days to appeal from issuance), R-NOV-2 (the remediation "
        "period the notice sets), R-NOV-1 (each requirement's own period)",
        does=(
            Start("R-APL-1", counts_from="issued_on"),
            Start(
                "R-NOV-2",
                counts_from="issued_on",
                period="remediation_period",
                when="remediation_days",
            ),
            Start("R-NOV-1", counts_from="issued_on", each="requirement_clocks"),
        ),
    ),
    Row(
        NOTICE,
        "record_compliance",
        words="Recording that the notice was complied with",
        law="R-NOV-1, R-NOV-2, R-COR-1 met on the day complied",
        does=(
            Meet(("R-NOV-1", "R-NOV-2", "R-COR-1"), on="complied_on"),
            End("The notice was complied with."),
        ),
    ),
    Row(
        NOTICE,
        "withdraw",
        words="Withdrawing a notice",
        does=(End("The notice was withdrawn."),),
    ),
    Row(
        NOTICE,
        "withdraw_on_reversal",
        words="Withdrawing a notice the Board reversed on appeal",
        law="R-APL-3: the Board reversed the SMO on appeal",
        does=(End("The Board of Trustees reversed the notice on appeal."),),
    ),
    Row(
        NOTICE,
        "supersede",
        words="Superseding a notice by its correction",
        law="the corrected notice's own dates run",
        does=(End("Superseded by the corrected notice, whose own dates run."),),
    ),
    Row(
        NOTICE,
        "close_with_case",
        words="Closing a notice with its resolved case",
        does=(End("The case was resolved."),),
    ),
    # --- the appeal to the Board of Trustees (§ 132-14) ------------------------
    Row(
        APPEAL,
        "file",
        words="Receiving an appeal",
        law="R-APL-1 met on the filing day",
        does=(Meet(("R-APL-1",), on="filed_on", of="notice"),),
    ),
    Row(
        APPEAL,
        "file",
        when="is_timely",
        words="Receiving an appeal filed in time",
        law="R-APL-2: the hearing within 30 days of the filing; a late appeal "
        "opens this clock only when the Board accepts it",
        does=(Start("R-APL-2", counts_from="filed_on"),),
    ),
    Row(
        APPEAL,
        "accept_late",
        words="The Board accepting a late appeal",
        law="R-APL-2, counted from the filing",
        does=(Start("R-APL-2", counts_from="filed_on"),),
    ),
    Row(
        APPEAL,
        "decide",
        words="Recording the Board's decision",
        law="R-APL-2 met on the hearing day; R-APL-3: file and mail the "
        "decision within five days (the Village's own duty)",
        does=(
            Meet(("R-APL-2",), on="hearing_day"),
            Start(
                "R-APL-3",
                counts_from="decided_on",
                purpose="file",
                label="File the Board's decision with the municipal clerk",
                responsible="clerk",
            ),
            Start(
                "R-APL-3",
                counts_from="decided_on",
                purpose="mail",
                label="Mail the Board's decision by certified mail to the discharger",
                responsible="clerk",
            ),
        ),
    ),
    Row(
        APPEAL,
        "decide",
        when="upholds",
        words="A decision upholding the notice",
        law="R-COR-1: correct within five business days of the decision, but "
        "never sooner than the notice itself gave",
        does=(
            Replace(
                ("R-NOV-1", "R-NOV-2"),
                of="notice",
                by=Start("R-COR-1", counts_from="decided_on", of="notice"),
                reason="The correction date after the Board's decision is now the "
                "one date to meet.",
            ),
        ),
    ),
    Row(
        APPEAL,
        "decide",
        when="modifies",
        words="A decision modifying the notice",
        law="R-COR-1 runs only from a decision upholding the SMO; the notice "
        "superseding this one, with the requirements as modified, sets its own "
        "dates",
        does=(
            End(
                "The Board modified the notice on appeal: the notice that "
                "supersedes it, with the requirements as modified, sets the dates.",
                of="notice",
                rule_ids=("R-NOV-1", "R-NOV-2", "R-COR-1"),
            ),
        ),
    ),
    Row(
        APPEAL,
        "record_filing",
        words="Recording the filing of the decision with the municipal clerk",
        does=(Meet(("R-APL-3",), on="filed_with_clerk_on", purpose="file"),),
    ),
    Row(
        APPEAL,
        "record_mailing",
        words="Recording the certified mailing of the decision",
        does=(Meet(("R-APL-3",), on="mailed_on", purpose="mail"),),
    ),
    Row(
        APPEAL,
        "withdraw",
        words="The appellant withdrawing the appeal",
        does=(End("The appeal was withdrawn."),),
    ),
    # --- the case: its end ends every clock of its records ----------------------
    *(
        Row(
            CASE,
            step,
            words=words,
            law="the Village's own duty to file and mail a Board decision "
            "(R-APL-3) is not ended",
            does=(End(reason, whole_case=True, keep=VILLAGE_DUTIES),),
        )
        for step, words, reason in (
            ("resolve", "Recording a case resolved", "The case was resolved."),
            ("close_unfounded", "Closing a case as unfounded", "The case was closed."),
            ("close_exempt", "Closing a case as exempt", "The case was closed."),
            ("refer", "Referring a case", "The case was referred."),
            ("mark_duplicate", "Merging a case as a duplicate", "Merged as duplicate."),
        )
    ),
)

_INDEX: dict[tuple[str, str], list[Row]] = {}
for _row in TABLE:
    _INDEX.setdefault((_row.record, _row.step), []).append(_row)


def rows_for(record, step: str) -> list[Row]:
    return _INDEX.get((record._meta.label_lower, step), [])


# --- applying a row -------------------------------------------------------------


def _read(record, name: str):
    value = getattr(record, name)
    return value() if callable(value) else value


def _owner(record, of: str):
    return _read(record, of) if of else record


def _case_of(record):
    from .models import Case

    return record if isinstance(record, Case) else getattr(record, "case", None)


def apply(record, step: str, *, actor) -> None:
    """Apply the table's rows for `step` of `record`, in the caller's transaction
    (the kernel's, for a state change)."""
    for row in rows_for(record, step):
        if row.when and not _read(record, row.when):
            continue
        for change in row.does:
            _APPLY[type(change)](change, record, actor)


def _start(change: Start, record, actor, *, not_before: dt.date | None = None):
    from deadlines.services import open_deadline

    if change.when and not _read(record, change.when):
        return []
    owner = _owner(record, change.of)
    event_date = _read(record, change.counts_from)
    if change.each:
        items = _read(record, change.each)
    else:
        period = _read(record, change.period) if change.period else {}
        items = [(change.purpose, change.label, period)]
    started = []
    for purpose, label, period in items:
        params = dict(period)
        if not_before is not None:
            params["not_before"] = not_before.isoformat()
        started.append(
            open_deadline(
                rule_id=change.rule_id,
                event_date=event_date,
                source=owner,
                case=_case_of(owner),
                actor=actor,
                purpose=purpose,
                label=label,
                responsible=change.responsible,
                assigned_to=actor if change.assign_to_actor else None,
                notify_email=_read(record, change.notify) if change.notify else "",
                **params,
            )
        )
    if change.store_as and started:
        setattr(owner, change.store_as, started[-1])
        owner.save(update_fields=[change.store_as])
    return started


def _open_of(owner, rule_ids=(), purpose=None):
    from deadlines.models import Deadline
    from deadlines.services import deadlines_for

    found = deadlines_for(owner).filter(status=Deadline.Status.OPEN)
    if rule_ids:
        found = found.filter(rule_id__in=rule_ids)
    if purpose is not None:
        found = found.filter(purpose=purpose)
    return list(found)


def _meet(change: Meet, record, actor):
    from deadlines.services import meet_deadline

    if change.when and not _read(record, change.when):
        return
    on = _read(record, change.on)
    owner = _owner(record, change.of)
    for deadline in _open_of(owner, change.rule_ids, change.purpose):
        _keep_current(owner, meet_deadline(deadline, on=on, actor=actor, by_clock=True))


def _keep_current(owner, deadline) -> None:
    """The record's own link to `deadline` (a spill's notice_deadline) reads
    its new status, not the copy loaded before the change."""
    from deadlines.models import Deadline

    for field in owner._meta.concrete_fields:
        if (
            field.is_relation
            and field.related_model is Deadline
            and getattr(owner, field.attname) == deadline.pk
        ):
            setattr(owner, field.name, deadline)


def _replace(change: Replace, record, actor):
    from deadlines.models import Deadline
    from deadlines.services import replace_deadline

    old = _open_of(_owner(record, change.of), change.rule_ids)
    latest = max((d.due_date for d in old), default=None)
    not_before = latest if change.never_earlier else None
    # A clock of the same rule gives way before its successor starts (one open
    # clock per record, rule and purpose), and is linked to it after.
    same = [d for d in old if d.rule_id == change.by.rule_id]
    for deadline in same:
        replace_deadline(deadline, by=None, actor=actor, reason=change.reason)
    (new,) = _start(change.by, record, actor, not_before=not_before)
    Deadline.objects.filter(pk__in=[d.pk for d in same]).update(replaced_by=new)
    for deadline in old:
        if deadline not in same:
            replace_deadline(deadline, by=new, actor=actor, reason=change.reason)


def _end(change: End, record, actor):
    from deadlines.models import Deadline
    from deadlines.services import end_deadline

    if change.whole_case:
        open_ = Deadline.objects.filter(
            case=_case_of(record), status=Deadline.Status.OPEN
        )
        if change.keep:
            open_ = open_.filter(~Q(rule_id__in=change.keep))
        found = list(open_)
    else:
        found = _open_of(_owner(record, change.of), change.rule_ids)
    for deadline in found:
        end_deadline(deadline, reason=change.reason, actor=actor)


_APPLY: dict[type, Callable] = {
    Start: _start,
    Meet: _meet,
    Replace: _replace,
    End: _end,
}


# --- the table in words (make docs) -------------------------------------------------


def _clock_words(rule_id: str, label: str = "") -> str:
    """ "the 15-calendar-day clock “Appeal to the Board of Trustees” (R-APL-1),
    counted from the issuance of the notice of violation"."""
    from deadlines.engine import RULES

    spec = RULES[rule_id]
    if spec.parameter is None and spec.amount is not None:
        period = f"{spec.amount}-{spec.unit.replace(' ', '-')} "
    else:
        period = ""
    return (
        f"the {period}clock “{label or spec.label}” ({rule_id}), counted from "
        f"{spec.counts_from}"
    )


def _names(rule_ids) -> str:
    return (
        ", ".join(rule_ids[:-1]) + (" and " if len(rule_ids) > 1 else "") + rule_ids[-1]
    )


# The day a Meet reads, in words.
_DAY_WORDS = {
    "complied_on": "the day complied",
    "filed_on": "the filing day",
    "hearing_day": "the hearing day",
    "filed_with_clerk_on": "the day it was filed",
    "mailed_on": "the day it was mailed",
    "notice_day": "the day the Village was told",
    "confirmation_mailed_on": "the day the confirmation was mailed",
    "calibrated_on": "the day calibrated",
    "verified_on": "the day verified",
    "notice_sent_on": "the day the notice was sent",
}


def sentences() -> list[str]:
    """The table as a lawyer reads it, one sentence per row."""
    out = []
    for row in TABLE:
        parts = []
        for change in row.does:
            if isinstance(change, Start):
                each = (
                    " (one for each requirement with its own period)"
                    if change.each
                    else ""
                )
                only = " if the notice sets one" if change.when else ""
                parts.append(
                    f"starts {_clock_words(change.rule_id, change.label)}{each}{only}"
                )
            elif isinstance(change, Meet):
                whose = f" of the {change.of}" if change.of else ""
                day = _DAY_WORDS.get(change.on, change.on.replace("_", " "))
                parts.append(
                    f"records {_names(change.rule_ids)}{whose} as met on {day}"
                )
            elif isinstance(change, Replace):
                own = f"the {change.of}'s own" if change.of else "its"
                kept = (
                    ", never earlier than the latest date it replaces"
                    if change.never_earlier
                    else ""
                )
                parts.append(
                    f"replaces {own} {_names(change.rule_ids)} dates by "
                    f"{_clock_words(change.by.rule_id)}{kept}"
                )
            elif isinstance(change, End):
                if change.whole_case:
                    scope = "every open clock of the case"
                elif change.rule_ids:
                    scope = f"the open {_names(change.rule_ids)} clocks of the {change.of or 'record'}"
                else:
                    scope = f"every open clock of the {change.of or 'record'}"
                spared = f" except {_names(change.keep)}" if change.keep else ""
                parts.append(f"ends {scope}{spared} (“{change.reason}”)")
        sentence = f"{row.words} " + "; ".join(parts) + "."
        out.append(f"{sentence} Law: {row.law}." if row.law else sentence)
    return out


def clocks_markdown() -> str:
    """docs/clocks.md: the table, one sentence per row (`make docs`)."""
    lines = [
        "# What each step does to the legal clocks",
        "",
        "Generated from `cases/clocks.py` by `manage.py transitions_doc` "
        "(`make docs`); do not edit by hand. The workflow kernel applies each "
        "row in the same transaction as its step; a clock that stops running "
        "gets a chronology entry and its queued reminders are cancelled.",
        "",
    ]
    lines += [f"- {sentence}" for sentence in sentences()]
    return "\n".join(lines) + "\n"
