"""Meetings of the Board of Trustees at which appeals are heard (R-APL-2): one
meeting holds one or more hearings; each appeal's `hearing_at` and
`hearing_location` are filled from its meeting when it is scheduled there."""

import datetime as dt

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone

from kernel.humanize import human_date, human_short_date

from .notices import ServiceRecord


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
        return f"Board meeting {human_date(self.date)} {self.place}"

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


class HearingServiceMethod(models.TextChoices):
    """How a notice of hearing is sent: a notice of violation's methods of
    service, and e-mail (the hearing's notice is not the NOV's service of § 132-13
    A, so an e-mail to the appellant's address counts)."""

    # the same values and words as ServiceRecord.Method's (one vocabulary)
    PERSONAL = "personal", "Personal delivery"
    CERTIFIED = "certified", "Certified mail"
    POSTING = "posting", "Posting on the premises"
    EMAIL = "email", "E-mail"


class HearingNoticeService(models.Model):
    """How and when a notice of hearing was sent (as a notice of violation's
    service is recorded: method, date, certified-mail article number; or by
    e-mail, to the address it was sent to)."""

    Method = HearingServiceMethod

    appeal = models.ForeignKey(
        "enforcement.Appeal",
        on_delete=models.PROTECT,
        related_name="hearing_notice_services",
    )
    document = models.ForeignKey(
        "documents.IssuedDocument",
        on_delete=models.PROTECT,
        related_name="+",
        help_text="The version of the notice of hearing that was sent.",
    )
    sent_to = models.CharField(max_length=200)
    method = models.CharField(max_length=12, choices=Method.choices)
    served_on = models.DateField("date sent or delivered")
    article_number = models.CharField(
        "certified mail article number", max_length=40, blank=True
    )
    served_by = models.CharField(max_length=200, blank=True)
    # The outcome of certified mail (enforcement.models.mail): one or neither.
    delivered_on = models.DateField(
        null=True, blank=True, help_text="From the green card or USPS tracking."
    )
    returned_on = models.DateField(null=True, blank=True)
    return_reason = models.CharField(max_length=200, blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    recorded_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["appeal", "served_on", "id"]
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(method="certified") | ~models.Q(article_number=""),
                name="hearing_notice_certified_mail_has_article_number",
                # Should a form ever let it through: plain words, not the
                # constraint's name (the forms and services refuse first).
                violation_error_message="Give the certified mail article number.",
            )
        ]

    def __str__(self):
        return (
            f"{self.get_method_display()} {human_short_date(self.served_on)} "
            f"to {self.sent_to}"
        )

    # As ServiceRecord's: certified mail whose outcome is not recorded yet.
    awaiting_delivery_outcome = ServiceRecord.awaiting_delivery_outcome
    awaits_delivery_outcome = ServiceRecord.awaits_delivery_outcome
    mailed_on = ServiceRecord.mailed_on
    delivery_words = ServiceRecord.delivery_words
    PAPER = "hearing_notice"
