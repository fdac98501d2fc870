"""Forms of the enforcement screens: validation and layout only. Domain rules
(tiers, deadlines, who may act) are the services'; their ValidationErrors are
put back on these forms by the views."""

from django import forms
from django.forms import modelform_factory
from django.utils import timezone

from cases.models import Party
from kernel.citations import cite, cited
from kernel.fields import WallClockDateTimeField
from kernel.humanize import human_date, human_time
from kernel.input_guard import article_number_clean
from kernel.widgets import DateInput, DateTimeInput

from .document_kinds import EnforcementDocument
from .models import (
    MAX_COMPLIANCE_DAYS,
    REQUIREMENTS_WITH_DAYS,
    AccessSuspension,
    AccessTermination,
    AlternativeKind,
    AlternativeRemedy,
    BoardMeeting,
    CorrectiveAction,
    Decision,
    HearingNoticeService,
    InjunctionReferral,
    NoticeOfViolation,
    NuisanceAbatement,
    OffenseRecord,
    RequirementKind,
    ServiceRecord,
)
from .models.mail import MailOutcome


def _widgets(model, fields):
    widgets = {}
    for name in fields:
        field = model._meta.get_field(name)
        if field.get_internal_type() == "DateField":
            widgets[name] = DateInput()
        elif field.get_internal_type() == "DateTimeField":
            widgets[name] = DateTimeInput()
        elif field.get_internal_type() == "TextField":
            widgets[name] = forms.Textarea(attrs={"rows": 3})
    return widgets


def _field_classes(model, fields):
    """Every date and time a user types reads the wall clock (the night the
    clocks change included)."""
    return {
        name: WallClockDateTimeField
        for name in fields
        if model._meta.get_field(name).get_internal_type() == "DateTimeField"
    }


class NoticeForm(forms.Form):
    """A notice of violation: recipient, findings and any of the six
    requirements of § 132-13 A with their particulars; the days to complete
    abatement or restoration (R-NOV-2), and the days to comply with each of
    (1), (4) and (6) where the notice sets a date for it (R-NOV-1)."""

    recipient = forms.ModelChoiceField(queryset=Party.objects.none())
    violation_date = forms.DateField(widget=DateInput())
    findings = forms.CharField(widget=forms.Textarea(attrs={"rows": 4}))
    remediation_days = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=365,
        label="Days to complete abatement or restoration (R-NOV-2)",
    )
    proposed_fine = forms.DecimalField(
        required=False,
        min_value=0,
        max_digits=9,
        decimal_places=2,
        label="Proposed fine ($)",
    )

    def __init__(self, *args, recipients, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["recipient"].queryset = recipients
        for number, (kind, label) in enumerate(RequirementKind.choices, start=1):
            self.fields[f"req_{kind}"] = forms.BooleanField(
                required=False, label=f"({number}) {label}"
            )
            self.fields[f"particulars_{kind}"] = forms.CharField(
                required=False,
                label=f"Particulars of ({number})",
                widget=forms.Textarea(attrs={"rows": 2}),
            )
            if kind in REQUIREMENTS_WITH_DAYS:
                self.fields[f"days_{kind}"] = forms.IntegerField(
                    required=False,
                    min_value=1,
                    max_value=MAX_COMPLIANCE_DAYS,
                    label=f"Days to comply with ({number}) (R-NOV-1)",
                    help_text="Counted from the date of issue; leave empty to set "
                    "no date for this requirement.",
                )

    def requirement_rows(self):
        """(check box, particulars, days or None) of each requirement."""
        return [
            (
                self[f"req_{kind}"],
                self[f"particulars_{kind}"],
                self[f"days_{kind}"] if kind in REQUIREMENTS_WITH_DAYS else None,
            )
            for kind in RequirementKind.values
        ]

    def clean(self):
        data = super().clean()
        requirements = []
        compliance_days = {}
        for kind in RequirementKind.values:
            particulars = (data.get(f"particulars_{kind}") or "").strip()
            days = data.get(f"days_{kind}")
            if data.get(f"req_{kind}"):
                if not particulars:
                    self.add_error(f"particulars_{kind}", "Give the particulars.")
                requirements.append((kind, particulars))
                if days:
                    compliance_days[kind] = days
            elif days:
                self.add_error(
                    f"days_{kind}",
                    "Choose this requirement, or leave its days empty.",
                )
        if not requirements:
            raise forms.ValidationError(
                cited("R-NOV-1", "Choose at least one requirement of {section}.")
            )
        data["requirements"] = requirements
        data["compliance_days"] = compliance_days
        return data

    @classmethod
    def initial_for(cls, notice: NoticeOfViolation) -> dict:
        initial = {
            "recipient": notice.recipient_id,
            "violation_date": notice.violation_date,
            "findings": notice.findings,
            "remediation_days": notice.remediation_days,
            "proposed_fine": notice.proposed_fine,
        }
        for r in notice.requirements.all():
            initial[f"req_{r.kind}"] = True
            initial[f"particulars_{r.kind}"] = r.particulars
            if r.compliance_days:
                initial[f"days_{r.kind}"] = r.compliance_days
        return initial


class ArticleNumberMixin:
    """A form with a certified-mail article number (`article_field`) and the
    method it was sent by (`method_field`, None: always certified): the number
    is cleaned by kernel.input_guard.article_number_clean (20 or 22 digits,
    spaces removed) and a missing one is a message on the field, before the
    model's check constraint could speak."""

    article_field = "article_number"
    method_field: str | None = "method"

    def _article_required(self) -> bool:
        if self.method_field is None:
            return True
        method = self.data.get(self.add_prefix(self.method_field), "")
        return method == ServiceRecord.Method.CERTIFIED

    def _clean_article(self):
        return article_number_clean(
            self.data.get(self.add_prefix(self.article_field), ""),
            required=self._article_required(),
        )


class ServiceForm(ArticleNumberMixin, forms.ModelForm):
    def clean_article_number(self):
        return self._clean_article()

    class Meta:
        model = ServiceRecord
        fields = ["method", "served_on", "article_number", "served_by", "where"]
        widgets = {"served_on": DateInput()}


class ServiceCorrectionForm(ArticleNumberMixin, forms.Form):
    """The corrected values of a wrongly recorded service, and why
    (enforcement.services.notices.service_record_correct)."""

    method = forms.ChoiceField(choices=ServiceRecord.Method.choices)
    served_on = forms.DateField(widget=DateInput(), label="Served on")
    article_number = forms.CharField(
        max_length=40, required=False, label="Certified mail article number"
    )
    served_by = forms.CharField(max_length=200, required=False)
    where = forms.CharField(
        max_length=200,
        required=False,
        help_text="Where it was delivered or posted.",
    )
    reason = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 2}),
        label="Why the record is corrected",
        error_messages={"required": "Say why the service record is corrected."},
        help_text="Kept in the case's chronology with what the record said before.",
    )

    def clean_article_number(self):
        return self._clean_article()

    @staticmethod
    def initial_from(record) -> dict:
        return {name: getattr(record, name) for name in ServiceForm.Meta.fields}


