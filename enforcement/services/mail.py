"""Recording the outcome of a certified mailing (issue 16): delivered on a date
(green card, USPS tracking) or returned unclaimed or refused on a date, for the
three papers the office mails (enforcement.models.mail). A recorded outcome is
final; no deadline is recomputed (Chapter 132 counts from issuance, filing and
decision, never from delivery)."""

import datetime as dt

from django.db import transaction
from django.utils import timezone

from kernel.humanize import human_long_date
from kernel.roles import Role, require_role
from kernel.timeline import record_event
from kernel.workflow import Refused

from ..models import Appeal, HearingNoticeService, ServiceRecord
from ..models.mail import MailOutcome

# The paper → who records the outcome of its mailing. The green cards and the
# returned envelopes come to the office: the clerk records them as the SMO may
# (the clerk's queue lists every certified mailing, R-NOV-1, R-APL-2, R-APL-3).
RECORDERS = {
    "notice": (
        (Role.SMO, Role.CLERK),
        "record the delivery of a notice of violation",
        "R-NOV-1",
    ),
    "hearing_notice": (
        (Role.CLERK,),
        "record the sending of a notice of hearing",
        "R-APL-2",
    ),
    "decision": ((Role.CLERK, Role.SMO), "record an appeal's mailing", "R-APL-3"),
}


def _fields(record):
    """(paper, the names of its delivered / returned / reason fields, the case,
    what it is in words) of one mailing."""
    if isinstance(record, Appeal):
        names = ("mail_delivered_on", "mail_returned_on", "mail_return_reason")
        return "decision", names, record.case, f"The decision on appeal {record.pk}"
    names = ("delivered_on", "returned_on", "return_reason")
    if isinstance(record, HearingNoticeService):
        return (
            "hearing_notice",
            names,
            record.appeal.case,
            f"The notice of hearing {record.document.document_number} "
            f"to {record.sent_to}",
        )
    return "notice", names, record.notice.case, f"Notice NOV-{record.notice_id}"


def mail_record_outcome(*, record, actor, outcome: str, on: dt.date, reason=""):
    """Record that certified mail was delivered, or came back unclaimed or
    refused, on `on`. `record`: a ServiceRecord, a HearingNoticeService, or an
    Appeal (its decision's mailing). `reason`: the words of a return other than
    unclaimed or refused (the older "returned mail" form). Returns the record,
    saved. Raises Refused or ValidationError (nothing saved)."""
    paper = _fields(record)[0]
    roles, doing, rule_id = RECORDERS[paper]
    require_role(actor, *roles, doing=doing)
    if outcome not in MailOutcome.values:
        raise Refused.invalid({"outcome": "Say whether it was delivered or returned."})
    if on is None:
        raise Refused.invalid({"on": "Give the date."})
    with transaction.atomic():
        locked = type(record).objects.select_for_update().get(pk=record.pk)
        paper, (delivered, returned, why), case, what = _fields(locked)
        awaits = locked.awaits_delivery_outcome
        if not (awaits() if callable(awaits) else awaits):
            if getattr(locked, delivered) or getattr(locked, returned):
                raise Refused("The outcome of this mailing is already recorded.")
            raise Refused("Only certified mail has a delivery to record.")
        mailed_on = locked.mailed_on
        if on < mailed_on:
            raise Refused.invalid(
                {"on": "Mail cannot be delivered or come back before it was sent."}
            )
        if on > timezone.localdate():
            raise Refused.invalid({"on": "The date cannot be in the future."})
        if outcome == MailOutcome.DELIVERED:
            setattr(locked, delivered, on)
            changed = [delivered]
            summary = f"{what}: certified mail delivered on {human_long_date(on)}"
        else:
            setattr(locked, returned, on)
            setattr(locked, why, (reason or "").strip() or outcome)
            changed = [returned, why]
            summary = (
                f"{what}: certified mail returned on {human_long_date(on)} "
                f"({getattr(locked, why)})"
            )
        locked.save(update_fields=changed)
        record_event(
            case=case,
            actor=actor,
            kind="appeal" if paper != "notice" else "notice",
            summary=summary,
            rule_id=rule_id,
            subject=locked,
        )
    return locked


def hearing_service_of(appeal, service_id):
    """The appeal's sending of its notice of hearing with this id, or Refused."""
    found = (
        HearingNoticeService.objects.filter(appeal=appeal, pk=service_id)
        .select_related("appeal__notice__case", "document")
        .first()
    )
    if found is None:
        raise Refused("No such sending of the notice of hearing on this appeal.")
    return found


__all__ = ["ServiceRecord", "hearing_service_of", "mail_record_outcome"]
