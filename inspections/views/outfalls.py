"""The outfall inventory and dry-weather screenings (R-DEF-2)."""

from django.db.models import Prefetch
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from cases.models import Outfall
from jobs import exports
from kernel.actions import attempt
from kernel.roles import CASE_READERS, Role, has_role
from kernel.uploads import display_response

from .. import forms, selectors, services
from ..exports import OUTFALLS
from ..models import OutfallScreening, ScreeningPhoto
from .common import (
    _case_redirect,
    _form_page,
    staff_page,
)


# --- outfalls ---------------------------------------------------------------
@staff_page
def outfall_list(request):
    return render(
        request,
        "inspections/outfall_list.html",
        {
            "outfalls": selectors.outfall_list(),
            "can_write": has_role(request.user, Role.SMO),
            "export_links": exports.export_links(request, "inspections:outfall_export"),
            "export_scope": "one row per screening, newest first",
        },
    )


def outfalls_with_screenings():
    """(outfall, screening) for every screening of each outfall of the list,
    newest first; (outfall, None) for an outfall never screened."""
    outfalls = selectors.outfall_list().prefetch_related(
        Prefetch(
            "screenings",
            queryset=OutfallScreening.objects.select_related(
                "screened_by", "case"
            ).order_by("-screened_at", "-pk"),
        )
    )
    for outfall in outfalls.iterator(chunk_size=exports.CHUNK_SIZE):
        screenings = outfall.screenings.all()
        if not screenings:
            yield outfall, None
        for screening in screenings:
            yield outfall, screening


def outfall_export_rows(request) -> exports.Counted:
    """One row per screening, and one per outfall never screened."""
    outfalls = selectors.outfall_list()
    screenings = OutfallScreening.objects.filter(outfall__in=outfalls).count()
    unscreened = outfalls.filter(screenings__isnull=True).count()
    return exports.Counted(screenings + unscreened, outfalls_with_screenings())


OUTFALLS_EXPORT = exports.ListExport(
    name="outfalls-and-screenings",
    title="Outfalls and screenings",
    columns=OUTFALLS,
    rows=outfall_export_rows,
    roles=CASE_READERS,  # staff_page: GET for the readers of cases
)


@staff_page
def outfall_export(request, fmt):
    """The outfall inventory with its dry-weather screenings, as CSV or XLSX."""
    return exports.export_list(request, OUTFALLS_EXPORT, fmt)


@staff_page
def outfall_edit(request, pk=None):
    outfall = get_object_or_404(Outfall, pk=pk) if pk else None
    form = forms.OutfallForm(request.POST or None, instance=outfall)
    if request.method == "POST":
        saved = attempt(
            request,
            form,
            lambda: services.outfall_save(
                actor=request.user, outfall=outfall, **form.cleaned_data
            ),
            success="Outfall saved.",
        )
        if saved:
            return redirect("inspections:outfall_detail", saved.pk)
    title = f"Edit outfall {outfall.code}" if outfall else "New outfall"
    return _form_page(request, "inspections/form.html", form, title=title)


@staff_page
def outfall_detail(request, pk):
    outfall = get_object_or_404(Outfall, pk=pk)
    return render(
        request,
        "inspections/outfall_detail.html",
        {
            "outfall": outfall,
            **selectors.outfall_history(outfall),
            "can_write": has_role(request.user, Role.SMO),
        },
    )


@staff_page
def screening_new(request, pk):
    outfall = get_object_or_404(Outfall, pk=pk)
    form = forms.ScreeningForm(
        request.POST or None, initial={"screened_at": timezone.localtime()}
    )
    if request.method == "POST":
        screening = attempt(
            request,
            form,
            lambda: services.screening_record(
                actor=request.user, outfall=outfall, **form.cleaned_data
            ),
            success="Screening recorded.",
        )
        if screening:
            return redirect("inspections:screening_detail", screening.pk)
    return _form_page(
        request,
        "inspections/form.html",
        form,
        title=f"Dry-weather screening of outfall {outfall.code}",
    )


def _screening(pk):
    return get_object_or_404(
        OutfallScreening.objects.select_related(
            "outfall", "case", "screened_by"
        ).prefetch_related("photos"),
        pk=pk,
    )


def _screening_page(request, screening, *, photo_form=None, status=200):
    can_write = has_role(request.user, Role.SMO)
    return render(
        request,
        "inspections/screening_detail.html",
        {
            "screening": screening,
            "photos": screening.photos.all(),
            "can_write": can_write,
            "photo_form": photo_form or (forms.PhotoForm() if can_write else None),
        },
        status=status,
    )


@staff_page
def screening_detail(request, pk):
    screening = _screening(pk)
    if request.method == "POST":
        case = attempt(
            request,
            None,
            lambda: services.screening_open_case(
                actor=request.user, screening=screening
            ),
            success="Case opened from the screening.",
        )
        back = redirect("inspections:screening_detail", pk)
        return back if case is None else _case_redirect(case)
    return _screening_page(request, screening)


@staff_page
@require_POST
def screening_photo_new(request, pk):
    """Add a photo to a screening (one taken on a camera, or sent by e-mail)."""
    screening = _screening(pk)
    form = forms.PhotoForm(request.POST, request.FILES)
    photo = attempt(
        request,
        form,
        lambda: services.screening_photo_add(
            actor=request.user,
            screening=screening,
            upload=form.cleaned_data["photo"],
            caption=form.cleaned_data["caption"],
        ),
        success="Photo added.",
    )
    if photo is None:
        return _screening_page(request, screening, photo_form=form, status=400)
    return redirect("inspections:screening_detail", pk)


@staff_page
def screening_photo(request, pk):
    """The re-encoded display copy (no metadata), only for staff who may read."""
    return display_response(get_object_or_404(ScreeningPhoto, pk=pk))
