"""The discharge report form (residents online, staff on a caller's behalf).

Validation only: every field has a message a resident can act on. The fields
are read here; whether the report can be filed is the rule of every channel,
intake.validation.report_problems (Open311 uses the same). Photos are
decoded, re-encoded and checked here (kernel.uploads), so the service receives
only photos that are safe to keep."""

from decimal import Decimal

from django import forms
from django.core.exceptions import ValidationError

from kernel.fields import WallClockDateTimeField
from kernel.input_guard import ascii_digits
from kernel.uploads import MAX_FILES, process_image_upload, validate_upload_set

from .models import PollutantCategory, Report
from .validation import (
    BOUNDS,  # noqa: F401  (the map's box: intake.views.reports)
    DESCRIPTION_MAX,
    report_problems,
)

CENTRE = (Decimal("40.9523"), Decimal("-73.0887"))

# Screening signs in the words of an outfall screening sheet (what staff record
# at a dry-weather inspection), offered to residents and Open311 clients alike.
COLOUR_CHOICES = [
    ("", "No colour / don't know"),
    ("clear", "Clear"),
    ("cloudy", "Cloudy or milky"),
    ("brown", "Brown or muddy"),
    ("grey", "Grey"),
    ("green", "Green"),
    ("yellow", "Yellow"),
    ("red-orange", "Red or orange"),
    ("other", "Another colour"),
]
ODOUR_CHOICES = [
    ("", "No smell / don't know"),
    ("sewage", "Sewage"),
    ("rotten-eggs", "Rotten eggs"),
    ("petroleum", "Gasoline, oil or fuel"),
    ("chemical", "Chemical or solvent"),
    ("soapy", "Soap or perfume"),
    ("musty", "Musty or mouldy"),
    ("other", "Another smell"),
]
FLOW_CHOICES = [
    ("", "Don't know"),
    (Report.Flow.DRY_WEATHER, "Yes — it is flowing and it has not rained"),
    (Report.Flow.WET_WEATHER, "Only while it rains"),
    (Report.Flow.NOT_FLOWING, "Not flowing"),
]


class CategoryCheckboxes(forms.CheckboxSelectMultiple):
    """Checkboxes that tell the page's script which categories are hazardous."""

    def create_option(self, name, value, label, selected, index, **kwargs):
        option = super().create_option(name, value, label, selected, index, **kwargs)
        instance = getattr(value, "instance", None)
        if instance is not None and instance.hazardous:
            option["attrs"]["data-hazardous"] = "true"
        return option


class CategoryField(forms.ModelMultipleChoiceField):
    def label_from_instance(self, obj):
        return obj.plain_name


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class PhotosField(forms.FileField):
    """Up to five photos; the per-file checks run in the form's clean_photos."""

    def __init__(self, **kwargs):
        kwargs.setdefault(
            "widget", MultipleFileInput(attrs={"accept": "image/*", "multiple": True})
        )
        kwargs.setdefault("required", False)
        super().__init__(**kwargs)

    def clean(self, data, initial=None):
        if not data:
            return []
        items = data if isinstance(data, list | tuple) else [data]
        return [super(PhotosField, self).clean(item, initial) for item in items if item]


