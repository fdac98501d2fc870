"""A report's Open311 service code, decided in one place.

The code a report was filed under (an Open311 client names it), else its first
pollutant category in the office's order (sort order, name), else "other".
One SQL expression, :func:`service_code_expression`, decides it: report_submit
stores its value when a report is filed (the web form and staff entry name no
code), migration 0020 stored it on the reports filed before, and the Open311
list filters and prints the same expression, so a report made any way is found
by ``service_code=`` under the code it is listed with."""

from django.db.models import CharField, F, OuterRef, Subquery, Value
from django.db.models.functions import Coalesce, NullIf

FALLBACK = "other"  # a report with no category ticked


def service_code_expression(category_model=None):
    """The report's service code as an expression on a Report queryset.
    `category_model` is PollutantCategory (a migration passes its own)."""
    if category_model is None:
        from .models import PollutantCategory as category_model
    first_category = (
        category_model.objects.filter(report=OuterRef("pk"))
        .order_by("sort_order", "name", "pk")
        .values("code")[:1]
    )
    return Coalesce(
        NullIf(F("service_code"), Value("")),
        Subquery(first_category),
        Value(FALLBACK),
        output_field=CharField(),
    )


def decided_service_code(report) -> str:
    """The service code of a saved report with its categories, as the list will
    print it."""
    from .models import Report

    return (
        Report.objects.filter(pk=report.pk)
        .annotate(open311_code=service_code_expression())
        .values_list("open311_code", flat=True)
        .get()
    )
