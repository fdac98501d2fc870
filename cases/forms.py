"""Forms of the staff case pages: validation and cleaning only; views call services."""

from django import forms
from django.contrib.auth import get_user_model
from django.utils import timezone

from intake.models import ExemptCategory, PollutantCategory, Report
from intake.selectors import normalize_tracking_code
from kernel.citations import cite
from kernel.roles import Role
from kernel.uploads import MAX_FILE_BYTES
from kernel.widgets import DateInput

from . import services, triage
from .models import (
    Case,
    CaseKind,
    CaseParty,
    CaseSource,
    CaseStatus,
    ConnectionType,
    Outfall,
    Party,
    Premises,
)
from .services import EDITABLE_FIELDS

DIRECT_SOURCES = [
    (value, label)
    for value, label in CaseSource.choices
    if value not in {CaseSource.WEB, CaseSource.OPEN311, CaseSource.INSPECTION}
]


def officers():
    return (
        get_user_model()
        .objects.filter(groups__name=Role.SMO.value, is_active=True)
        .order_by("last_name", "first_name", "username")
        .distinct()
    )


class OfficerChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, obj):
        return obj.get_full_name() or obj.username


class CaseDetailsFields(forms.Form):
    """What the case is about; shared by "open a case" and "edit details"."""

    kind = forms.ChoiceField(choices=CaseKind.choices)
    summary = forms.CharField(max_length=200)
    description = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}), required=False
    )
    premises = forms.ModelChoiceField(
        queryset=Premises.objects.all(),
        required=False,
        help_text="Choose known premises, or enter new ones below.",
    )
    new_premises_address = forms.CharField(
        label="New premises: address", max_length=200, required=False
    )
    new_premises_tax_map_number = forms.CharField(
        label="New premises: Suffolk County tax map number",
        max_length=40,
        required=False,
        help_text="District-section-block-lot, e.g. 0200-001.00-01.00-001.000",
    )
    new_premises_land_use = forms.ChoiceField(
        label="New premises: land use",
        choices=[("", "—")] + list(Premises.LandUse.choices),
        required=False,
    )
    location_description = forms.CharField(max_length=200, required=False)
    latitude = forms.DecimalField(
        max_digits=9, decimal_places=6, min_value=-90, max_value=90, required=False
    )
    longitude = forms.DecimalField(
        max_digits=9, decimal_places=6, min_value=-180, max_value=180, required=False
    )
    outfall = forms.ModelChoiceField(
        queryset=Outfall.objects.filter(active=True),
        required=False,
        label="Receiving outfall",
    )
    pollutant_categories = forms.ModelMultipleChoiceField(
        queryset=PollutantCategory.objects.filter(active=True),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=cite("R-DEF-1", "{section} pollutants (R-DEF-1)."),
    )
    assigned_officer = OfficerChoiceField(queryset=officers(), required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["assigned_officer"].queryset = officers()

    def clean(self):
        data = super().clean()
        if data.get("premises") and data.get("new_premises_address"):
            self.add_error(
                "new_premises_address",
                "Either choose known premises or enter new ones, not both.",
            )
        if not data.get("new_premises_address") and (
            data.get("new_premises_tax_map_number") or data.get("new_premises_land_use")
        ):
            self.add_error("new_premises_address", "Give the new premises' address.")
        if (data.get("latitude") is None) != (data.get("longitude") is None):
            self.add_error("longitude", "Give both latitude and longitude, or neither.")
        return data

    def service_fields(self) -> dict:
        """Keyword arguments for case_open / case_update_details."""
        data = self.cleaned_data
        fields = {name: data[name] for name in EDITABLE_FIELDS}
        fields["pollutant_categories"] = list(data["pollutant_categories"])
        if data.get("new_premises_address"):
            fields["new_premises"] = {
                "address": data["new_premises_address"],
                "tax_map_number": data["new_premises_tax_map_number"],
                "land_use": data["new_premises_land_use"],
            }
        return fields


class CaseOpenForm(CaseDetailsFields):
    """Open a case directly: a phone call, walk-in, e-mail, own observation…"""

    source = forms.ChoiceField(choices=DIRECT_SOURCES, label="How it reached us")
    field_order = ["source", "kind", "summary"]


class CaseDetailsForm(CaseDetailsFields):
    expected_version = forms.IntegerField(widget=forms.HiddenInput)

    @classmethod
    def for_case(cls, case: Case, data=None):
        initial = {
            name: getattr(case, name)
            for name in (
                "kind",
                "summary",
                "description",
                "location_description",
                "latitude",
                "longitude",
            )
        }
        initial.update(
            premises=case.premises_id,
            outfall=case.outfall_id,
            assigned_officer=case.assigned_officer_id,
            pollutant_categories=[p.pk for p in case.pollutant_categories.all()],
            expected_version=case.version,
        )
        return cls(data=data, initial=initial)


class TriageForm(forms.Form):
    """Turn selected reports into a new case, or attach them to an existing one."""

    ACTIONS = [("new", "Open a new case"), ("attach", "Add to an existing case")]

    reports = forms.ModelMultipleChoiceField(
        queryset=Report.objects.filter(case__isnull=True),
        widget=forms.CheckboxSelectMultiple,
        error_messages={"required": "Select at least one report."},
    )
    action = forms.ChoiceField(choices=ACTIONS, widget=forms.RadioSelect, initial="new")
    summary = forms.CharField(
        max_length=200, required=False, help_text="For a new case: a one-line summary."
    )
    kind = forms.ChoiceField(choices=CaseKind.choices, required=False)
    attach_to = forms.CharField(
        label="Existing case number",
        max_length=20,
        required=False,
        help_text="e.g. MS4-2026-0042",
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["reports"].label_from_instance = lambda r: r.tracking_code

    def clean(self):
        data = super().clean()
        if data.get("action") == "new" and not data.get("summary"):
            self.add_error("summary", "Give the new case a summary.")
        if data.get("action") == "attach":
            number = (data.get("attach_to") or "").strip()
            if not number:
                self.add_error("attach_to", "Give the case number to add them to.")
            else:
                case = Case.objects.filter(number__iexact=number).first()
                if case is None:
                    self.add_error("attach_to", f"No case {number}.")
                elif case.status == CaseStatus.DUPLICATE:
                    self.add_error(
                        "attach_to",
                        f"{case.number} was merged into {case.merged_into}; use that.",
                    )
                data["case"] = case
        return data


# --- transition forms -----------------------------------------------------------------
class TransitionForm(forms.Form):
    """What one transition needs. `case_fields()` are set on the case before the FSM
    checks its conditions; the FSM (not this form) decides if the move is allowed."""

    expected_status = forms.CharField(widget=forms.HiddenInput)
    expected_version = forms.IntegerField(widget=forms.HiddenInput)
    reason = forms.CharField(
        label="Reason / note for the record",
        widget=forms.Textarea(attrs={"rows": 3}),
        required=False,
    )
    public = forms.BooleanField(
        label="Show this step to the resident on the status page",
        required=False,
        initial=False,
    )
    case_field_names: tuple[str, ...] = ()

    def __init__(self, *args, case: Case, transition: str = "", **kwargs):
        self.case = case
        self.transition = transition
        kwargs.setdefault(
            "initial",
            {"expected_status": case.status, "expected_version": case.version},
        )
        super().__init__(*args, **kwargs)

    def case_fields(self) -> dict:
        return {name: self.cleaned_data[name] for name in self.case_field_names}

    def perform(self, *, actor) -> Case:
        """Take the step with what the user entered (cases.services)."""
        data = self.cleaned_data
        return services.case_run_transition(
            case=self.case,
            transition=self.transition,
            actor=actor,
            reason=self.record_text(),
            public=data["public"],
            expected_status=data["expected_status"],
            expected_version=data["expected_version"],
            **self.case_fields(),
        )

    def record_text(self) -> str:
        """What the timeline event says: the reason and what the user entered."""
        lines = [
            f"{self.fields[name].label or name}: {value}"
            for name, value in self.case_fields().items()
            if value not in (None, "")
        ]
        if self.cleaned_data.get("reason"):
            lines.append(self.cleaned_data["reason"])
        return "\n".join(lines)


class StartInvestigationForm(TransitionForm):
    pass


class CloseUnfoundedForm(TransitionForm):
    closing_reason = forms.CharField(
        label="Reasons the report is unfounded",
        widget=forms.Textarea(attrs={"rows": 3}),
    )
    case_field_names = ("closing_reason",)
    field_order = ["closing_reason", "reason"]


class CloseExemptForm(TransitionForm):
    exemption_basis = forms.ChoiceField(
        choices=[
            (value, cite("R-PRO-2", "Exempt category of {section} (R-PRO-2)"))
            if value == Case.ExemptionBasis.CATEGORY
            else (value, label)
            for value, label in Case.ExemptionBasis.choices
        ],
        widget=forms.RadioSelect,
    )
    exempt_category = forms.ModelChoiceField(
        queryset=ExemptCategory.objects.all(),
        required=False,
        label=cite("R-PRO-2", "Exempt category of {section}"),
    )
    exemption_reference = forms.CharField(
        max_length=200,
        required=False,
        label="Approval or permit relied on",
        help_text="For R-PRO-3: the SMO's written approval (date, period). For "
        "R-PRO-5: the SPDES permit number and the written approval.",
    )
    case_field_names = ("exemption_basis", "exempt_category", "exemption_reference")
    field_order = ["exemption_basis", "exempt_category", "exemption_reference"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["exempt_category"].label_from_instance = lambda c: (
            f"{c.name} — substantial contributor, no longer exempt"
            if c.substantial_contributor
            else c.name
        )

    def clean(self):
        data = super().clean()
        basis = data.get("exemption_basis")
        category = data.get("exempt_category")
        if basis == Case.ExemptionBasis.CATEGORY:
            if category is None:
                self.add_error("exempt_category", "Choose the category relied on.")
            elif category.substantial_contributor:
                self.add_error(
                    "exempt_category",
                    f"“{category.name}” has been determined a substantial "
                    "contributor of pollutants and no longer exempts (R-PRO-2).",
                )
            data["exemption_reference"] = ""
        elif basis and not (data.get("exemption_reference") or "").strip():
            self.add_error("exemption_reference", "Give the approval or permit.")
        elif basis:
            data["exempt_category"] = None
            if basis == Case.ExemptionBasis.SMO_APPROVAL:
                self._check_approval_in_force(data["exemption_reference"].strip())
        return data

    def _check_approval_in_force(self, reference: str) -> None:
        """R-PRO-3 (the rule is Case.approval_in_force; said here on the field)."""
        if not Case.approval_in_force(reference):
            self.add_error(
                "exemption_reference",
                f"No SMO written approval “{reference}” is in force today "
                "(R-PRO-3). An expired or revoked approval no longer exempts a "
                "discharge; record the approval under Inspections first.",
            )


class ReferForm(TransitionForm):
    referred_to = forms.CharField(max_length=200, label="Agency referred to")
    referred_on = forms.DateField(widget=DateInput, initial=timezone.localdate)
    case_field_names = ("referred_to", "referred_on")
    field_order = ["referred_to", "referred_on", "reason"]

    def clean_referred_on(self):
        day = self.cleaned_data["referred_on"]
        if day > timezone.localdate():
            raise forms.ValidationError("The referral date cannot be in the future.")
        return day


class MergeDuplicateForm(TransitionForm):
    merge_into = forms.CharField(
        label="Merge into case number", max_length=20, help_text="e.g. MS4-2026-0042"
    )
    field_order = ["merge_into", "reason"]

    def perform(self, *, actor) -> Case:
        """Merging also moves the reports (cases.services.case_merge_duplicate)."""
        data = self.cleaned_data
        return services.case_merge_duplicate(
            case=self.case,
            into=data["merge_into"],
            actor=actor,
            reason=data["reason"],
            expected_status=data["expected_status"],
            expected_version=data["expected_version"],
        )

    def clean_merge_into(self):
        number = self.cleaned_data["merge_into"].strip()
        target = Case.objects.filter(number__iexact=number).first()
        if target is None:
            raise forms.ValidationError(f"No case {number}.")
        if target.pk == self.case.pk:
            raise forms.ValidationError("A case cannot be merged into itself.")
        if target.status == CaseStatus.DUPLICATE:
            raise forms.ValidationError(
                f"{target.number} is itself a duplicate of {target.merged_into}."
            )
        return target


class ConfirmViolationForm(TransitionForm):
    responsible_party = forms.ModelChoiceField(
        queryset=Party.objects.none(),
        help_text="A party named on this case (add one first if missing).",
    )
    violation_confirmed_on = forms.DateField(
        widget=DateInput, initial=timezone.localdate
    )
    violation_finding = forms.CharField(
        label="Finding", widget=forms.Textarea(attrs={"rows": 3})
    )
    case_field_names = (
        "responsible_party",
        "violation_confirmed_on",
        "violation_finding",
    )
    field_order = [
        "responsible_party",
        "violation_confirmed_on",
        "violation_finding",
        "reason",
    ]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["responsible_party"].queryset = Party.objects.filter(
            case_roles__case=self.case
        ).distinct()
        if self.case.records_connection_type:
            # R-CON-1: a connection case records the type of connection found.
            self.fields["connection_type"] = forms.ChoiceField(
                label="Type of illicit connection",
                choices=[("", "—")] + list(ConnectionType.choices),
                initial=self.case.connection_type,
                help_text=cite("R-CON-1", "As {section} and the definition name it."),
            )
            self.case_field_names = (*self.case_field_names, "connection_type")
            self.order_fields(
                ["responsible_party", "connection_type", *self.field_order[1:]]
            )

    def clean_violation_confirmed_on(self):
        day = self.cleaned_data["violation_confirmed_on"]
        if day > timezone.localdate():
            raise forms.ValidationError("The date cannot be in the future.")
        return day


class ResolveForm(TransitionForm):
    eliminated_on = forms.DateField(
        widget=DateInput,
        label="Date the discharge or connection was eliminated",
    )
    verification = forms.CharField(
        label="How the elimination was verified",
        widget=forms.Textarea(attrs={"rows": 3}),
    )
    case_field_names = ("eliminated_on", "verification")
    field_order = ["eliminated_on", "verification", "reason"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.case.is_about_an_activity:
            # R-ACT-1: the person corrects the activity; the SMO verifies it.
            self.fields["eliminated_on"].label = "Date the activity was corrected"
            self.fields["verification"].label = "How the correction was verified"

    def clean_eliminated_on(self):
        day = self.cleaned_data["eliminated_on"]
        if day > timezone.localdate():
            raise forms.ValidationError("The date cannot be in the future.")
        return day


class NotifyActivityForm(TransitionForm):
    """R-ACT-1: the person is told the activity causes or contributes to
    violations of the MS4 permit; the duty to correct follows."""

    activity_notified_on = forms.DateField(
        widget=DateInput,
        initial=timezone.localdate,
        label="Date the person was notified of the activity",
    )
    activity_notification = forms.CharField(
        label="How and by whom the person was notified",
        widget=forms.Textarea(attrs={"rows": 3}),
    )
    case_field_names = ("activity_notified_on", "activity_notification")
    field_order = ["activity_notified_on", "activity_notification", "reason"]

    def clean_activity_notified_on(self):
        day = self.cleaned_data["activity_notified_on"]
        if day > timezone.localdate():
            raise forms.ValidationError("The date cannot be in the future.")
        return day


class ReopenForm(TransitionForm):
    reason = forms.CharField(
        label="Reason for reopening (recurrence)",
        widget=forms.Textarea(attrs={"rows": 3}),
    )


TRANSITION_FORMS = {
    "start_investigation": StartInvestigationForm,
    "close_unfounded": CloseUnfoundedForm,
    "close_exempt": CloseExemptForm,
    "refer": ReferForm,
    "mark_duplicate": MergeDuplicateForm,
    "confirm_violation": ConfirmViolationForm,
    "notify_of_activity": NotifyActivityForm,
    "resolve": ResolveForm,
    "reopen": ReopenForm,
}


# --- records on the case -----------------------------------------------------------------
class PartyForm(forms.Form):
    role = forms.ChoiceField(choices=CaseParty.Role.choices)
    party = forms.ModelChoiceField(
        queryset=Party.objects.all(),
        required=False,
        label="Known party",
        help_text="Choose a known party, or enter a new one below.",
    )
    kind = forms.ChoiceField(
        choices=Party.Kind.choices,
        required=False,
        label="New party: individual or entity",
    )
    name = forms.CharField(max_length=200, required=False, label="New party: name")
    contact_person = forms.CharField(max_length=200, required=False)
    mailing_address = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 2}), required=False
    )
    email = forms.EmailField(required=False)
    phone = forms.CharField(max_length=40, required=False)

    def clean(self):
        data = super().clean()
        if data.get("party") and data.get("name"):
            self.add_error("name", "Either choose a known party or enter a new one.")
        elif not data.get("party") and not data.get("name"):
            self.add_error("name", "Give the new party's name (or choose a known one).")
        return data

    def new_party(self) -> dict | None:
        data = self.cleaned_data
        if data.get("party"):
            return None
        return {
            "kind": data.get("kind") or Party.Kind.PERSON,
            "name": data["name"],
            "contact_person": data["contact_person"],
            "mailing_address": data["mailing_address"],
            "email": data["email"],
            "phone": data["phone"],
        }


class NoteForm(forms.Form):
    text = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), label="Note")
    public = forms.BooleanField(
        required=False,
        label="Public: show this note to the resident",
        # Not only to the resident: Open311 publishes the latest public note.
        help_text="Anyone can read it: it is shown on the report's status page "
        "and in the village's public Open311 feed.",
    )


