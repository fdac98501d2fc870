"""The confirmations of the binding steps cases, inspections and enforcement
own (issue 16), registered with the kernel's table (kernel.confirmations): what
each step will do and the dates it starts — each date computed by the deadline
engine on the office calendar (`deadlines.services.compute_due`), never in
a template. CasesConfig.ready() imports this module."""

from __future__ import annotations

import datetime as dt

from django.utils import timezone

from kernel.confirmations import builder
from kernel.humanize import human_date


def _due(rule_id: str, on: dt.date, **params) -> dt.date:
    from deadlines.services import compute_due

    return compute_due(rule_id, on, **params).due


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
    from deadlines.services import open_deadline_for

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
    # The later of the two dates is the engine's rule (`not_before`), as the
    # clock table applies it.
    own = [d.due_date for d in appeal.notice.required_compliance_deadlines()]
    latest_own = max(own, default=None)
    correction = _due("R-COR-1", today, not_before=latest_own)
    if correction != _due("R-COR-1", today):
        correction_words = (
            f"by {human_date(correction)}, the date the notice itself gave, which "
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


@builder("inspection_finalize")
def _inspection_finalize(inspection) -> str:
    return (
        "Finalizing locks the inspection record: the visit, the access outcome "
        "and the photos become the official record, and can afterwards only be "
        "corrected beside it, with the reason (the original is kept)."
    )


@builder("warrant_start")
def _warrant_start(inspection) -> str:
    return (
        "Starting a search-warrant application records, in the inspection's "
        "history, that the office is seeking a warrant to enter these premises; "
        "the application is then written, filed with the court and its outcome "
        "recorded."
    )


@builder("alternative_recommend")
def _alternative_recommend(alternative) -> str:
    return (
        "Recommending is the Municipal Attorney's sign-off on the alternative "
        "remedy in lieu of a civil penalty, on the criteria as they stand now "
        "(kept with the recommendation); it goes to the Building Inspector for "
        "concurrence."
    )


@builder("alternative_concur")
def _alternative_concur(alternative) -> str:
    return (
        "Concurring is the Building Inspector's sign-off: the alternative remedy "
        "takes the place of a civil penalty, and the work it lists must be "
        "completed before it is recorded complete."
    )


def _decision_due_words(appeal) -> str:
    from deadlines.services import open_deadline_for

    due = open_deadline_for(appeal, "R-APL-3")
    if due is None and getattr(appeal, "decided_on", None):
        return human_date(_due("R-APL-3", appeal.decided_on))
    return human_date(due.due_date) if due is not None else ""


@builder("appeal_filing")
def _appeal_filing(appeal) -> str:
    words = [
        "Recording the filing says, for the record, that the Board's decision "
        "was filed in the office of the municipal clerk on the date given; it "
        "cannot be undone from this page."
    ]
    due = _decision_due_words(appeal)
    if due:
        words.append(f"The filing is due by {due}.")
    return " ".join(words)


@builder("appeal_mailing")
def _appeal_mailing(appeal) -> str:
    words = [
        "Recording the mailing says, for the record, that a copy of the Board's "
        "decision was mailed by certified mail with the article number given; "
        "its delivery or return is then recorded from the post office's receipt."
    ]
    due = _decision_due_words(appeal)
    if due:
        words.append(f"The mailing is due by {due}.")
    return " ".join(words)


@builder("hearing_notice_issue")
def _hearing_notice_issue(appeal) -> str:
    words = [
        "Issuing makes the notice of hearing the official notice of the "
        "hearing's date, time and place; it must then be sent to the appellant."
    ]
    if getattr(appeal, "filed_on", None):
        words.append(
            "The Board must hear the appeal by "
            f"{human_date(_due('R-APL-2', appeal.filed_on))}."
        )
    return " ".join(words)


@builder("hearing_notice_service")
def _hearing_notice_service(appeal) -> str:
    words = [
        "Recording the sending says, for the record and for the hearing, how "
        "and when the notice of hearing reached the appellant; it cannot be "
        "undone from this page (a mailing that comes back is recorded as "
        "returned)."
    ]
    hearing_at = getattr(appeal, "hearing_at", None)
    if hearing_at:
        words.append(
            "It starts no new period: the hearing stays set for "
            f"{human_date(hearing_at)}."
        )
    return " ".join(words)


@builder("appeal_decision_issue")
def _appeal_decision_issue(appeal) -> str:
    words = ["Issuing makes the Board's written decision the official record."]
    due = _decision_due_words(appeal)
    if due:
        words.append(
            "It must be filed with the municipal clerk and mailed by certified "
            f"mail to the discharger by {due}."
        )
    return " ".join(words)


@builder("agenda_issue")
def _agenda_issue(meeting) -> str:
    return (
        "Issuing makes the agenda the official agenda of the Board's meeting of "
        f"{human_date(meeting.date)}, with the hearings scheduled for it now; a "
        "change afterwards needs a corrected agenda."
    )


@builder("invoice_issue")
def _invoice_issue(remedy) -> str:
    return (
        "Issuing the invoice numbers it, totals the costs recorded now and dates "
        "it today: the amount is charged to the discharger, and each payment "
        "received is then recorded against it."
    )
