"""What a phone may send, read as the office's forms read it: each field's
refusal in words the phone shows beside the record."""

import datetime as dt

from django import forms
from django.core.exceptions import ValidationError
from django.utils import timezone

from inspections.models import Inspection, OutfallScreening
from kernel.fields import WallClockDateTimeField

# Samples taken on one visit, at most.
SAMPLES_MAX = 20
# A phone's clock may run a little ahead of the office's.
CLOCK_SLACK = dt.timedelta(minutes=5)


def not_future(value, what: str):
    if value is not None and value > timezone.now() + CLOCK_SLACK:
        raise ValidationError(
            f"{what} is in the future: check the phone's date and time."
        )
    return value


class VisitForm(forms.Form):
    performed_at = WallClockDateTimeField(label="When the visit took place")
    attendees = forms.CharField(label="Who went", max_length=300)
    access_outcome = forms.ChoiceField(
        label="Access", choices=Inspection.Access.choices
    )
    access_notes = forms.CharField(required=False, max_length=4000)
    findings = forms.CharField(required=False, max_length=8000)

    def clean_performed_at(self):
        return not_future(self.cleaned_data["performed_at"], "The visit time")


class SampleForm(forms.Form):
    parameter = forms.CharField(label="What is tested", max_length=100)
    bottle = forms.CharField(label="Bottle id (chain of custody)", max_length=60)


class ScreeningForm(forms.ModelForm):
    class Meta:
        model = OutfallScreening
        fields = [
            "screened_at",
            "hours_since_rain",
            "flow_present",
            "flow_rate",
            *OutfallScreening.INDICATORS,
            "colour_description",
            "odour_description",
            "severity",
            "notes",
        ]
        field_classes = {"screened_at": WallClockDateTimeField}

    def clean_screened_at(self):
        return not_future(self.cleaned_data["screened_at"], "The screening time")


def refusals(form) -> dict[str, list[str]]:
    """The form's refusals, by field, as plain words."""
    return {
        field: [str(m) for m in messages] for field, messages in form.errors.items()
    }
