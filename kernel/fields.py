"""Form fields shared by every app's forms."""

import datetime as dt

from django import forms
from django.core.exceptions import ValidationError
from django.forms.fields import BaseTemporalField
from django.utils import timezone
from django.utils.dateparse import parse_datetime


class WallClockDateTimeField(forms.DateTimeField):
    """A date and time as the clock on the wall showed it, in the village's
    time zone. Django refuses the hour the clocks go back (it happens twice)
    and the hour they skip in spring ("may be ambiguous or may not exist");
    a resident who saw a discharge at 1:30 on that night, or an inspector who
    visited then, is not to be refused for it. The repeated hour is read as
    its first pass; a time in the skipped hour as the same minutes after the
    change (2:30 is 3:30 daylight time)."""

    def to_python(self, value):
        if value in self.empty_values:
            return None
        if isinstance(value, dt.datetime):
            wall = value
        elif isinstance(value, dt.date):
            wall = dt.datetime(value.year, value.month, value.day)  # noqa: DTZ001
        elif not isinstance(value, str):
            raise ValidationError(self.error_messages["invalid"], code="invalid")
        else:
            try:
                wall = parse_datetime(value.strip())
            except ValueError:
                raise ValidationError(
                    self.error_messages["invalid"], code="invalid"
                ) from None
            if wall is None:
                wall = BaseTemporalField.to_python(self, value)
        if timezone.is_aware(wall):
            return wall
        # zoneinfo reads fold=0: the first pass of a repeated hour, and a
        # skipped time with the offset before the change. Given back in UTC:
        # Python holds a local time of that hour unequal to every other zone's.
        zone = timezone.get_current_timezone()
        return wall.replace(tzinfo=zone).astimezone(dt.UTC)


def wall_clock(field: forms.DateTimeField) -> WallClockDateTimeField:
    """The same field (a model form's, say), reading the wall clock."""
    return WallClockDateTimeField(
        required=field.required,
        label=field.label,
        help_text=field.help_text,
        initial=field.initial,
        disabled=field.disabled,
        validators=field.validators,
        widget=field.widget,
        input_formats=field.input_formats,
    )
