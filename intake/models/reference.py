"""Reference data staff can edit: pollutant and exempt categories (the citation
table is the kernel's: kernel.models.Citation)."""

from django.db import models


class PollutantCategory(models.Model):
    """A pollutant of § 132-3 (R-DEF-1), or a hazardous material, in plain words."""

    code = models.SlugField(max_length=40, unique=True)
    name = models.CharField(max_length=120)
    plain_name = models.CharField(
        max_length=200, help_text="How a resident would say it on the report form."
    )
    hazardous = models.BooleanField(
        default=False,
        help_text="A hazardous material (R-DEF-1): the form repeats the 911 warning.",
    )
    active = models.BooleanField(default=True)
    sort_order = models.PositiveSmallIntegerField(default=100)

    class Meta:
        db_table = "cases_pollutantcategory"  # kept when intake left cases
        ordering = ["sort_order", "name"]
        verbose_name_plural = "pollutant categories"

    def __str__(self):
        return self.name


class ExemptCategory(models.Model):
    """An exempt discharge of § 132-6 A(1) (R-PRO-2).

    Exempt "unless the Department or the municipality has determined them to be
    substantial contributors of pollutants": a category so marked no longer exempts.
    """

    code = models.SlugField(max_length=40, unique=True)
    name = models.CharField(max_length=120)
    plain_description = models.CharField(max_length=300)
    substantial_contributor = models.BooleanField(default=False)
    determined_by = models.CharField(
        max_length=120,
        blank=True,
        help_text="Who determined it a substantial contributor (the Department or "
        "the municipality).",
    )
    determined_on = models.DateField(null=True, blank=True)
    sort_order = models.PositiveSmallIntegerField(default=100)

    class Meta:
        db_table = "cases_exemptcategory"  # kept when intake left cases
        ordering = ["sort_order", "name"]
        verbose_name_plural = "exempt categories"

    def __str__(self):
        return self.name

    @property
    def exempts(self) -> bool:
        return not self.substantial_contributor
