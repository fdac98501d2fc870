"""The documents of enforcement: each record (a notice, an appeal, a corrective
measure, a suspension, a termination) → the typed contract of cases.documents.

Builders read what is stored: the recipient frozen at issue, the requirements
and their particulars, the stored deadlines (R-APL-1, R-NOV-2, R-COR-1) — never
date arithmetic. A draft notice has no stored deadline yet: its preview asks the
deadline engine (compute_due) what the R-APL-1 date would be if issued today.

Registered with cases.documents.builders (the draft preview page) by
EnforcementConfig.ready(). `issue_for(kind, source, actor)` issues one; the
notice of violation is issued by enforcement.services.notices.notice_issue in
the same transaction as the notice."""

from __future__ import annotations

from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from django.utils import timezone

from cases.deadlines.services import compute_due, open_deadline_for
from cases.documents.builders import register_facts_builder
from cases.documents.contracts import (
    AccessRequestBasis,
    AccessRequestFacts,
    AppealDecisionFacts,
    Contact,
    CorrectiveInvoiceFacts,
    DocumentKind,
    EmergencySuspensionFacts,
    FactsInvalid,
    Fine,
    InvoiceLine,
    NoticeOfViolationFacts,
    PetitionOutcome,
    ProposedTerminationFacts,
    Recipient,
    Requirement,
    Signatory,
    TerminationDecisionFacts,
    clerk_office,
    village_contact,
)
from cases.documents.selectors import appeal_deadline_for
from cases.documents.services import document_issue, may_issue
from cases.models import IssuedDocument

SMO_TITLE = "Stormwater Management Officer"
CLERK_TITLE = "Village Clerk, for the Board of Trustees"


# --- shared ------------------------------------------------------------------


def _lines(address: str) -> tuple[str, ...]:
    return tuple(line.strip() for line in (address or "").splitlines() if line.strip())


def _recipient(name: str, address: str) -> Recipient:
    return Recipient(name=name or "", address_lines=_lines(address))


def _person(user) -> str:
    if user is None:
        return ""
    return user.get_full_name() or user.get_username()


def _smo(user) -> Signatory:
    return Signatory(name=_person(user) or village_contact().name, title=SMO_TITLE)


def _premises(case, premises=None) -> str:
    return str(premises or case.premises or case.location_description or "")


def _today():
    return timezone.localdate()


def _common(case, number, issued_on, recipient, signatory, contact=None) -> dict:
    return {
        "case_number": case.number,
        "document_number": number,
        "issued_on": issued_on,
        "recipient": recipient,
        "contact": contact or village_contact(),
        "signatory": signatory,
    }


# --- notice of violation (R-NOV-1, R-NOV-2, R-PEN-1..3, R-APL-1) ----------------


def notice_number(notice) -> str:
    return f"NOV-{notice.pk}"


@register_facts_builder(
    DocumentKind.NOTICE_OF_VIOLATION, "enforcement.noticeofviolation"
)
def notice_contract(notice) -> NoticeOfViolationFacts:
    """The notice as printed. Issued: the frozen recipient and the stored
    R-APL-1 / R-NOV-2 deadlines. Draft (preview): the party's current details and
    the engine's dates for an issue today; the fine tier as it would be computed."""
    from .models import NoticeStatus, RequirementKind
    from .penalties import tier_for_party

    requirements = sorted(notice.requirements.all(), key=lambda r: r.number)
    kinds = {r.kind for r in requirements}
    issued = notice.status != NoticeStatus.DRAFT
    case = notice.case
    if issued:
        issued_on = notice.issued_on
        recipient = _recipient(notice.recipient_name, notice.recipient_address)
        appeal = appeal_deadline_for(notice)
        last_day, explanation = appeal if appeal else (None, "")
        remediation = open_deadline_for(notice, "R-NOV-2")
        if remediation is None:  # met or waived later: still the stored date
            remediation = (
                notice.deadlines().filter(rule_id="R-NOV-2").order_by("-id").first()
            )
        remediation_deadline = remediation.due_date if remediation else None
        if appeal is None:  # complied/withdrawn later: the stored date, not open
            stored = notice.deadlines().filter(rule_id="R-APL-1").order_by("-id")
            if stored.exists():
                last_day, explanation = stored[0].due_date, stored[0].explanation
        tier = notice.fine_tier
        signatory = _smo(notice.issued_by)
    else:
        issued_on = _today()
        recipient = _recipient(notice.recipient.name, notice.recipient.mailing_address)
        computed = compute_due("R-APL-1", issued_on)
        last_day, explanation = computed.due, computed.explanation
        remediation_deadline = (
            compute_due("R-NOV-2", issued_on, days=notice.remediation_days).due
            if notice.remediation_days
            else None
        )
        tier = None
        if RequirementKind.FINE in kinds:
            tier = tier_for_party(
                notice.recipient, notice.violation_date, exclude_case=case
            ).tier.number
        signatory = _smo(notice.created_by)
    fine = None
    if RequirementKind.FINE in kinds and notice.proposed_fine is not None:
        fine = Fine(amount=notice.proposed_fine, tier=tier or 0)
    return NoticeOfViolationFacts(
        **_common(case, notice_number(notice), issued_on, recipient, signatory),
        premises_address=_premises(case),
        violation_rule_ids=_violation_rules(case),
        finding=notice.findings,
        requirements=tuple(
            Requirement(number=r.number, particulars=r.particulars)
            for r in requirements
        ),
        remediation_deadline=remediation_deadline,
        fine=fine,
        last_day_to_appeal=last_day,
        appeal_deadline_explanation=explanation,
        appeal_filing_office=clerk_office(),
    )


