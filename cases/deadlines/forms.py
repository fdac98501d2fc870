"""Forms of the deadline pages (validation only; the views call the services)."""

import datetime as dt

from django import forms
from django.utils import timezone

from cases.widgets import DateInput

from ..models import Deadline, OfficeClosure
from .engine import RULES
from .selectors import FILTERS


def public_rule_choices() -> list[tuple[str, str]]:
    """Rules the public calculator offers: those whose period is fixed by the
    ordinance or defaulted by the village (R-NOV-2's days are set per notice)."""
    return [
        (spec.rule_id, f"{spec.rule_id}: {spec.label}")
        for spec in RULES.values()
        if spec.amount is not None
    ]


MIN_YEAR, MAX_YEAR = 1990, 2100


def check_year(day: dt.date) -> dt.date:
    if not MIN_YEAR <= day.year <= MAX_YEAR:
        raise forms.ValidationError(f"Give a date between {MIN_YEAR} and {MAX_YEAR}.")
    return day


class CalculatorForm(forms.Form):
    rule = forms.ChoiceField(label="Deadline", choices=public_rule_choices)
    event_date = forms.DateField(
        label="Date of the event it counts from",
        widget=DateInput(),
        help_text="For an appeal: the day the notice of violation was issued.",
    )

    def clean_event_date(self):
        return check_year(self.cleaned_data["event_date"])


class MeetForm(forms.Form):
    on = forms.DateField(label="Date the duty was done", widget=DateInput())

    def __init__(self, *args, deadline: Deadline, **kwargs):
        super().__init__(*args, **kwargs)
        self.deadline = deadline
        self.fields["on"].initial = timezone.localdate()

    def clean_on(self):
        on = self.cleaned_data["on"]
        if on > timezone.localdate():
            raise forms.ValidationError("The date cannot be in the future.")
        if on < self.deadline.event_date:
            raise forms.ValidationError(
                "The date cannot be before the event the deadline counts from "
                f"({self.deadline.event_date:%Y-%m-%d})."
            )
        return on


class WaiveForm(forms.Form):
    reason = forms.CharField(
        label="Why this deadline no longer applies",
        widget=forms.Textarea(attrs={"rows": 3}),
        max_length=2000,
    )

    def clean_reason(self):
        reason = self.cleaned_data["reason"].strip()
        if not reason:
            raise forms.ValidationError("A reason is required.")
        return reason


class ClosureForm(forms.Form):
    day = forms.DateField(label="Day the office is closed", widget=DateInput())
    reason = forms.CharField(label="Reason", max_length=120)

    def clean_day(self):
        day = check_year(self.cleaned_data["day"])
        if OfficeClosure.objects.filter(day=day).exists():
            raise forms.ValidationError(f"{day:%Y-%m-%d} is already a closure.")
        return day


class ListFilterForm(forms.Form):
    show = forms.ChoiceField(choices=list(FILTERS.items()), required=False)
    responsible = forms.ChoiceField(
        label="Who must act",
        choices=[("", "Anyone")] + list(Deadline.Responsible.choices),
        required=False,
    )
    rule = forms.ChoiceField(
        choices=[("", "Any rule")] + [(r, r) for r in RULES], required=False
    )
    mine = forms.BooleanField(label="Assigned to me", required=False)