class HearingServiceForm(ArticleNumberMixin, forms.ModelForm):
    def clean_article_number(self):
        return self._clean_article()

    class Meta:
        model = HearingNoticeService
        fields = ["sent_to", "method", "served_on", "article_number", "served_by"]
        widgets = {"served_on": DateInput()}
        labels = {"sent_to": "Sent to"}


class DeliveryForm(forms.Form):
    """The outcome of a certified mailing (enforcement.services.mail)."""

    outcome = forms.ChoiceField(
        choices=MailOutcome.choices, widget=forms.RadioSelect, label="Outcome"
    )
    on = forms.DateField(
        widget=DateInput(), label="On (green card or USPS tracking date)"
    )
    service = forms.IntegerField(widget=forms.HiddenInput, required=False)


class ComplyForm(forms.Form):
    complied_on = forms.DateField(widget=DateInput(), required=False)
    note = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}))


class NoteForm(forms.Form):
    note = forms.CharField(
        required=False, widget=forms.Textarea(attrs={"rows": 2}), label="Reason / note"
    )


class EmptyForm(forms.Form):
    pass


NOTICE_STEP_FORMS = {
    "issue": EmptyForm,
    "comply": ComplyForm,
    "plain": NoteForm,
    "escalate": NoteForm,
    "withdraw": NoteForm,
}