def _violation_rules(case) -> tuple[str, ...]:
    """The prohibitions the case records as violated (e.g. R-PRO-1), if any."""
    rules = getattr(case, "violation_rule_ids", None) or ()
    if isinstance(rules, str):
        rules = [r.strip() for r in rules.split(",") if r.strip()]
    return tuple(rules)


def notice_document_issue(*, notice, actor) -> IssuedDocument:
    """Issue the notice's document (kind NOV) from the issued notice; a
    correction supersedes the document of the notice it corrects. Called inside
    notice_issue's transaction. Raises FactsInvalid, DocumentError,
    PermissionDenied (any of which rolls the notice back)."""
    supersedes = None
    if notice.supersedes_id:
        supersedes = latest_document(
            notice.supersedes, DocumentKind.NOTICE_OF_VIOLATION
        )
    return document_issue(
        kind=DocumentKind.NOTICE_OF_VIOLATION,
        facts=notice_contract(notice),
        case=notice.case,
        source=notice,
        actor=actor,
        supersedes=supersedes if supersedes and supersedes.is_issued else None,
    )


# --- the Board's decision on appeal (R-APL-3) ------------------------------------


@register_facts_builder(DocumentKind.APPEAL_DECISION, "enforcement.appeal")
def appeal_decision_contract(appeal) -> AppealDecisionFacts:
    """The decision letter once the Board has decided (status decided/closed)."""
    notice = appeal.notice
    hearing = (
        timezone.localtime(appeal.hearing_at).date() if appeal.hearing_at else None
    )
    problems = []
    if not appeal.decision or appeal.decided_on is None:
        problems.append("the Board has not decided this appeal yet")
    if hearing is None:
        problems.append("the hearing date is missing")
    if notice.issued_on is None:
        problems.append("the notice appealed has not been issued")
    if problems:
        raise FactsInvalid(DocumentKind.APPEAL_DECISION, problems)
    return AppealDecisionFacts(
        **_common(
            notice.case,
            f"APL-{appeal.pk}",
            max(_today(), appeal.decided_on),
            _recipient(appeal.appellant.name, appeal.appellant.mailing_address),
            Signatory(name="Village Clerk", title=CLERK_TITLE),
            Contact(name="Village Clerk", phone=settings.VILLAGE["phone"]),
        ),
        notice_number=notice_number(notice),
        notice_issued_on=notice.issued_on,
        appeal_filed_on=appeal.filed_on,
        hearing_held_on=hearing,
        decided_on=appeal.decided_on,
        outcome=appeal.decision,
        decision=appeal.resolution,
        certified_mail_article=appeal.mail_article_number,
    )


# --- corrective measures (R-COR-1, R-COR-2) --------------------------------------


@register_facts_builder(DocumentKind.ACCESS_REQUEST, "enforcement.correctiveaction")
def access_request_contract(action) -> AccessRequestFacts:
    """The SMO's letter asking the owner's permission for access to abate
    (R-COR-1), dated the letter's date; the correction was due on the notice's
    compliance deadline as stored (R-COR-1 after an upheld appeal, else R-NOV-2,
    else R-APL-1)."""
    from .models import Decision

    notice = action.notice
    upheld = (
        notice.appeals.filter(decision__in=[Decision.UPHELD, Decision.MODIFIED])
        .exclude(decided_on=None)
        .order_by("-decided_on")
        .first()
    )
    due = notice.compliance_deadline()
    if due is None:
        raise FactsInvalid(
            DocumentKind.ACCESS_REQUEST,
            ["the notice has no stored compliance deadline"],
        )
    measures = "\n".join(
        f"({r.number}) {r.particulars}"
        for r in sorted(notice.requirements.all(), key=lambda r: r.number)
    )
    return AccessRequestFacts(
        **_common(
            action.case,
            f"ACC-{action.pk}",
            action.request_letter_on,
            _recipient(notice.recipient_name, notice.recipient_address),
            _smo(action.created_by),
        ),
        premises_address=_premises(action.case),
        notice_number=notice_number(notice),
        notice_issued_on=notice.issued_on,
        basis=AccessRequestBasis.APPEAL_UPHELD
        if upheld is not None
        else AccessRequestBasis.NOT_CORRECTED,
        correction_due_on=due.due_date,
        appeal_decided_on=upheld.decided_on if upheld else None,
        measures=measures,
    )


