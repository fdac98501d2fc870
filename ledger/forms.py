"""The ledger's forms (issue 27): a payment at the window, a void, a write-off,
the ledger's filters and the treasurer's period. Each says what is wrong on its
field, in words; the services say the rest (balance, receipt numbers)."""

from decimal import Decimal

from django import forms
from django.utils import timezone

from kernel.widgets import DateInput

from .models import WINDOW_METHODS, ChargeKind, CourtOutcome
from .selectors import STATUS_CHOICES
from .services import amount_error


class PaymentForm(forms.Form):
    """One payment received at the window against a charge."""

    received_on = forms.DateField(
        label="Date received",
        widget=DateInput(),
        error_messages={
            "required": "Give the date of the payment.",
            "invalid": "Give the date as year, month and day.",
        },
    )
    amount = forms.CharField(
        label="Amount received ($)",
        max_length=20,
        help_text="Dollars and cents, as 125.50.",
        error_messages={"required": "Give the amount."},
    )
    method = forms.ChoiceField(
        label="How it was paid",
        choices=[("", "---------"), *WINDOW_METHODS],
        error_messages={"required": "Say how it was paid."},
    )
    check_number = forms.CharField(label="Check number", max_length=30, required=False)
    receipt_number = forms.CharField(
        label="Receipt number",
        max_length=30,
        required=False,
        help_text="Leave empty for the next number of the Village's receipts; type "
        "the number of a hand-written receipt.",
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["received_on"].initial = timezone.localdate()

    def clean_amount(self) -> Decimal:
        raw = self.cleaned_data["amount"].strip().replace(",", "").lstrip("$")
        error = amount_error(raw)
        if error:
            raise forms.ValidationError(error)
        return Decimal(raw)


class ReasonForm(forms.Form):
    """Why a payment is voided, or a balance written off."""

    reason = forms.CharField(
        label="Reason",
        widget=forms.Textarea(attrs={"rows": 2}),
        max_length=1000,
        error_messages={"required": "Give the reason."},
    )


class LedgerFilterForm(forms.Form):
    q = forms.CharField(
        label="Search", required=False, help_text="Reference, case number or payer"
    )
    status = forms.ChoiceField(choices=STATUS_CHOICES, required=False)
    kind = forms.ChoiceField(
        choices=[("", "Any kind"), *ChargeKind.choices], required=False
    )
    issued_from = forms.DateField(label="Issued from", widget=DateInput, required=False)
    issued_to = forms.DateField(label="Issued to", widget=DateInput, required=False)

    def clean(self):
        data = super().clean()
        start, end = data.get("issued_from"), data.get("issued_to")
        if start and end and start > end:
            self.add_error("issued_to", "The end date is before the start date.")
        return data


class PeriodForm(forms.Form):
    """The treasurer's report's period (a month by default)."""

    start = forms.DateField(label="From", widget=DateInput, required=False)
    end = forms.DateField(label="To", widget=DateInput, required=False)

    def clean(self):
        data = super().clean()
        start, end = data.get("start"), data.get("end")
        if start and end and start > end:
            self.add_error("end", "The end date is before the start date.")
        return data


class ReferForm(forms.Form):
    referred_on = forms.DateField(
        label="Date referred",
        widget=DateInput(),
        error_messages={"required": "Give the date it is referred."},
    )
    note = forms.CharField(
        label="Note for the court (optional)",
        widget=forms.Textarea(attrs={"rows": 2}),
        required=False,
        max_length=2000,
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["referred_on"].initial = timezone.localdate()


class DispositionForm(forms.Form):
    docket_number = forms.CharField(label="Docket number", max_length=60)
    outcome = forms.ChoiceField(
        label="What the court did", choices=[("", "---------"), *CourtOutcome.choices]
    )
    outcome_on = forms.DateField(label="Date of the disposition", widget=DateInput())
    adjourned_to = forms.DateField(
        label="Adjourned to (if adjourned)", widget=DateInput(), required=False
    )
    fine_imposed = forms.CharField(
        label="Fine imposed ($)", max_length=20, required=False
    )
    surcharge_imposed = forms.CharField(
        label="Surcharge imposed ($)", max_length=20, required=False
    )
    imprisonment_days = forms.IntegerField(
        label="Imprisonment ordered (days)", min_value=1, required=False
    )

    def _money(self, name):
        raw = (self.cleaned_data.get(name) or "").strip().replace(",", "").lstrip("$")
        if not raw:
            return None
        error = amount_error(raw)
        if error:
            raise forms.ValidationError(error)
        return Decimal(raw)

    def clean_fine_imposed(self):
        return self._money("fine_imposed")

    def clean_surcharge_imposed(self):
        return self._money("surcharge_imposed")
