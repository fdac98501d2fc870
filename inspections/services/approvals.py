"""Dye-test notices (R-PRO-4) and SMO written discharge approvals (R-PRO-3)."""

from django.db import transaction

from kernel.humanize import human_long_date
from kernel.roles import Role, require_role
from kernel.workflow import Refused

from ..models import DischargeApproval, DyeTestNotice
from ._common import FIELD_WORK, not_future, record_on


def dye_test_record(*, actor, premises, case=None, **fields) -> DyeTestNotice:
    """Record the verbal notice of a dye test (R-PRO-4). A notice not given before
    the test (at the very time of it, or after) is recorded and flagged, not
    refused. Who: SMO staff.
    Raises ValidationError (a notice time in the future)."""
    require_role(actor, Role.SMO, doing=FIELD_WORK)
    notice = DyeTestNotice(premises=premises, case=case, received_by=actor, **fields)
    not_future(notice.notified_at, "notified_at", "The verbal notice")
    notice.full_clean()
    with transaction.atomic():
        notice.save()
        flag = " — notice NOT given before the test" if notice.notice_after_test else ""
        record_on(
            actor=actor,
            kind="inspection",
            summary=f"Dye-test notice from {notice.notified_by}{flag}",
            subject=notice,
            rule_id="R-PRO-4",
        )
    return notice


def approval_record(*, actor, premises, case=None, **fields) -> DischargeApproval:
    """Record a written SMO approval of a discharge to protect life or property
    from imminent harm, for a stated period on conditions (R-PRO-3).
    Who: SMO staff. Raises ValidationError."""
    require_role(actor, Role.SMO, doing=FIELD_WORK)
    approval = DischargeApproval(
        premises=premises, case=case, approved_by=actor, **fields
    )
    not_future(approval.approved_on, "approved_on", "The approval date")
    if (
        approval.starts_on
        and approval.ends_on
        and approval.ends_on < approval.starts_on
    ):
        raise Refused.invalid({"ends_on": "The approval cannot end before it starts."})
    if not approval.conditions.strip():
        raise Refused.invalid(
            {"conditions": "State the conditions of the approval (R-PRO-3)."}
        )
    approval.full_clean()
    with transaction.atomic():
        approval.save()
        record_on(
            actor=actor,
            kind="inspection",
            summary=f"SMO discharge approval {approval.reference} "
            f"({human_long_date(approval.starts_on)} to "
            f"{human_long_date(approval.ends_on)})",
            detail=approval.conditions,
            subject=approval,
            rule_id="R-PRO-3",
        )
    return approval
