"""Forms of the deadline pages (validation only; the views call the services)."""

import datetime as dt

from django import forms
from django.utils import timezone

from kernel.humanize import human_long_date
from kernel.widgets import DateInput

from .engine import RULES
from .models import Deadline, OfficeClosure
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


# The period parameters the rules take (engine.RuleSpec.parameter), each a field of
# the API form; a rule accepts only its own.
PARAMETERS = sorted({spec.parameter for spec in RULES.values() if spec.parameter})
# {field of ComputeApiForm: its GET name}
API_NAMES = {"rule": "rule", "event_date": "from"} | {p: p for p in PARAMETERS}


class ComputeApiForm(CalculatorForm):
    """The calculator's form under the JSON API's GET names: ``rule``, ``from``
    (the calculator's ``event_date``) and the rule's period parameter (``days``,
    ``months`` or ``business_days``, engine.RuleSpec.parameter). Every rule of the
    engine is accepted (R-NOV-2 too, with its days); the dates only in ISO form.

    Errors come keyed by the GET names (:meth:`api_errors`)."""

    def __init__(self, query):
        self.query = query
        super().__init__(
            {
                field: query.get(get_name, "").strip()
                for field, get_name in API_NAMES.items()
            }
        )
        rule, event_date = self.fields["rule"], self.fields["event_date"]
        rule.choices = [(rule_id, rule_id) for rule_id in RULES]
        rule.error_messages = {
            "required": "Give the rule id, e.g. ?rule=R-APL-1&from=2026-12-10.",
            "invalid_choice": (
                f"Unknown rule %(value)r. Known rules: {', '.join(RULES)}."
            ),
        }
        event_date.input_formats = ["%Y-%m-%d"]
        event_date.error_messages = {
            "required": "Give the event date as from=YYYY-MM-DD.",
            "invalid": "Bad date: use from=YYYY-MM-DD, e.g. 2026-12-10.",
        }
        for name in PARAMETERS:
            self.fields[name] = forms.IntegerField(
                required=False,
                min_value=1,
                max_value=9999,
                error_messages={
                    "invalid": f"{name} must be a whole number.",
                    "min_value": f"{name} must be at least 1.",
                    "max_value": f"{name} must be at most 9999.",
                },
            )

    def clean(self):
        cleaned = super().clean()
        unexpected = sorted(set(self.query) - set(API_NAMES.values()))
        spec = RULES.get(cleaned.get("rule", ""))
        if spec is None:
            if unexpected:
                self.add_error(None, f"Unexpected {', '.join(unexpected)}=.")
            return cleaned
        given = sorted(
            name
            for name in PARAMETERS
            if self.query.get(name, "").strip() and name != spec.parameter
        )
        if unexpected or given:
            allowed = f"only {spec.parameter}=" if spec.parameter else "no parameters"
            names = ", ".join(f"{name}=" for name in unexpected + given)
            self.add_error(None, f"{spec.rule_id} takes {allowed}; unexpected {names}.")
        elif (
            spec.parameter
            and spec.amount is None
            and spec.parameter not in self.errors
            and cleaned.get(spec.parameter) is None
        ):
            self.add_error(
                spec.parameter,
                f"{spec.rule_id} ({spec.label}) needs {spec.parameter}=<number of "
                f"{spec.unit}s>.",
            )
        return cleaned

    def params(self) -> dict[str, int]:
        """The period parameter given, as keywords of services.compute_due."""
        spec = RULES[self.cleaned_data["rule"]]
        value = self.cleaned_data.get(spec.parameter) if spec.parameter else None
        return {} if value is None else {spec.parameter: value}

    def api_errors(self) -> dict[str, list[str]]:
        """The errors keyed by GET name ("__all__" for the rule/parameter mix)."""
        return {API_NAMES.get(f, f): list(msgs) for f, msgs in self.errors.items()}


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
                f"({human_long_date(self.deadline.event_date)})."
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
            raise forms.ValidationError(f"{human_long_date(day)} is already a closure.")
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
