"""The form of the outbox's one staff-entered message: a document e-mailed to a
party."""

from django import forms


class DocumentEmailForm(forms.Form):
    recipient = forms.EmailField(
        label="E-mail it to",
        help_text="The party's address (the case's parties are suggested). The PDF "
        "is attached; it goes once the document is rendered.",
        widget=forms.EmailInput(
            attrs={"list": "party-addresses", "class": "form-control"}
        ),
    )
