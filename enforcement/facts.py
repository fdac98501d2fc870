"""The facts a document needs, for the documents module to render. Plain data
(dicts of strings, dates, numbers and lists), read from what is stored: the
frozen recipient, the requirements and their particulars, the stored deadlines
and the wording of the one citation table. Nothing here renders."""

from django.conf import settings

from cases.citations import citations
from cases.deadlines.services import deadlines_for

from .models import RequirementKind


def _deadline(source, rule_id, purpose=""):
    found = [
        d
        for d in deadlines_for(source)
        if d.rule_id == rule_id and d.purpose == purpose
    ]
    if not found:
        return None
    d = found[-1]
    return {
        "rule_id": d.rule_id,
        "label": d.label,
        "due_date": d.due_date,
        "event_date": d.event_date,
        "explanation": d.explanation,
        "status": d.status,
    }


def _cite(rule_ids):
    return {
        rule_id: {
            "section": c.section,
            "heading": c.heading,
            "notice_text": c.notice_text,
        }
        for rule_id, c in citations(*rule_ids).items()
    }


def notice_facts(notice) -> dict:
    """Everything the printed notice of violation says (R-NOV-1, R-NOV-2,
    R-APL-1, R-PEN-1..3). For an issued notice, the recipient is the name and
    address frozen at issue; a draft shows the party's current details and is
    marked draft."""
    requirements = list(notice.requirements.all())
    kinds = {r.kind for r in requirements}
    rule_ids = ["R-NOV-1", "R-APL-1", "R-REM-1"]
    if RequirementKind.ABATEMENT in kinds:
        rule_ids.append("R-NOV-2")
    if RequirementKind.FINE in kinds:
        rule_ids += ["R-PEN-1", "R-PEN-4"]
    cited = _cite(rule_ids)
    issued = notice.issued_on is not None
    return {
        "kind": "notice_of_violation",
        "number": f"NOV-{notice.pk}",
        "status": notice.status,
        "is_draft": not issued,
        "case_number": notice.case.number,
        "premises": str(notice.case.premises or notice.case.location_description),
        "village": settings.VILLAGE,
        "recipient": {
            "name": notice.recipient_name if issued else notice.recipient.name,
            "mailing_address": notice.recipient_address
            if issued
            else notice.recipient.mailing_address,
        },
        "issued_on": notice.issued_on,
        "issued_by": notice.issued_by.get_full_name() if notice.issued_by else "",
        "violation_date": notice.violation_date,
        "findings": notice.findings,
        "requirements": [
            {
                "number": r.number,
                "kind": r.kind,
                "label": r.get_kind_display(),
                "particulars": r.particulars,
            }
            for r in sorted(requirements, key=lambda r: r.number)
        ],
        "remediation": {
            "days": notice.remediation_days,
            "deadline": _deadline(notice, "R-NOV-2"),
            "statement": cited["R-NOV-2"]["notice_text"],
        }
        if "R-NOV-2" in cited
        else None,
        "fine": {
            "amount": notice.proposed_fine,
            "tier": notice.fine_tier,
            "minimum": notice.fine_min,
            "maximum": notice.fine_max,
            "computation": notice.fine_computation,
        }
        if RequirementKind.FINE in kinds
        else None,
        "appeal": {
            "last_day": _deadline(notice, "R-APL-1"),
            "statement": cited["R-APL-1"]["notice_text"],
        },
        "supersedes": f"NOV-{notice.supersedes_id}" if notice.supersedes_id else None,
        "citations": cited,
    }


def appeal_decision_facts(appeal) -> dict:
    """The Board's decision letter (R-APL-3), and what follows from it (R-COR-1)."""
    notice = appeal.notice
    return {
        "kind": "appeal_decision",
        "appeal": appeal.pk,
        "notice": f"NOV-{notice.pk}",
        "case_number": notice.case.number,
        "appellant": {
            "name": appeal.appellant.name,
            "mailing_address": appeal.appellant.mailing_address,
        },
        "filed_on": appeal.filed_on,
        "is_late": appeal.is_late,
        "hearing_at": appeal.hearing_at,
        "decision": appeal.decision,
        "decision_label": appeal.get_decision_display(),
        "decided_on": appeal.decided_on,
        "resolution": appeal.resolution,
        "file_by": _deadline(appeal, "R-APL-3", "file"),
        "mail_by": _deadline(appeal, "R-APL-3", "mail"),
        "filed_with_clerk_on": appeal.filed_with_clerk_on,
        "mailed_on": appeal.mailed_on,
        "mail_article_number": appeal.mail_article_number,
        "correct_by": _deadline(notice, "R-COR-1"),
        "clerk_office": settings.VILLAGE["clerk_office"],
        "citations": _cite(["R-APL-3", "R-COR-1"]),
    }


def access_request_facts(action) -> dict:
    """The SMO's letter asking the owner's permission for access (R-COR-1)."""
    notice = action.notice
    return {
        "kind": "access_request",
        "case_number": action.case.number,
        "premises": str(action.case.premises or action.case.location_description),
        "notice": f"NOV-{notice.pk}",
        "recipient": {
            "name": notice.recipient_name,
            "mailing_address": notice.recipient_address,
        },
        "letter_on": action.request_letter_on,
        "citations": _cite(["R-COR-1", "R-COR-2"]),
    }


def suspension_notice_facts(suspension) -> dict:
    """The written notice of the reasons for an emergency suspension (R-SUS-1)."""
    return {
        "kind": "suspension_notice",
        "case_number": suspension.case.number,
        "recipient": {
            "name": suspension.party.name,
            "mailing_address": suspension.party.mailing_address,
        },
        "premises": str(suspension.premises or ""),
        "suspended_at": suspension.suspended_at,
        "reasons": suspension.reasons,
        "notice_due": _deadline(suspension, "R-SUS-1"),
        "notice_sent_on": suspension.notice_sent_on,
        "citations": _cite(["R-SUS-1"]),
    }


def termination_facts(termination) -> dict:
    """The notice of proposed termination (R-SUS-2) and, once decided, the
    written grant or denial."""
    return {
        "kind": "termination",
        "case_number": termination.case.number,
        "recipient": {
            "name": termination.party.name,
            "mailing_address": termination.party.mailing_address,
        },
        "premises": str(termination.premises or ""),
        "notice_on": termination.notice_on,
        "reasons": termination.reasons,
        "status": termination.status,
        "petition_on": termination.petition_on,
        "hearing_at": termination.hearing_at,
        "decided_on": termination.decided_on,
        "discharge_ceased": termination.discharge_ceased,
        "recurrence_prevented": termination.recurrence_prevented,
        "determination": termination.determination,
        "citations": _cite(["R-SUS-2"]),
    }


def invoice_facts(remedy) -> dict:
    """The invoice to the discharger for corrective measures (R-COR-2) or a
    summary abatement (R-NUI-1): itemized costs."""
    return {
        "kind": "invoice",
        "case_number": remedy.case.number,
        "invoice_number": remedy.invoice_number,
        "invoiced_on": remedy.invoiced_on,
        "amount": remedy.invoice_amount,
        "performed_by": remedy.get_performed_by_display(),
        "performer_name": remedy.performer_name,
        "work": remedy.work_description,
        "completed_on": remedy.work_completed_on,
        "items": [
            {"description": i.description, "amount": i.amount, "on": i.incurred_on}
            for i in remedy.cost_items.all()
        ],
        "total": remedy.total_cost(),
        "paid_on": remedy.paid_on,
    }
