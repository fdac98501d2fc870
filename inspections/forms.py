"""Forms of the inspections app: validation and cleaning only; services write."""

from django import forms
from django.contrib.auth import get_user_model

from cases.models import Case, Outfall, Premises
from kernel.fields import wall_clock
from kernel.roles import Role
from kernel.widgets import DateInput, DateTimeInput

from .models import (
    BMPRequirement,
    Calibration,
    ComplianceProofRequest,
    DischargeApproval,
    DyeTestNotice,
    Facility,
    Inspection,
    InspectionCorrection,
    MonitoringEquipment,
    OutfallScreening,
    Sample,
    SpillNotification,
)
from .services.facilities import FACILITY_FIELDS
from .services.inspections import CORRECTABLE_FIELDS
from .services.outfalls import OUTFALL_FIELDS
from .services.spills import SPILL_FIELDS


def _dates(form_class):
    """Use the browser's date and date-time pickers for every date field."""
    for name, field in form_class.base_fields.items():
        if isinstance(field, forms.DateTimeField):
            field.widget = DateTimeInput()
            field.input_formats = ["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"]
            form_class.base_fields[name] = wall_clock(field)
        elif isinstance(field, forms.DateField):
            field.widget = DateInput()
    return form_class


def smo_officers():
    return (
        get_user_model()
        .objects.filter(groups__name=Role.SMO.value, is_active=True)
        .order_by("last_name", "username")
    )


class OfficerChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, obj):
        return obj.get_full_name() or obj.username


@_dates
class FacilityForm(forms.ModelForm):
    class Meta:
        model = Facility
        fields = [*FACILITY_FIELDS]


@_dates
class ProofRequestForm(forms.ModelForm):
    class Meta:
        model = ComplianceProofRequest
        fields = ["requested_on", "what_is_required"]


class ProofRecordForm(forms.Form):
    proof_received_on = forms.DateField(widget=DateInput())
    proof_description = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}))
    accepted = forms.BooleanField(required=False, label="Proof accepted")


@_dates
class EquipmentForm(forms.ModelForm):
    class Meta:
        model = MonitoringEquipment
        fields = [
            "kind",
            "description",
            "location",
            "installed_on",
            "calibration_interval_months",
        ]


@_dates
class CalibrationForm(forms.ModelForm):
    class Meta:
        model = Calibration
        fields = ["calibrated_on", "calibrated_by", "notes"]


@_dates
class BMPForm(forms.ModelForm):
    class Meta:
        model = BMPRequirement
        fields = [
            "premises",
            "facility",
            "case",
            "responsible_party",
            "practice_type",
            "description",
            "at_persons_expense",
            "required_on",
            "days_to_implement",
        ]


class BMPVerifyForm(forms.Form):
    verified_on = forms.DateField(widget=DateInput())
    notes = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}))


@_dates
class InspectionScheduleForm(forms.ModelForm):
    officer = OfficerChoiceField(queryset=None)

    class Meta:
        model = Inspection
        fields = [
            "kind",
            "premises",
            "facility",
            "case",
            "officer",
            "scheduled_for",
            "purpose",
        ]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["officer"].queryset = smo_officers()
        self.fields["premises"].required = False
        self.fields["premises"].help_text = (
            "Or choose a facility below; an inspection for a case is at the "
            "case's premises unless you choose others."
        )

    def clean(self):
        data = super().clean()
        if not (data.get("premises") or data.get("facility") or data.get("case")):
            raise forms.ValidationError(
                "Choose the premises or the facility (or the case they belong to)."
            )
        return data


class StepForm(forms.Form):
    """The form of one step of a record's state machine (kernel.actions):
    `record` is the record the step is taken on (for initial values)."""

    def __init__(self, *args, record=None, **kwargs):
        self.record = record
        super().__init__(*args, **kwargs)


@_dates
class InspectionRecordForm(StepForm):
    performed_at = forms.DateTimeField(label="When the visit took place")
    attendees = forms.CharField(
        label="Who went", max_length=300, help_text="Names of everyone who went."
    )
    access_outcome = forms.ChoiceField(
        label="Access outcome", choices=[("", "—"), *Inspection.Access.choices]
    )
    access_notes = forms.CharField(
        label="Access notes",
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text="Who granted, delayed or refused access, and what was said.",
    )
    findings = forms.CharField(
        label="Findings", required=False, widget=forms.Textarea(attrs={"rows": 4})
    )


class FindingsForm(forms.Form):
    findings = forms.CharField(widget=forms.Textarea(attrs={"rows": 4}))


class CancelForm(StepForm):
    reason = forms.CharField(
        label="Why it is cancelled", widget=forms.Textarea(attrs={"rows": 2})
    )


# The forms of the inspection's steps, by the `form` key of its transitions.
INSPECTION_STEP_FORMS = {"visit": InspectionRecordForm, "cancel": CancelForm}


class CorrectionForm(forms.ModelForm):
    field_name = forms.ChoiceField(
        label="What is corrected", choices=list(CORRECTABLE_FIELDS.items())
    )

    class Meta:
        model = InspectionCorrection
        fields = ["field_name", "corrected_text", "reason"]