class AppealForm(forms.Form):
    notice = forms.ModelChoiceField(
        queryset=NoticeOfViolation.objects.none(), label="Notice appealed"
    )
    appellant = forms.ModelChoiceField(queryset=Party.objects.none())
    filed_on = forms.DateField(widget=DateInput(), label="Date filed")
    grounds = forms.CharField(widget=forms.Textarea(attrs={"rows": 4}))
    document = forms.FileField(required=False, label="Document filed with the appeal")

    def __init__(self, *args, notices, appellants, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["notice"].queryset = notices
        self.fields["appellant"].queryset = appellants


class MeetingChoice(forms.ModelChoiceField):
    def label_from_instance(self, obj):
        return f"{human_date(obj.date)}, {human_time(obj.time)}, {obj.place}"


class HearingForm(forms.Form):
    """At a Board meeting already recorded, or at a date, time and place (the
    meeting then recorded with them)."""

    meeting = MeetingChoice(
        queryset=BoardMeeting.objects.none(),
        required=False,
        label="At the Board meeting",
        empty_label="— a new meeting: give its date, time and place —",
    )
    hearing_at = WallClockDateTimeField(
        widget=DateTimeInput(), label="Hearing date and time", required=False
    )
    location = forms.CharField(max_length=200, required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["meeting"].queryset = BoardMeeting.objects.upcoming()

    def clean(self):
        data = super().clean()
        if not data.get("meeting") and not data.get("hearing_at"):
            self.add_error(
                "hearing_at",
                "Choose a meeting, or give the hearing date and time.",
            )
        return data


class MeetingForm(forms.Form):
    date = forms.DateField(widget=DateInput())
    time = forms.TimeField(widget=forms.TimeInput(attrs={"type": "time"}))
    place = forms.CharField(max_length=200, initial="Village Hall")
    notes = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), required=False)


class DecisionForm(forms.Form):
    decision = forms.ChoiceField(choices=Decision.choices)
    decided_on = forms.DateField(widget=DateInput(), label="Date of decision")
    resolution = forms.CharField(widget=forms.Textarea(attrs={"rows": 4}))
    modification = forms.CharField(
        label="What the Board modified",
        required=False,  # required for a modified decision: the step's guard says so
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="For a modified decision only: what the Board changed in the "
        "SMO's determination. The SMO then issues a notice superseding the one "
        "appealed, with the requirements as modified.",
    )


class ClerkFilingForm(forms.Form):
    filed_on = forms.DateField(
        widget=DateInput(), label="Date filed in the office of the municipal clerk"
    )


class MailingForm(ArticleNumberMixin, forms.Form):
    method_field = None  # the Board's decision is mailed certified (R-APL-3)

    mailed_on = forms.DateField(widget=DateInput(), label="Date mailed (certified)")
    article_number = forms.CharField(
        max_length=40,
        label="Certified mail article number",
        required=False,  # its missing is said by clean_article_number
    )

    def clean_article_number(self):
        return self._clean_article()


class AppealWithdrawForm(forms.Form):
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}))


# The forms of the appeal's steps, by the step's "form" key (enforcement.models.appeals).
APPEAL_STEP_FORMS = {
    "hearing": HearingForm,
    "decide": DecisionForm,
    "withdraw": AppealWithdrawForm,
}


class DocumentForm(forms.Form):
    document = forms.FileField()
    description = forms.CharField(max_length=200, required=False)


class OffenseForm(forms.ModelForm):
    class Meta:
        model = OffenseRecord
        fields = [
            "committed_on",
            "description",
            "case",
            "court",
            "outcome",
            "outcome_on",
            "fine_imposed",
            "imprisonment_days",
        ]
        widgets = {"committed_on": DateInput(), "outcome_on": DateInput()}


class CostItemForm(forms.Form):
    description = forms.CharField(max_length=200, label="Cost (what it was for)")
    amount = forms.DecimalField(
        min_value=0.01, max_digits=10, decimal_places=2, label="Amount ($)"
    )
    incurred_on = forms.DateField(widget=DateInput(), label="Date incurred")


class ItemCompleteForm(forms.Form):
    """The completion of one chosen alternative remedy (its prefix: the item)."""

    completed_on = forms.DateField(widget=DateInput(), label="Date completed")
    note = forms.CharField(max_length=300, required=False, label="Note")

    def __init__(self, *args, item, **kwargs):
        kwargs.setdefault("prefix", f"item-{item.pk}")
        super().__init__(*args, **kwargs)
        self.item = item
        kind = item.get_kind_display()
        self.fields["completed_on"].label = f"Date completed: {kind}"
        self.fields["note"].label = f"Note on the completion: {kind}"


class ReinstatementForm(forms.Form):
    observed_on = forms.DateField(widget=DateInput(), label="Date found")
    description = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}))


# --- creating a remedy ------------------------------------------------------------