@register_facts_builder(DocumentKind.CORRECTIVE_INVOICE, "enforcement.correctiveaction")
def corrective_invoice_contract(action) -> CorrectiveInvoiceFacts:
    """The invoice of the itemized costs of the corrective measures (R-COR-2),
    dated and numbered as the SMO recorded it (or today / CM-n before)."""
    notice = action.notice
    if action.order_on and action.order_court:
        authority = f"Order of {action.order_court} of {action.order_on:%B %-d, %Y}" + (
            f": {action.order_terms}" if action.order_terms else ""
        )
    else:
        authority = (
            f"Notice of violation {notice_number(notice)} of "
            f"{notice.issued_on:%B %-d, %Y}, not complied with by its deadline; "
            "access granted by the owner"
        )
    return CorrectiveInvoiceFacts(
        **_common(
            action.case,
            action.invoice_number or f"CM-{action.pk}",
            action.invoiced_on or _today(),
            _recipient(notice.recipient_name, notice.recipient_address),
            _smo(action.created_by),
        ),
        premises_address=_premises(action.case),
        authority=authority,
        lines=tuple(
            InvoiceLine(
                description=i.description, amount=i.amount, performed_on=i.incurred_on
            )
            for i in action.cost_items.all()
        ),
        total=action.total_cost(),
        payment_instructions="Pay by check to the Incorporated Village of Poquott "
        f"at the office of the {clerk_office()}, quoting the invoice number.",
    )


# --- suspension and termination of MS4 access (R-SUS-1, R-SUS-2) ----------------


@register_facts_builder(
    DocumentKind.EMERGENCY_SUSPENSION, "enforcement.accesssuspension"
)
def suspension_contract(suspension) -> EmergencySuspensionFacts:
    """The written notice of the reasons for the emergency suspension (R-SUS-1),
    dated the day it was recorded as sent, else today."""
    return EmergencySuspensionFacts(
        **_common(
            suspension.case,
            f"SUS-{suspension.pk}",
            suspension.notice_sent_on or _today(),
            _recipient(suspension.party.name, suspension.party.mailing_address),
            _smo(suspension.created_by),
        ),
        premises_address=_premises(suspension.case, suspension.premises),
        suspended_at=suspension.suspended_at,
        reasons=suspension.reasons,
    )


@register_facts_builder(
    DocumentKind.PROPOSED_TERMINATION, "enforcement.accesstermination"
)
def proposed_termination_contract(termination) -> ProposedTerminationFacts:
    """The written notice of the proposed termination and its reasons (R-SUS-2),
    dated the notice date the SMO recorded."""
    return ProposedTerminationFacts(
        **_common(
            termination.case,
            f"TRM-{termination.pk}",
            termination.notice_on,
            _recipient(termination.party.name, termination.party.mailing_address),
            _smo(termination.created_by),
        ),
        premises_address=_premises(termination.case, termination.premises),
        reasons=termination.reasons,
        petition_to=f"{village_contact().name}, {clerk_office()}",
    )


@register_facts_builder(
    DocumentKind.TERMINATION_DECISION, "enforcement.accesstermination"
)
def termination_decision_contract(termination) -> TerminationDecisionFacts:
    """The SMO's written grant or denial on the petition (R-SUS-2): only once
    access was granted again or denied."""
    from .models import TerminationStatus

    outcome = {
        TerminationStatus.REINSTATED: PetitionOutcome.ACCESS_GRANTED,
        TerminationStatus.DENIED: PetitionOutcome.ACCESS_DENIED,
    }.get(termination.status)
    problems = []
    if outcome is None:
        problems.append("the petition has not been decided (grant or deny) yet")
    if termination.petition_on is None:
        problems.append("no petition for reconsideration is recorded")
    if problems:
        raise FactsInvalid(DocumentKind.TERMINATION_DECISION, problems)
    hearing = termination.hearing_at
    return TerminationDecisionFacts(
        **_common(
            termination.case,
            f"TRD-{termination.pk}",
            termination.decided_on or _today(),
            _recipient(termination.party.name, termination.party.mailing_address),
            _smo(termination.created_by),
        ),
        premises_address=_premises(termination.case, termination.premises),
        proposed_notice_number=f"TRM-{termination.pk}",
        proposed_notice_issued_on=termination.notice_on,
        petition_received_on=termination.petition_on,
        hearing_held_on=timezone.localtime(hearing).date() if hearing else None,
        outcome=outcome,
        determination=termination.determination,
    )