class AttachmentForm(forms.Form):
    file = forms.FileField()
    description = forms.CharField(max_length=200, required=False)

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > MAX_FILE_BYTES:
            raise forms.ValidationError(
                f"The file is larger than {MAX_FILE_BYTES // (1024 * 1024)} MB."
            )
        if upload.size == 0:
            raise forms.ValidationError("The file is empty.")
        return upload


class ReferralOutcomeForm(forms.Form):
    expected_version = forms.IntegerField(widget=forms.HiddenInput)
    outcome = forms.CharField(
        label="What the agency did", widget=forms.Textarea(attrs={"rows": 3})
    )


class CaseFilterForm(forms.Form):
    STATUS_CHOICES = [
        ("", "Any status"),
        ("open", "Any open"),
        ("closed", "Any closed"),
        *CaseStatus.choices,
    ]
    q = forms.CharField(
        label="Search",
        required=False,
        help_text="Case number, address, tax map number, party, tracking code",
    )
    status = forms.ChoiceField(choices=STATUS_CHOICES, required=False)
    kind = forms.ChoiceField(
        choices=[("", "Any kind"), *CaseKind.choices], required=False
    )
    officer = OfficerChoiceField(
        queryset=officers(), required=False, empty_label="Any officer"
    )
    opened_from = forms.DateField(widget=DateInput, required=False)
    opened_to = forms.DateField(widget=DateInput, required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["officer"].queryset = officers()

    def clean(self):
        data = super().clean()
        start, end = data.get("opened_from"), data.get("opened_to")
        if start and end and start > end:
            self.add_error("opened_to", "The end date is before the start date.")
        return data


class PartyDetailsForm(forms.ModelForm):
    """A named party's own details (§ 132-3 PERSON), edited from a case: the
    mailing address is where a notice of violation is sent (R-NOV-1)."""

    class Meta:
        model = Party
        fields = ["kind", "name", "contact_person", "mailing_address", "email", "phone"]
        widgets = {"mailing_address": forms.Textarea(attrs={"rows": 3})}
        help_texts = {
            "mailing_address": "Where a notice of violation is mailed (R-NOV-1).",
        }

    def clean_mailing_address(self):
        # Browsers send a textarea's line breaks as CRLF; store them as the
        # notice prints them.
        lines = self.cleaned_data["mailing_address"].splitlines()
        return "\n".join(line.strip() for line in lines if line.strip())

    def changed_fields(self) -> dict:
        """{field: cleaned value} of what the user changed (for the service)."""
        return {name: self.cleaned_data[name] for name in self.changed_data}


# --- closing a report at triage (cases.triage) --------------------------------------
# Agencies a report most often goes to; any other is typed in.
REFERRAL_AGENCIES = (
    "Suffolk County Department of Health Services",
    "New York State Department of Environmental Conservation, Region 1",
    "Suffolk County Department of Public Works",
    "Town of Brookhaven",
)
OTHER_AGENCY = "other"


class TriageCloseForm(forms.Form):
    """What closing one report at triage needs; `perform` calls cases.triage.
    Prefixed by report and outcome: one page holds the forms of many reports."""

    outcome = ""
    label = ""
    public = forms.BooleanField(
        label="Show the reasons to the resident on the status page",
        required=False,
        initial=False,
        help_text="Either way the resident's page says how the report was closed.",
    )

    def __init__(self, *args, report: Report, **kwargs):
        self.report = report
        kwargs.setdefault("prefix", f"r{report.pk}-{self.outcome}")
        super().__init__(*args, **kwargs)

    def perform(self, *, actor) -> Case:
        raise NotImplementedError


class TriageUnfoundedForm(TriageCloseForm):
    outcome = "unfounded"
    label = "Close as unfounded"
    reason = forms.CharField(
        label="Why the report is unfounded",
        widget=forms.Textarea(attrs={"rows": 2}),
        max_length=2000,
        error_messages={"required": "Say why the report is unfounded."},
    )
    field_order = ["reason", "public"]

    def perform(self, *, actor) -> Case:
        return triage.report_close_unfounded(
            report=self.report,
            actor=actor,
            reason=self.cleaned_data["reason"],
            public=self.cleaned_data["public"],
        )


class TriageNoteMixin(forms.Form):
    note = forms.CharField(
        label="Note for the record (optional)",
        widget=forms.Textarea(attrs={"rows": 2}),
        max_length=2000,
        required=False,
    )


class TriageExemptForm(TriageNoteMixin, TriageCloseForm):
    outcome = "exempt"
    label = "Close as exempt"
    exempt_category = forms.ModelChoiceField(
        queryset=ExemptCategory.objects.all(),
        widget=forms.RadioSelect,
        label=cite("R-PRO-2", "The exempt discharge of {section}"),
        error_messages={
            "required": "Choose the kind of exempt discharge.",
            "invalid_choice": "Choose one of the kinds listed.",
        },
    )
    field_order = ["exempt_category", "note", "public"]

    def __init__(self, *args, categories=None, **kwargs):
        """`categories`: (the ExemptCategory rows, the field's label), read once
        for a page of many reports (each form would read them each time)."""
        super().__init__(*args, **kwargs)
        field = self.fields["exempt_category"]
        field.label_from_instance = self.category_label
        if categories is not None:
            rows, field.label = categories
            field.choices = [(c.pk, self.category_label(c)) for c in rows]

    @classmethod
    def page_categories(cls) -> tuple[list, str]:
        """The `categories` argument: two queries for any number of forms."""
        label = str(cls.base_fields["exempt_category"].label)
        return list(ExemptCategory.objects.all()), label

    @staticmethod
    def category_label(category) -> str:
        if category.substantial_contributor:
            return f"{category.name} — substantial contributor, no longer exempt"
        return category.name

    def clean_exempt_category(self):
        category = self.cleaned_data["exempt_category"]
        if category.substantial_contributor:
            # R-PRO-2: "unless ... determined them to be substantial contributors".
            raise forms.ValidationError(
                f"“{category.name}” has been determined a substantial contributor "
                "of pollutants and no longer exempts a discharge."
            )
        return category

    def perform(self, *, actor) -> Case:
        return triage.report_close_exempt(
            report=self.report,
            actor=actor,
            exempt_category=self.cleaned_data["exempt_category"],
            note=self.cleaned_data["note"],
            public=self.cleaned_data["public"],
        )


class TriageReferForm(TriageNoteMixin, TriageCloseForm):
    outcome = "referred"
    label = "Refer to another agency"
    agency = forms.ChoiceField(
        label="Agency referred to",
        choices=[(name, name) for name in REFERRAL_AGENCIES]
        + [(OTHER_AGENCY, "Another agency (name it below)")],
        widget=forms.RadioSelect,
        error_messages={"required": "Choose the agency."},
    )
    other_agency = forms.CharField(label="Other agency", max_length=200, required=False)
    referred_on = forms.DateField(
        label="Referred on", widget=DateInput, initial=timezone.localdate
    )
    field_order = ["agency", "other_agency", "referred_on", "note", "public"]

    def clean_referred_on(self):
        day = self.cleaned_data["referred_on"]
        if day > timezone.localdate():
            raise forms.ValidationError("The referral date cannot be in the future.")
        return day

    def clean(self):
        data = super().clean()
        if data.get("agency") == OTHER_AGENCY:
            other = (data.get("other_agency") or "").strip()
            if not other:
                self.add_error("other_agency", "Name the agency.")
            data["referred_to"] = other
        else:
            data["referred_to"] = data.get("agency") or ""
        return data

    def perform(self, *, actor) -> Case:
        data = self.cleaned_data
        return triage.report_refer(
            report=self.report,
            actor=actor,
            referred_to=data["referred_to"],
            referred_on=data["referred_on"],
            note=data["note"],
            public=data["public"],
        )


class TriageDuplicateForm(TriageNoteMixin, TriageCloseForm):
    """Duplicate of a case, chosen from the nearby and recent ones, or named by
    its number or by the tracking code of a report on it."""

    outcome = "duplicate"
    label = "Close as a duplicate"
    of_case = forms.ModelChoiceField(
        queryset=Case.objects.exclude(status=CaseStatus.DUPLICATE),
        required=False,
        label="Duplicate of",
        error_messages={"invalid_choice": "Choose one of the cases listed."},
    )
    named = forms.CharField(
        label="Or a case number or a report's tracking code",
        max_length=40,
        required=False,
        help_text="e.g. MS4-2026-0042 or PQ-7K3M-9XTR",
    )
    field_order = ["of_case", "named", "note", "public"]

    def __init__(self, *args, choices=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["of_case"].choices = [("", "— choose a case —"), *choices]

    def clean(self):
        data = super().clean()
        named = (data.get("named") or "").strip()
        target = data.get("of_case")
        if named and not self.has_error("named"):
            code = normalize_tracking_code(named)
            if code:
                other = (
                    Report.objects.select_related("case")
                    .filter(tracking_code=code)
                    .first()
                )
                if other is None:
                    self.add_error("named", f"No report {code}.")
                elif other.pk == self.report.pk:
                    self.add_error("named", "That is this report.")
                elif other.case is None:
                    self.add_error(
                        "named",
                        f"Report {code} is itself waiting in the triage queue: "
                        "select both reports and open one case for them.",
                    )
                else:
                    target = other.case
            else:
                target = Case.objects.filter(number__iexact=named).first()
                if target is None:
                    self.add_error("named", f"No case {named}.")
            if target is not None and target.status == CaseStatus.DUPLICATE:
                self.add_error(
                    "named",
                    f"{target.number} was merged into {target.merged_into}; "
                    "choose that case.",
                )
        elif target is None and not self.has_error("of_case"):
            self.add_error(
                "of_case", "Choose the case it duplicates, or name one below."
            )
        data["target"] = target
        return data

    def perform(self, *, actor) -> Case:
        data = self.cleaned_data
        return triage.report_close_duplicate(
            report=self.report,
            actor=actor,
            of_case=data["target"],
            note=data["note"],
            public=data["public"],
        )


TRIAGE_CLOSE_FORMS = {
    form.outcome: form
    for form in (
        TriageUnfoundedForm,
        TriageExemptForm,
        TriageReferForm,
        TriageDuplicateForm,
    )
}