class CorrectiveCreateForm(forms.Form):
    notice = forms.ModelChoiceField(
        queryset=NoticeOfViolation.objects.none(), label="Notice not complied with"
    )
    request_letter_on = forms.DateField(
        widget=DateInput(), label="Date of the letter requesting access"
    )
    owner = forms.ModelChoiceField(
        queryset=Party.objects.none(),
        label="Owner of the premises (the letter is addressed to them)",
        help_text="The notice's recipient gets a copy when another person.",
    )

    def __init__(self, *args, case, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["notice"].queryset = case.notices.filter(
            status__in=["not_complied", "escalated"]
        )
        owners = case.owners()
        self.fields["owner"].queryset = owners
        if len(owners) == 1:
            self.fields["owner"].initial = owners[0].pk


def _model_create_form(model, fields, party=False):
    base = modelform_factory(
        model,
        fields=fields,
        widgets=_widgets(model, fields),
        field_classes=_field_classes(model, fields),
    )

    class Form(base):
        def __init__(self, *args, case, **kwargs):
            super().__init__(*args, **kwargs)
            if "party" in self.fields:
                from .services.notices import case_recipients

                self.fields["party"].queryset = case_recipients(case)
                self.fields["party"].initial = case.responsible_party_id

    Form.__name__ = f"{model.__name__}CreateForm"
    return Form


NuisanceCreateForm = _model_create_form(
    NuisanceAbatement, ["condition_description", "declared_on"]
)
InjunctionCreateForm = _model_create_form(
    InjunctionReferral, ["kind", "relief", "referred_on", "referred_to", "grounds"]
)
SuspensionCreateForm = _model_create_form(
    AccessSuspension, ["party", "suspended_at", "reasons"]
)
TerminationCreateForm = _model_create_form(
    AccessTermination, ["party", "notice_on", "reasons"]
)
_AlternativeBase = _model_create_form(
    AlternativeRemedy,
    [
        "party",
        "violation_date",
        "unintentional",
        "minimal_damage",
        "acted_quickly",
        "cooperated",
        "findings",
    ],
)


class AlternativeCreateForm(_AlternativeBase):
    kinds = forms.MultipleChoiceField(
        choices=AlternativeKind.choices,
        widget=forms.CheckboxSelectMultiple,
        label=cite("R-ALT-2", "Remedies ({section})"),
    )
    details = forms.CharField(
        max_length=300, required=False, label="Details (dates, place, provider)"
    )


CREATE_FORMS = {
    "corrective": CorrectiveCreateForm,
    "nuisance": NuisanceCreateForm,
    "injunction": InjunctionCreateForm,
    "suspension": SuspensionCreateForm,
    "termination": TerminationCreateForm,
    "alternative": AlternativeCreateForm,
}

# --- one form per step of a remedy (the transition's custom "form" key) ----------


def _step_form(model, fields, labels, *, optional=(), help_texts=None):
    """The form of one remedy step: the model fields that step records, each
    required unless `optional` (a box to tick is never required: its guard says
    what it must be)."""
    base = modelform_factory(
        model,
        fields=fields,
        widgets=_widgets(model, fields),
        field_classes=_field_classes(model, fields),
        labels=labels,
        help_texts=help_texts or {},
    )

    class Form(base):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            for name, field in self.fields.items():
                if not isinstance(field, forms.BooleanField):
                    field.required = name not in optional

    Form.__name__ = f"{model.__name__}{fields[0].title().replace('_', '')}Form"
    return Form


_WORK_LABELS = {
    "performed_by": "Work done by",
    "performer_name": "Name of the agency or contractor",
    "work_description": "Work done",
    "work_completed_on": "Date the work was completed",
}
_WORK_FIELDS = list(_WORK_LABELS)


def _work_form(model):
    return _step_form(model, _WORK_FIELDS, _WORK_LABELS, optional=("performer_name",))


_SuspensionNoticeBase = _step_form(
    AccessSuspension,
    ["notice_sent_on", "notice_method", "notice_article_number"],
    {
        "notice_sent_on": "Date the notice of reasons was sent",
        "notice_method": "How it was sent",
        "notice_article_number": "Certified mail article number",
    },
    optional=("notice_article_number",),
    help_texts={"notice_article_number": "Required for certified mail."},
)


class SuspensionNoticeForm(ArticleNumberMixin, _SuspensionNoticeBase):
    """The service of the written notice of reasons (R-SUS-1), as a notice of
    violation's service is recorded: the date, how, the article number."""

    article_field = "notice_article_number"
    method_field = "notice_method"

    def clean_notice_article_number(self):
        return self._clean_article()

    @staticmethod
    def initial_from(suspension) -> dict:
        """Once its document is issued, the form offers the date it was issued."""
        from documents.selectors import latest_document

        document = latest_document(suspension, EnforcementDocument.EMERGENCY_SUSPENSION)
        if document is None:
            return {}
        return {"notice_sent_on": timezone.localtime(document.created_at).date()}


REMEDY_STEP_FORMS = {
    "corrective": {
        "response": _step_form(
            CorrectiveAction,
            ["response_on", "response_note"],
            {
                "response_on": "Date of the owner's answer",
                "response_note": "What the owner said",
            },
            optional=("response_note",),
        ),
        "warrant": _step_form(
            CorrectiveAction,
            ["warrant_court", "warrant_applied_on", "warrant_issued_on"],
            {
                "warrant_court": "Court that issued the warrant",
                "warrant_applied_on": "Date the warrant was sought",
                "warrant_issued_on": "Date the warrant was issued",
            },
        ),
        "order": _step_form(
            CorrectiveAction,
            ["order_court", "order_on", "order_terms"],
            {
                "order_court": "Court that made the order",
                "order_on": "Date of the order",
                "order_terms": "Terms of the order",
            },
        ),
        "work": _work_form(CorrectiveAction),
    },
    "nuisance": {
        "work": _work_form(NuisanceAbatement),
    },
    "injunction": {
        "petition": _step_form(
            InjunctionReferral,
            ["court", "petition_filed_on"],
            {
                "court": "Court the petition was filed in",
                "petition_filed_on": "Date the petition was filed",
            },
        ),
        "outcome": _step_form(
            InjunctionReferral,
            ["decided_on", "outcome_note"],
            {
                "decided_on": "Date of the court's decision",
                "outcome_note": "What the court decided",
            },
        ),
        "note": _step_form(
            InjunctionReferral,
            ["outcome_note"],
            {"outcome_note": "Why the referral is withdrawn"},
        ),
    },
    "suspension": {
        "notice": SuspensionNoticeForm,
        "lift": _step_form(
            AccessSuspension,
            ["lifted_on", "lifted_reason", "noncompliance_steps"],
            {
                "lifted_on": "Date the suspension is lifted",
                "lifted_reason": "Why the suspension is lifted",
                "noncompliance_steps": "Steps taken if the order was not obeyed",
            },
            optional=("noncompliance_steps",),
            help_texts={
                "noncompliance_steps": cite(
                    "R-SUS-1",
                    "What the SMO did when the order was not obeyed ({section}).",
                )
            },
        ),
    },
    "termination": {
        "terminate": _step_form(
            AccessTermination,
            ["terminated_on"],
            {"terminated_on": "Date access was terminated"},
        ),
        "petition": _step_form(
            AccessTermination,
            ["petition_on", "petition_grounds"],
            {
                "petition_on": "Date of the petition for reconsideration",
                "petition_grounds": "Grounds of the petition",
            },
        ),
        "hearing": _step_form(
            AccessTermination,
            ["hearing_at", "hearing_location"],
            {
                "hearing_at": "Hearing date and time",
                "hearing_location": "Where the hearing is held",
            },
            optional=("hearing_location",),
        ),
        "grant": _step_form(
            AccessTermination,
            ["decided_on", "discharge_ceased", "recurrence_prevented", "determination"],
            {
                "decided_on": "Date of the decision",
                "discharge_ceased": "The discharge has ceased",
                "recurrence_prevented": "Its recurrence is prevented",
                "determination": "Written finding",
            },
        ),
        "deny": _step_form(
            AccessTermination,
            ["decided_on", "determination"],
            {
                "decided_on": "Date of the decision",
                "determination": "Written determination (why access is denied)",
            },
        ),
        "withdraw": _step_form(
            AccessTermination,
            ["determination"],
            {"determination": "Why the proposal is withdrawn"},
        ),
    },
    "alternative": {
        "recommend": _step_form(
            AlternativeRemedy,
            ["recommendation_note"],
            {"recommendation_note": "Note with the recommendation"},
            optional=("recommendation_note",),
        ),
        "concur": _step_form(
            AlternativeRemedy,
            ["concurrence_note"],
            {"concurrence_note": "Note with the concurrence"},
            optional=("concurrence_note",),
        ),
        "decline": _step_form(
            AlternativeRemedy,
            ["declined_reason"],
            {"declined_reason": "Why it is declined"},
        ),
        "plain": EmptyForm,
    },
}