# --- which kinds each record has, and issuing them ------------------------------

# model label → the kinds a record of it documents (besides the NOV, issued
# with the notice itself), with the word for the button.
KINDS_BY_MODEL = {
    "enforcement.appeal": (DocumentKind.APPEAL_DECISION,),
    "enforcement.correctiveaction": (
        DocumentKind.ACCESS_REQUEST,
        DocumentKind.CORRECTIVE_INVOICE,
    ),
    "enforcement.accesssuspension": (DocumentKind.EMERGENCY_SUSPENSION,),
    "enforcement.accesstermination": (
        DocumentKind.PROPOSED_TERMINATION,
        DocumentKind.TERMINATION_DECISION,
    ),
}

BUILDERS = {
    (
        "enforcement.noticeofviolation",
        DocumentKind.NOTICE_OF_VIOLATION,
    ): notice_contract,
    ("enforcement.appeal", DocumentKind.APPEAL_DECISION): appeal_decision_contract,
    (
        "enforcement.correctiveaction",
        DocumentKind.ACCESS_REQUEST,
    ): access_request_contract,
    (
        "enforcement.correctiveaction",
        DocumentKind.CORRECTIVE_INVOICE,
    ): corrective_invoice_contract,
    (
        "enforcement.accesssuspension",
        DocumentKind.EMERGENCY_SUSPENSION,
    ): suspension_contract,
    (
        "enforcement.accesstermination",
        DocumentKind.PROPOSED_TERMINATION,
    ): proposed_termination_contract,
    (
        "enforcement.accesstermination",
        DocumentKind.TERMINATION_DECISION,
    ): termination_decision_contract,
}


def documents_of(source, kind=None):
    """The documents issued about `source` (every version), oldest first."""
    content_type = ContentType.objects.get_for_model(source)
    found = IssuedDocument.objects.filter(
        content_type=content_type, object_id=source.pk
    ).defer("html", "facts", "citations")
    if kind is not None:
        found = found.filter(kind=kind)
    return found.order_by("kind", "version", "id")


def latest_document(source, kind):
    return (
        documents_of(source, kind).exclude(status="failed").order_by("-version").first()
    )


def issue_for(*, kind, source, actor, case=None) -> IssuedDocument:
    """Issue the document `kind` about `source` from its builder (the roles of
    cases.documents.services.ISSUERS). If one is already issued, the new one is a
    correction superseding the latest version. Raises PermissionDenied,
    FactsInvalid, DocumentError."""
    label = source._meta.label_lower
    builder = BUILDERS.get((label, kind)) or _other_builders().get((label, kind))
    if builder is None:
        raise FactsInvalid(kind, [f"no {kind} document for a {label}"])
    from inspections.documents import case_of

    case = case or case_of(source)
    facts = builder(source)  # FactsInvalid when the record cannot make one
    latest = latest_document(source, kind)
    return document_issue(
        kind=kind,
        facts=facts,
        case=case,
        source=source,
        actor=actor,
        supersedes=latest if latest is not None and latest.is_issued else None,
    )


def _other_builders():
    from inspections.documents import BUILDERS as inspection_builders

    return inspection_builders


def document_actions(user, source, kinds) -> list[dict]:
    """For the record's page: per kind, its label, the preview URL, whether the
    user may issue it, and the versions issued so far."""
    from django.urls import reverse

    content_type = ContentType.objects.get_for_model(source)
    rows = []
    for kind in kinds:
        issued = list(documents_of(source, kind))
        live = [d for d in issued if d.status != "failed"]
        rows.append(
            {
                "kind": kind,
                "label": DocumentKind(kind).label,
                "preview_url": reverse(
                    "documents:draft_preview",
                    args=[kind, content_type.pk, source.pk],
                ),
                "may_issue": may_issue(user, kind),
                "documents": issued,
                "is_correction": bool(live),
                "rendering": any(d.status == "rendering" for d in live),
            }
        )
    return rows
