"""Meetings of the Board of Trustees at which appeals are heard (R-APL-2): one
meeting holds one or more hearings; each appeal's `hearing_at` and
`hearing_location` are filled from its meeting when it is scheduled there."""

import datetime as dt

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone


class BoardMeetingQuerySet(models.QuerySet):
    def upcoming(self):
        """Meetings on today (village time) or later, the soonest first."""
        return self.filter(date__gte=timezone.localdate()).order_by("date", "time")

    def past(self):
        return self.filter(date__lt=timezone.localdate()).order_by("-date", "-time")


class BoardMeeting(models.Model):
    """A meeting of the Village Board of Trustees (date, time, place)."""

    date = models.DateField()
    time = models.TimeField()
    place = models.CharField(max_length=200)
    notes = models.TextField(blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    created_at = models.DateTimeField(default=timezone.now)

    objects = BoardMeetingQuerySet.as_manager()

    class Meta:
        ordering = ["date", "time", "id"]

    def __str__(self):
        return f"Board meeting {self.date:%a, %b} {self.date.day}, {self.date:%Y} {self.place}"

    def get_absolute_url(self) -> str:
        return reverse("enforcement:meeting_detail", args=[self.pk])

    def starts_at(self) -> dt.datetime:
        """The meeting's start as an aware moment (village time)."""
        return timezone.make_aware(dt.datetime.combine(self.date, self.time))

    def is_upcoming(self) -> bool:
        return self.date >= timezone.localdate()

    def hearings(self):
        """The appeals heard at this meeting (withdrawn ones left out), in the
        order they were filed."""
        from .appeals import AppealStatus

        return (
            self.appeals.exclude(status=AppealStatus.WITHDRAWN)
            .select_related("notice__case", "appellant")
            .order_by("filed_on", "id")
        )
