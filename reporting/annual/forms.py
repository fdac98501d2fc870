"""The annual report's forms: the year chosen, a step's input, a comment."""

from django import forms

from .services import COMMENT_MAX


class CommentPeriodForm(forms.Form):
    comment_opens_on = forms.DateField(
        label="Comment period begins on", widget=forms.DateInput(attrs={"type": "date"})
    )
    comment_closes_on = forms.DateField(
        label="Comment period ends on", widget=forms.DateInput(attrs={"type": "date"})
    )

    def clean(self):
        data = super().clean()
        opens, closes = data.get("comment_opens_on"), data.get("comment_closes_on")
        if opens and closes and closes < opens:
            self.add_error(
                "comment_closes_on",
                "The period must end on or after the day it begins.",
            )
        return data


class CommentSummaryForm(forms.Form):
    comment_summary = forms.CharField(
        label="Summary of the comments received",
        widget=forms.Textarea(attrs={"rows": 4}),
        max_length=COMMENT_MAX,
        help_text="Printed in the final report. Say so if no comments were received.",
    )


STEP_FORMS = {
    "comment_period": CommentPeriodForm,
    "comment_summary": CommentSummaryForm,
}


class StaffCommentForm(forms.Form):
    received_on = forms.DateField(
        label="Received on", widget=forms.DateInput(attrs={"type": "date"})
    )
    commenter = forms.CharField(
        label="From (kept on file, never published)", max_length=120, required=False
    )
    text = forms.CharField(
        label="Comment",
        widget=forms.Textarea(attrs={"rows": 4}),
        max_length=COMMENT_MAX,
    )


class PublicCommentForm(forms.Form):
    text = forms.CharField(
        label="Your comment on the draft report",
        widget=forms.Textarea(attrs={"rows": 5}),
        max_length=COMMENT_MAX,
    )
    # A field no person fills in (hidden by CSS class and aria): robots do.
    website = forms.CharField(
        required=False,
        label="Leave this empty",
        widget=forms.TextInput(attrs={"tabindex": "-1", "autocomplete": "off"}),
    )
