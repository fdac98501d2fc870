"""The phone's two addresses (the day's work, a record sent) and the SMO's page
of records kept for a decision. Mounted at /staff/fieldwork/."""

import json

from django.core.exceptions import ValidationError
from django.http import JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.dateparse import parse_datetime
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from kernel.actions import attempt, refusal_errors
from kernel.idempotency import KeyReused
from kernel.roles import Role, has_role, role_required
from kernel.uploads import display_response

from . import forms, selectors, services
from .models import FieldPhoto, FieldRecord
from .package import day_of_work

# The largest record a phone sends (its words; photos come another way).
BODY_MAX = 64 * 1024


def _refusal(status: int, message: str, errors: dict | None = None) -> JsonResponse:
    return JsonResponse({"message": message, "errors": errors or {}}, status=status)


def _inspector(request) -> JsonResponse | None:
    """The phone's answer when its user may not take or send field work."""
    if not request.user.is_authenticated:
        return _refusal(401, "You are signed out: sign in again to send or download.")
    if not has_role(request.user, Role.SMO):
        return _refusal(403, "Your role does not take field work offline.")
    return None


@role_required(Role.SMO)
@require_GET
def page(request):
    """The inspector's page on the phone: the day's work kept on it (IndexedDB,
    static/js/fieldwork.js), the forms of a visit and a screening, the records
    waiting to be sent. Kept by the service worker to open without signal."""
    return render(
        request,
        "fieldwork/day.html",
        {
            "visit_form": forms.VisitForm(auto_id="visit_%s"),
            "sample_form": forms.SampleForm(auto_id=False),
            "screening_form": forms.ScreeningForm(auto_id="screening_%s"),
        },
    )


@require_GET
def service_worker(request):
    """The service worker that keeps the page and its files for use without
    signal (Workbox, static/vendor/workbox) and sends the records waiting on a
    background sync. Public: it names only static files and our addresses."""
    response = render(
        request,
        "fieldwork/sw.js",
        {
            "page_url": reverse("fieldwork:page"),
            "send_url": reverse("fieldwork:receive"),
            "photos_url": reverse("fieldwork:receive_photo", args=["KEY"]),
        },
        content_type="text/javascript; charset=utf-8",
    )
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def day(request):
    """The day's work of the signed-in inspector, as JSON."""
    refused = _inspector(request)
    if refused is not None:
        return refused
    return JsonResponse(day_of_work(request.user))


def _sent(request) -> dict:
    if len(request.body) > BODY_MAX:
        raise ValidationError("The record is too large to send.")
    try:
        sent = json.loads(request.body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise ValidationError("The record could not be read.") from None
    if not isinstance(sent, dict):
        raise ValidationError("The record could not be read.")
    return sent


def _moment(raw):
    try:
        return parse_datetime(raw) if isinstance(raw, str) else None
    except ValueError:
        return None


def _received(call, answer) -> JsonResponse:
    """The phone's answer: 200 with answer(what call() stored); 400 with the
    refusal of each field; 403 for another inspector's item; 409 for a key
    reused with other contents."""
    try:
        stored = call()
    except services.NotYours as exc:
        return _refusal(403, exc.sentence)
    except KeyReused as exc:
        return _refusal(409, exc.sentence)
    except ValidationError as exc:
        errors = refusal_errors(exc)
        return _refusal(400, " ".join(errors.pop("", [])) or "Not sent.", errors)
    return JsonResponse(answer(stored))


@require_POST
def receive(request):
    """One record from the phone: 200 with its state (applied, or kept for the
    SMO with the reason) however often it is sent; 400 with the refusal of each
    field; 401/403 for a user who may not send; 409 for a key reused."""
    refused = _inspector(request)
    if refused is not None:
        return refused

    def call():
        sent = _sent(request)
        return services.field_record_receive(
            actor=request.user,
            key=str(sent.get("key") or ""),
            kind=str(sent.get("kind") or ""),
            item_id=sent.get("item"),
            version=str(sent.get("version") or ""),
            recorded_on_site_at=_moment(sent.get("recorded_on_site_at")),
            fields=sent.get("fields"),
        )

    return _received(
        call,
        lambda record: {
            "key": record.key,
            "state": record.state,
            "state_words": record.get_state_display(),
            "problem": record.problem,
        },
    )


def _photo_answer(photo: FieldPhoto) -> dict:
    if photo.placed_at:
        words = "added to the " + (
            "inspection" if photo.record.kind == FieldRecord.Kind.VISIT else "screening"
        )
    elif photo.problem:
        words = f"kept for the SMO: {photo.problem}"
    else:
        words = "kept with the record for the SMO"
    return {"key": photo.key, "placed": bool(photo.placed_at), "state_words": words}


@require_POST
def receive_photo(request, key):
    """One photo of the record `key` (multipart: its own key, the photo): 200
    however often it is sent; 400 with the refusal (not a photo, its record not
    received yet); 401/403; 409 for a key reused."""
    refused = _inspector(request)
    if refused is not None:
        return refused
    return _received(
        lambda: services.field_photo_receive(
            actor=request.user,
            record_key=key,
            key=request.POST.get("key", ""),
            upload=request.FILES.get("photo"),
        ),
        _photo_answer,
    )


@role_required(Role.SMO)
@require_GET
def photo(request, pk):
    """A photo kept with a record: the display copy (no metadata)."""
    return display_response(get_object_or_404(FieldPhoto, pk=pk))


@role_required(Role.SMO)
@require_GET
def kept(request):
    """The records kept for the SMO's decision, and the last ones decided."""
    return render(request, "fieldwork/kept.html", selectors.kept_page())


def _decide(request, pk, call, success):
    record = get_object_or_404(FieldRecord, pk=pk)
    attempt(request, None, lambda: call(record), success=success)
    return redirect(f"{reverse('fieldwork:kept')}#record-{pk}")


@role_required(Role.SMO)
@require_http_methods(["POST"])
def apply(request, pk):
    return _decide(
        request,
        pk,
        lambda record: services.field_record_apply(actor=request.user, record=record),
        "Applied.",
    )


@role_required(Role.SMO)
@require_http_methods(["POST"])
def set_aside(request, pk):
    return _decide(
        request,
        pk,
        lambda record: services.field_record_set_aside(
            actor=request.user, record=record, note=request.POST.get("note", "")
        ),
        "Set aside; it stays listed below with its contents.",
    )
