"""Reads of the inspections app (lists, detail pages, the case panel)."""

import datetime as dt

from django.contrib.contenttypes.models import ContentType
from django.db.models import Q, QuerySet
from django.utils import timezone

from cases.models import Case, Outfall
from cases.selectors import present_among
from deadlines.services import deadlines_for
from kernel.models import CaseEvent

from .models import (
    DischargeApproval,
    DyeTestNotice,
    Facility,
    Inspection,
    InspectionStatus,
    OutfallScreening,
    Sample,
    SpillNotification,
)


def approvals_in_force(*, on: dt.date, premises=None):
    """SMO discharge approvals (R-PRO-3) in force on `on`: started, not ended,
    not revoked. An expired approval no longer exempts a discharge."""
    qs = DischargeApproval.objects.filter(starts_on__lte=on, ends_on__gte=on).filter(
        Q(revoked_on__isnull=True) | Q(revoked_on__gt=on)
    )
    if premises is not None:
        qs = qs.filter(premises=premises)
    return qs.select_related("premises")


def approval_in_force(reference: str, on: dt.date) -> bool:
    """An approval with `reference` is in force `on` (R-PRO-3): the check the
    case's exemption guard asks through cases.models.case.register_approval_check."""
    return approvals_in_force(on=on).filter(reference__iexact=reference).exists()


def inspection_list(*, status: str | None = None):
    qs = Inspection.objects.select_related("premises", "facility", "officer", "case")
    if status:
        qs = qs.filter(status=status)
    return qs


def upcoming_inspections(*, officer=None, start: dt.datetime | None = None):
    """Scheduled inspections from `start` (default: the start of today), soonest
    first, optionally of one officer."""
    if start is None:
        start = timezone.localtime().replace(hour=0, minute=0, second=0, microsecond=0)
    qs = inspection_list(status=InspectionStatus.SCHEDULED).filter(
        scheduled_for__gte=start
    )
    if officer is not None:
        qs = qs.filter(officer=officer)
    return qs.order_by("scheduled_for")


def facility_list():
    return Facility.objects.select_related("premises", "operator")


def outfall_list():
    return Outfall.objects.all()


def outfall_history(outfall):
    """Screenings and cases of one outfall, newest first."""
    screenings = outfall.screenings.select_related("screened_by", "case")
    cases = Case.objects.filter(
        Q(outfall=outfall) | Q(outfall_screenings__outfall=outfall)
    ).distinct()
    return {
        "screenings": screenings,
        "cases": cases.order_by("-opened_at"),
        "deadlines": deadlines_for(outfall),
    }


def screening_list():
    return OutfallScreening.objects.select_related("outfall", "case", "screened_by")


def spill_list():
    return SpillNotification.objects.select_related(
        "premises",
        "facility",
        "case",
        "notice_deadline",
        "confirmation_deadline",
        "retention_deadline",
    )


def dye_test_list():
    return DyeTestNotice.objects.select_related("premises", "received_by", "case")


def approval_list():
    return DischargeApproval.objects.select_related("premises", "approved_by", "case")


def case_records(case):
    """Everything of this app that belongs to `case`, for the case page panel."""
    return present_among(case, case_record_sets(case))


def case_record_sets(case) -> dict:
    """The record sets of `case` the panel shows (registered with the case page's
    presence query, cases.selectors.register_panel_records)."""
    return {
        "inspections": inspection_list().filter(case=case).order_by("-scheduled_for"),
        "spills": spill_list().filter(case=case),
        "screenings": screening_list().filter(case=case),
        "samples": Sample.objects.filter(inspection__case=case).select_related(
            "inspection"
        ),
        "warrants": case.warrant_applications.all(),
        "bmps": case.bmp_requirements.all(),
        "dye_tests": case.dye_tests.all(),
        "approvals": case.discharge_approvals.all(),
    }


def chronology_of(*subjects):
    """The chronology entries about `subjects` (records, or querysets of records:
    an inspection and its samples, photos and corrections), oldest first. Every
    record has its own chronology, with or without a case."""
    condition = Q(pk__in=[])
    for subject in subjects:
        if isinstance(subject, QuerySet):
            model, pks = subject.model, list(subject.values_list("pk", flat=True))
        else:
            model, pks = type(subject), [subject.pk]
        if pks:
            condition |= Q(
                content_type=ContentType.objects.get_for_model(model),
                object_id__in=pks,
            )
    return (
        CaseEvent.objects.filter(condition)
        .select_related("actor", "case")
        .order_by("at", "id")
    )


def premises_chronology(premises):
    """Everything recorded at `premises`, with or without a case, oldest first."""
    return (
        CaseEvent.objects.filter(premises=premises)
        .select_related("actor", "case")
        .order_by("at", "id")
    )


def premises_records(premises):
    """The field work and cases of one premises, for its page."""
    return {
        "facilities": premises.facilities.all(),
        "inspections": inspection_list()
        .filter(premises=premises)
        .order_by("-scheduled_for"),
        "spills": spill_list().filter(premises=premises),
        "cases": Case.objects.filter(premises=premises).order_by("-opened_at"),
        "chronology": premises_chronology(premises),
    }
