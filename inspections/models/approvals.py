"""Dye-test notices (R-PRO-4) and SMO written discharge approvals (R-PRO-3)."""

import datetime as dt

from django.conf import settings
from django.db import models
from django.utils import timezone

from kernel.humanize import human_datetime, human_short_date


class DyeTestNotice(models.Model):
    """§ 132-6 A(3): dye testing is allowed, with verbal notice to the SMO before
    the test (R-PRO-4). A notice after the test is recorded and flagged."""

    premises = models.ForeignKey(
        "cases.Premises", on_delete=models.PROTECT, related_name="dye_tests"
    )
    case = models.ForeignKey(
        "cases.Case",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="dye_tests",
    )
    notified_at = models.DateTimeField("verbal notice given at")
    notified_by = models.CharField("notice given by", max_length=200)
    received_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    test_at = models.DateTimeField("dye test at")
    tester = models.CharField("who runs the test", max_length=200, blank=True)
    purpose = models.CharField(max_length=200, blank=True)
    recorded_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-test_at"]

    def __str__(self):
        return f"Dye test at {self.premises} {human_datetime(self.test_at)}"

    @property
    def notice_prior_to_test(self) -> bool:
        """§ 132-6 A(3): "prior to the time of the test" — strictly earlier. A
        notice given at the very time of the test is not prior to it."""
        return self.notified_at < self.test_at

    @property
    def notice_after_test(self) -> bool:
        """The notice was not given before the test (at its time, or later):
        the dye test is then no allowable discharge; it is recorded and flagged
        (R-PRO-4)."""
        return not self.notice_prior_to_test


class DischargeApproval(models.Model):
    """§ 132-6 A(2): a discharge the SMO approved in writing to protect life or
    property from imminent harm, for a stated period and on conditions (R-PRO-3).
    It covers a discharge only while in force."""

    premises = models.ForeignKey(
        "cases.Premises", on_delete=models.PROTECT, related_name="discharge_approvals"
    )
    case = models.ForeignKey(
        "cases.Case",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="discharge_approvals",
    )
    reference = models.CharField("approval reference", max_length=60, unique=True)
    harm_prevented = models.TextField("imminent harm to life or property")
    discharge_description = models.TextField("discharge approved")
    starts_on = models.DateField()
    ends_on = models.DateField()
    conditions = models.TextField()
    approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    approved_on = models.DateField()
    revoked_on = models.DateField(null=True, blank=True)
    recorded_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-starts_on"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(ends_on__gte=models.F("starts_on")),
                name="approval_ends_after_start",
            )
        ]

    def __str__(self):
        return (
            f"Approval {self.reference} ({human_short_date(self.starts_on)} – "
            f"{human_short_date(self.ends_on)})"
        )

    def in_force_on(self, day: dt.date) -> bool:
        if self.revoked_on is not None and self.revoked_on <= day:
            return False
        return self.starts_on <= day <= self.ends_on
