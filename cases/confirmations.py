"""What a legally binding step does and starts, in words, for the confirmation its
form asks for (issue 16).

A transition is binding when its `custom` says `"binding": True`; `"confirm"`
names one of the builders below, which says what the step will do and the dates
it starts — each date computed by the deadline engine on the office calendar
(`cases.deadlines.services.compute_due`), never in a template. A binding step
without a builder gets the general sentence."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from django.utils import timezone

from .humanize import human_date

BUILDERS: dict[str, Callable[[object], str]] = {}


def builder(name: str):
    def register(fn):
        BUILDERS[name] = fn
        return fn

    return register


def _due(rule_id: str, on: dt.date, **params) -> dt.date:
    from .deadlines.services import compute_due

    return compute_due(rule_id, on, **params).due


def is_binding(custom: dict) -> bool:
    return bool(custom.get("binding"))


def confirm_text(instance, custom: dict) -> str:
    """The sentence after "I confirm:" for a binding step of `instance`."""
    build = BUILDERS.get(custom.get("confirm", ""))
    if build is not None:
        return build(instance)
    label = custom.get("label", "this step")
    return (
        f"“{label}” is legally binding: it is recorded in the case file "
        "and cannot be undone from this page."
    )


@builder("notice_issue")
def _notice_issue(notice) -> str:
    today = timezone.localdate()
    words = [
        "Issuing makes the notice of violation the official record (frozen, "
        "with its recipient and address) and starts the 15-day appeal period: "
        f"if issued today, the last day to appeal will be "
        f"{human_date(_due('R-APL-1', today))}."
    ]
    days = getattr(notice, "remediation_days", None)
    if days:
        words.append(
            f"Remediation will be due by {human_date(_due('R-NOV-2', today, days=days))}."
        )
    return " ".join(words)


@builder("notice_withdraw")
def _notice_withdraw(notice) -> str:
    return (
        "Withdrawing ends the notice of violation: its deadlines stop and it "
        "can no longer be enforced."
    )


@builder("notice_service")
def _notice_service(notice) -> str:
    from .deadlines.services import open_deadline_for

    words = [
        "Recording the service says, for the record and for a court, how and "
        "when the notice of violation reached the recipient; it cannot be "
        "undone from this page (a mailing that comes back is recorded as "
        "returned)."
    ]
    appeal = open_deadline_for(notice, "R-APL-1")
    if appeal is not None:
        words.append(
            "It starts no new period: the 15-day appeal period counts from the "
            f"notice's issue, last day {human_date(appeal.due_date)}."
        )
    return " ".join(words)


@builder("suspension_start")
def _suspension_start(case) -> str:
    today = timezone.localdate()
    return (
        "Suspending cuts the premises' access to the MS4 now, without prior "
        "notice, until the suspension is lifted. It starts the deadline for the "
        "written notice of the reasons to the person: suspended today, the "
        f"notice will be due by {human_date(_due('R-SUS-1', today))}."
    )


@builder("appeal_decide")
def _appeal_decide(appeal) -> str:
    today = timezone.localdate()
    correction = _due("R-COR-1", today)
    own = [d.due_date for d in appeal.notice.required_compliance_deadlines()]
    if own and max(own) > correction:
        correction_words = (
            f"by {human_date(max(own))}, the date the notice itself gave, which "
            "stands because it is later than five business days after the decision"
        )
    else:
        correction_words = f"by {human_date(correction)} if recorded today"
    return (
        "Recording the Board's decision is final for the notice appealed. "
        "If it upholds the notice, the respondent must correct the violation "
        f"{correction_words}; if it modifies the notice, the SMO issues a notice "
        "with the requirements as modified, with its own dates; if it reverses, "
        "the notice is withdrawn. The Board's decision must then be filed with "
        "the municipal clerk and mailed by certified mail within five days."
    )


@builder("appeal_accept_late")
def _appeal_accept_late(appeal) -> str:
    return (
        "Accepting the late appeal starts the Board's duty to hold the hearing "
        "within 30 days of the filing: by "
        f"{human_date(_due('R-APL-2', appeal.filed_on))}."
    )


@builder("suspension_notice")
def _suspension_notice(suspension) -> str:
    return (
        "Recording the notice of reasons says the discharger was told in writing "
        "why access to the MS4 is suspended; the suspension stays in force."
    )


@builder("access_terminate")
def _access_terminate(termination) -> str:
    return (
        "Terminating cuts the premises' access to the MS4 from the date given, "
        "until access is granted again."
    )


@builder("access_deny")
def _access_deny(termination) -> str:
    return (
        "Denying access in writing is the final decision on the petition: "
        "access stays terminated."
    )


@builder("case_close")
def _case_close(case) -> str:
    return (
        "Closing ends the case: its open deadlines are no longer worked and the "
        "reporter's public status shows it closed."
    )


@builder("spill_close")
def _spill_close(spill) -> str:
    return "Closing the spill record ends it; it can no longer be changed."
