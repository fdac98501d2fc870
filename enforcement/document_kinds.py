"""The kinds of document enforcement issues (its letters: enforcement.documents),
declared to the document pipeline."""

from django.db import models

from documents.contracts import register_document_kinds


class EnforcementDocument(models.TextChoices):
    NOTICE_OF_VIOLATION = "notice_of_violation", "Notice of violation"
    EMERGENCY_SUSPENSION = "emergency_suspension", "Emergency suspension notice"
    PROPOSED_TERMINATION = (
        "proposed_termination",
        "Notice of proposed termination of MS4 access",
    )
    TERMINATION_DECISION = (
        "termination_decision",
        "Decision on a petition for reconsideration",
    )
    ACCESS_REQUEST = "access_request", "Request for access to abate"
    APPEAL_DECISION = "appeal_decision", "Decision of the Board of Trustees on appeal"
    HEARING_NOTICE = "hearing_notice", "Notice of hearing on appeal"
    MEETING_AGENDA = "meeting_agenda", "Agenda of the Board of Trustees' hearings"
    CORRECTIVE_INVOICE = "corrective_invoice", "Invoice for corrective-measure costs"


register_document_kinds(EnforcementDocument.choices)