class ReportForm(forms.Form):
    # What was seen.
    pollutant_categories = CategoryField(
        queryset=PollutantCategory.objects.filter(active=True),
        widget=CategoryCheckboxes,
        required=False,
        label="What did you see? Tick all that apply.",
    )
    description = forms.CharField(
        required=False,
        max_length=DESCRIPTION_MAX,
        # maxlength (from max_length) and the counter of static/js/char-counter.js
        widget=forms.Textarea(attrs={"rows": 4, "data-char-counter": True}),
        label="Describe it in your own words",
        help_text="What it looked like, where it came from, how much. "
        f"Up to {DESCRIPTION_MAX:,} characters.",
    )
    colour = forms.ChoiceField(choices=COLOUR_CHOICES, required=False, label="Colour")
    odour = forms.ChoiceField(choices=ODOUR_CHOICES, required=False, label="Smell")
    sheen = forms.BooleanField(required=False, label="A rainbow sheen on the water")
    suds = forms.BooleanField(required=False, label="Suds or foam")
    floatables = forms.BooleanField(
        required=False, label="Floating trash, grease or other floating matter"
    )
    flow = forms.ChoiceField(
        choices=FLOW_CHOICES,
        required=False,
        widget=forms.RadioSelect,
        label="Was water flowing out of the pipe or drain in dry weather?",
    )
    observed_at = WallClockDateTimeField(
        required=False,
        label="When did you see it?",
        help_text="Leave empty if it was just now.",
        widget=forms.DateTimeInput(
            attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"
        ),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M:%S"],
    )

    # Where.
    address = forms.CharField(
        required=False,
        max_length=200,
        label="Street address or nearest corner",
        help_text="For example “45 Birchwood Avenue” or “Washington St at the "
        "beach”. Or drop a pin on the map.",
    )
    latitude = forms.DecimalField(
        required=False, max_digits=9, decimal_places=6, widget=forms.HiddenInput
    )
    longitude = forms.DecimalField(
        required=False, max_digits=9, decimal_places=6, widget=forms.HiddenInput
    )

    photos = PhotosField(
        label=f"Photos (up to {MAX_FILES})",
        help_text="JPEG, PNG, WebP or GIF, up to 10 MB each. Location data is "
        "removed from what staff view.",
    )

    # Who — only for updates.
    reporter_name = forms.CharField(required=False, max_length=120, label="Your name")
    reporter_email = forms.EmailField(required=False, label="Your e-mail")
    reporter_phone = forms.CharField(required=False, max_length=40, label="Your phone")
    wants_updates = forms.BooleanField(
        required=False, label="E-mail me when the status of my report changes"
    )

    # Honeypot: hidden from people by CSS; bots fill every field.
    website = forms.CharField(
        required=False,
        label="Leave this field empty",
        widget=forms.TextInput(attrs={"autocomplete": "off", "tabindex": "-1"}),
    )

    honeypot_field = "website"

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["flow"].initial = ""

    # --- per-field ------------------------------------------------------------
    def clean_website(self):
        if self.cleaned_data.get("website"):
            raise ValidationError(
                "This report could not be accepted. Leave the last field empty.",
                code="honeypot",
            )
        return ""

    def clean_photos(self):
        uploads = self.cleaned_data.get("photos") or []
        validate_upload_set(uploads)
        processed, errors = [], []
        for upload in uploads:
            try:
                processed.append(process_image_upload(upload))
            except ValidationError as exc:
                errors.extend(exc.error_list)
        if errors:
            raise ValidationError(errors)
        return processed

    # --- across fields: the rules of every channel ---------------------------
    def clean(self):
        data = super().clean()
        if self.has_error("latitude") or self.has_error("longitude"):
            # Hidden inputs: say it where the resident is looking.
            self.add_error(
                "address",
                ValidationError(
                    "The map pin could not be read; drop it again or type the address.",
                    code="bad_pin",
                ),
            )
        for problem in report_problems(
            data, pollutant_categories=data.get("pollutant_categories") or ()
        ):
            if problem.field in self.fields and not self.has_error(problem.field):
                self.add_error(
                    problem.field, ValidationError(problem.message, code=problem.code)
                )
        return data

    @property
    def hazard_selected(self) -> bool:
        """A hazardous category was ticked: the page repeats the 911 warning."""
        if not self.is_bound:
            return False
        chosen = set(self.data.getlist("pollutant_categories"))
        if not chosen:
            return False
        return PollutantCategory.objects.filter(
            pk__in=[c for c in chosen if ascii_digits(c)], hazardous=True
        ).exists()

    @property
    def photos_dropped(self) -> bool:
        """On a re-rendered form the browser has forgotten the chosen files."""
        return self.is_bound and bool(self.errors)

    def report_fields(self) -> dict:
        data = self.cleaned_data
        return {
            "description": data["description"].strip(),
            "colour": data["colour"],
            "odour": data["odour"],
            "sheen": data["sheen"],
            "suds": data["suds"],
            "floatables": data["floatables"],
            "flow": data["flow"],
            "observed_at": data["observed_at"],
            "address": data["address"].strip(),
            "latitude": data["latitude"],
            "longitude": data["longitude"],
            "reporter_name": data["reporter_name"].strip(),
            "reporter_email": data["reporter_email"],
            "reporter_phone": data["reporter_phone"],
            "wants_updates": data["wants_updates"],
        }


class StaffReportForm(ReportForm):
    """The same form for a phone, walk-in or e-mail report, with its channel."""

    STAFF_CHANNELS = [
        (Report.Channel.PHONE, Report.Channel.PHONE.label),
        (Report.Channel.WALK_IN, Report.Channel.WALK_IN.label),
        (Report.Channel.EMAIL, Report.Channel.EMAIL.label),
    ]
    channel = forms.ChoiceField(
        choices=STAFF_CHANNELS, label="How did the report reach the office?"
    )

    field_order = ["channel"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        del self.fields["website"]
        self.fields[
            "wants_updates"
        ].label = "The caller wants an e-mail when the status changes"
