"""The annual report as frozen: the counts of one reporting year as computed at
one moment, with the ids of the records behind each count, and its life as a
document for the public (a draft published for comment, then final)."""

import datetime as dt

from django.conf import settings
from django.db import models
from django.utils import timezone
from django_fsm import ConcurrentTransitionMixin, FSMField, transition

from kernel.humanize import human_short_date
from kernel.roles import smo_permission
from kernel.workflow import guard


def today() -> dt.date:
    """The village's today (one place, so a test can move it)."""
    return timezone.localdate()


class AnnualReportStatus(models.TextChoices):
    DRAFT = "draft", "Frozen, not published"
    PUBLISHED = "published", "Draft published for public comment"
    FINAL = "final", "Final"


class AnnualReport(ConcurrentTransitionMixin, models.Model):
    """The IDDE part of the annual report of the MS4 (SPDES general permit for
    MS4s): what the office found and eliminated in a reporting year (March 10 –
    March 9), frozen so that it can be published, commented on and filed."""

    year = models.PositiveSmallIntegerField(
        db_index=True, help_text="The year the reporting year starts in."
    )
    version = models.PositiveSmallIntegerField(default=1)
    as_of = models.DateTimeField(
        help_text="The moment the records were read: later records do not count."
    )
    counts = models.JSONField(default=dict)
    record_ids = models.JSONField(
        default=dict, help_text="Per count, the ids of the records it is made of."
    )
    per_month = models.JSONField(default=list)
    elimination_days = models.JSONField(default=list)
    status = FSMField(
        max_length=10,
        choices=AnnualReportStatus.choices,
        default=AnnualReportStatus.DRAFT,
        protected=True,
    )
    comment_opens_on = models.DateField(null=True, blank=True)
    comment_closes_on = models.DateField(null=True, blank=True)
    published_at = models.DateTimeField(null=True, blank=True)
    finalized_at = models.DateTimeField(null=True, blank=True)
    comment_summary = models.TextField(
        blank=True, help_text="The final version's summary of the comments received."
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        db_table = "cases_annualreport"  # the table it had in cases (issue 30)
        ordering = ["-year", "-version"]
        constraints = [
            models.UniqueConstraint(
                fields=["year", "version"], name="one_annual_report_version"
            )
        ]

    def __str__(self):
        return f"Annual report {self.year}, version {self.version}"

    def get_absolute_url(self) -> str:
        from django.urls import reverse

        return reverse("annual:frozen", args=[self.pk])

    @property
    def number(self) -> str:
        return f"AR-{self.year}-v{self.version}"

    @property
    def years(self) -> str:
        """The reporting year as people say it: "2025–2026" (March 10 – March 9)."""
        return f"{self.year}–{self.year + 1}"

    @property
    def is_public(self) -> bool:
        return self.status in {AnnualReportStatus.PUBLISHED, AnnualReportStatus.FINAL}

    def takes_comments(self, on=None) -> bool:
        """A published draft whose comment period includes `on` (today)."""
        day = on or timezone.localdate()
        return (
            self.status == AnnualReportStatus.PUBLISHED
            and self.comment_opens_on is not None
            and self.comment_closes_on is not None
            and self.comment_opens_on <= day <= self.comment_closes_on
        )

    @property
    def is_final(self) -> bool:
        return self.status == AnnualReportStatus.FINAL

    def comment_period_closes_after(self):
        """The first day after the comment period (None before it is set)."""
        if self.comment_closes_on is None:
            return None
        return self.comment_closes_on + dt.timedelta(days=1)

    def reporting_year_ends_after(self) -> dt.date:
        """The first day after the reporting year (March 10 of the next year)."""
        from .year import ReportingYear

        return ReportingYear(self.year + 1).first_day

    def may_be_final_from(self):
        """The first day the report may be made final: after its comment period
        and after its reporting year (None while the comment period is unset)."""
        after_comments = self.comment_period_closes_after()
        if after_comments is None:
            return None
        return max(after_comments, self.reporting_year_ends_after())

    # --- conditions -------------------------------------------------------------
    @guard("give the first and the last day of the comment period")
    def has_comment_period(self) -> bool:
        return self.comment_opens_on is not None and self.comment_closes_on is not None

    @guard("the comment period must end on or after the day it begins")
    def comment_period_in_order(self) -> bool:
        return (
            self.comment_opens_on is None
            or self.comment_closes_on is None
            or self.comment_closes_on >= self.comment_opens_on
        )

    @guard("wait until the comment period has closed", form=False)
    def comment_period_closed(self) -> bool:
        after = self.comment_period_closes_after()
        return after is not None and today() >= after

    @guard("wait until the reporting year has ended", form=False)
    def reporting_year_ended(self) -> bool:
        return today() >= self.reporting_year_ends_after()

    @guard("summarize the comments received (or say that none were received)")
    def has_comment_summary(self) -> bool:
        return bool(self.comment_summary.strip())

    # --- transitions --------------------------------------------------------------
    @transition(
        status,
        source=AnnualReportStatus.DRAFT,
        target=AnnualReportStatus.PUBLISHED,
        permission=smo_permission,
        conditions=[has_comment_period, comment_period_in_order],
        custom={
            "form": "comment_period",
            "label": "Publish the draft for public comment",
            "binding": True,
            "confirm": "annual_publish",
        },
    )
    def publish(self):
        self.published_at = timezone.now()

    @transition(
        status,
        source=AnnualReportStatus.PUBLISHED,
        target=AnnualReportStatus.FINAL,
        permission=smo_permission,
        conditions=[comment_period_closed, reporting_year_ended, has_comment_summary],
        custom={
            "form": "comment_summary",
            "label": "Make the report final",
            "binding": True,
            "confirm": "annual_finalize",
        },
    )
    def finalize(self):
        self.finalized_at = timezone.now()


class AnnualReportComment(models.Model):
    """A comment on a published draft, as received (recorded by staff, or sent
    through the public form), with the date it was received."""

    class Channel(models.TextChoices):
        STAFF = "staff", "Recorded by staff"
        PUBLIC_FORM = "public_form", "Sent through the public page"

    report = models.ForeignKey(
        AnnualReport, on_delete=models.PROTECT, related_name="comments"
    )
    received_on = models.DateField()
    text = models.TextField(max_length=4000)
    commenter = models.CharField(
        max_length=120, blank=True, help_text="Never shown on the public page."
    )
    channel = models.CharField(
        max_length=12, choices=Channel.choices, default=Channel.STAFF
    )
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    recorded_at = models.DateTimeField(default=timezone.now)

    class Meta:
        db_table = "cases_annualreportcomment"
        ordering = ["received_on", "id"]

    def __str__(self):
        return f"Comment of {human_short_date(self.received_on)} on {self.report}"


# The annual report's document kind registers with the document pipeline when the
# models load (the web process and the rendering worker alike).
from . import confirmations, documents  # noqa: E402, F401