@_dates
class SampleForm(forms.ModelForm):
    class Meta:
        model = Sample
        fields = [
            "parameter",
            "value",
            "unit",
            "method",
            "lab",
            "chain_of_custody_number",
            "sampled_on",
        ]

    def clean(self):
        """Keep the value as it was typed beside the number (the service stores
        both): "2.10 mg/L" is shown as the lab wrote it."""
        cleaned = super().clean()
        raw = self.data.get(self.add_prefix("value"), "")
        cleaned["value_as_entered"] = (
            str(raw).strip() if cleaned.get("value") is not None else ""
        )
        return cleaned


class PhotoForm(forms.Form):
    photo = forms.FileField(help_text="JPEG, PNG, WebP or GIF, up to 10 MB.")
    caption = forms.CharField(max_length=200, required=False)


class WarrantDraftForm(forms.Form):
    """Edit the draft without filing it (the filing step's form files it)."""

    probable_cause = forms.CharField(
        label="Draft probable-cause statement",
        widget=forms.Textarea(attrs={"rows": 5}),
        required=False,
    )
    court = forms.CharField(label="Draft: court", max_length=200, required=False)


class WarrantFilingForm(StepForm):
    """File the application: the statement and the court (from the draft), and
    the date it was filed."""

    probable_cause = forms.CharField(
        label="Probable-cause statement", widget=forms.Textarea(attrs={"rows": 4})
    )
    court = forms.CharField(max_length=200)
    on = forms.DateField(label="Date filed", widget=DateInput())
    notes = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), required=False)

    def __init__(self, *args, record=None, **kwargs):
        super().__init__(*args, record=record, **kwargs)
        if record is not None:
            self.fields["probable_cause"].initial = record.probable_cause
            self.fields["court"].initial = record.court


def _warrant_date_form(label: str):
    class WarrantDateForm(StepForm):
        on = forms.DateField(label=label, widget=DateInput())
        notes = forms.CharField(
            widget=forms.Textarea(attrs={"rows": 2}), required=False
        )

    return WarrantDateForm


# The forms of the warrant application's steps, by the `form` key of its
# transitions.
WARRANT_STEP_FORMS = {
    "file": WarrantFilingForm,
    "issued": _warrant_date_form("Date the court issued the warrant"),
    "denied": _warrant_date_form("Date the court denied the warrant"),
    "executed": _warrant_date_form("Date the warrant was executed"),
}


@_dates
class OutfallForm(forms.ModelForm):
    class Meta:
        model = Outfall
        fields = [*OUTFALL_FIELDS]
        labels = {"tmdl_approved_on": "Date EPA approved the TMDL"}


@_dates
class ScreeningForm(forms.ModelForm):
    class Meta:
        model = OutfallScreening
        fields = [
            "screened_at",
            "hours_since_rain",
            "flow_present",
            "flow_rate",
            "colour",
            "colour_description",
            "odour",
            "odour_description",
            "turbidity",
            "floatables",
            "deposits_stains",
            "vegetation",
            "pipe_benthic_growth",
            "pool_quality",
            "severity",
            "notes",
        ]


@_dates
class SpillForm(forms.ModelForm):
    class Meta:
        model = SpillNotification
        fields = ["premises", "facility", "case", *SPILL_FIELDS]
        help_texts = {
            "dispatch_called_at": "Hazardous releases only (R-SPL-2).",
            "notice_method": "Leave empty if the village was not told.",
            "commercial_or_industrial": "The on-site record must then be kept three "
            "years (R-SPL-5).",
        }


class SpillConfirmationForm(StepForm):
    confirmation_mailed_on = forms.DateField(
        label="Written confirmation mailed on (postmark)", widget=DateInput()
    )
    confirmation_received_on = forms.DateField(
        label="Received on", widget=DateInput(), required=False
    )


class SpillCloseForm(StepForm):
    notes = forms.CharField(
        label="Closing notes",
        widget=forms.Textarea(attrs={"rows": 2}),
        required=False,
    )


# The forms of the spill notification's steps, by the `form` key of its
# transitions.
SPILL_STEP_FORMS = {"confirmation": SpillConfirmationForm, "close": SpillCloseForm}


@_dates
class DyeTestForm(forms.ModelForm):
    class Meta:
        model = DyeTestNotice
        fields = [
            "premises",
            "case",
            "notified_at",
            "notified_by",
            "test_at",
            "tester",
            "purpose",
        ]


@_dates
class ApprovalForm(forms.ModelForm):
    class Meta:
        model = DischargeApproval
        fields = [
            "premises",
            "case",
            "reference",
            "harm_prevented",
            "discharge_description",
            "starts_on",
            "ends_on",
            "conditions",
            "approved_on",
        ]


# Keep select lists short on phones: open cases only for linking.
for _form in (InspectionScheduleForm, BMPForm, SpillForm, DyeTestForm, ApprovalForm):
    _form.base_fields["case"].queryset = Case.objects.order_by("-opened_at")
    _form.base_fields["case"].required = False
for _form in (SpillForm, DyeTestForm, ApprovalForm, BMPForm):
    _form.base_fields["premises"].queryset = Premises.objects.all()
