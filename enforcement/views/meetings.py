"""The Board's meetings: the clerk's list (upcoming first) and each meeting's
page with its hearings. The clerk and the SMO read; the clerk writes."""

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from kernel.roles import Role, has_role, role_required
from kernel.site_url import site_url

from .. import selectors
from ..documents.hearing import agenda_text
from ..forms import MeetingForm
from ..ical_feed import board_meetings_ical
from ..models import BoardMeeting
from ..services import meetings as svc
from .common import APPEAL_RECORDERS, attempt


def _may_record(user) -> bool:
    return has_role(user, Role.CLERK)


@role_required(*APPEAL_RECORDERS)
def meeting_list(request):
    form = None
    if _may_record(request.user):
        form = MeetingForm(request.POST or None, prefix="meeting")
    if request.method == "POST":
        if form is None:
            raise PermissionDenied("Only the clerk records the Board's meetings.")
        meeting = attempt(
            request,
            form,
            lambda: svc.meeting_create(
                actor=request.user,
                date=form.cleaned_data["date"],
                time=form.cleaned_data["time"],
                place=form.cleaned_data["place"],
                notes=form.cleaned_data["notes"],
            ),
        )
        if meeting is not None:
            messages.success(request, f"{meeting} recorded.")
            return redirect(meeting.get_absolute_url())
    return render(
        request,
        "enforcement/meeting_list.html",
        {
            "upcoming": BoardMeeting.objects.upcoming().prefetch_related(
                "appeals__appellant", "appeals__notice__case"
            ),
            "past": BoardMeeting.objects.past()[:20],
            "form": form,
        },
    )


@role_required(*APPEAL_RECORDERS)
def meeting_detail(request, pk):
    meeting = get_object_or_404(BoardMeeting, pk=pk)
    return render(
        request,
        "enforcement/meeting_detail.html",
        {
            "meeting": meeting,
            "hearings": selectors.with_limits(meeting.hearings()),
            "may_record": _may_record(request.user),
            "agenda_text": agenda_text(meeting),
        },
    )


@require_POST
@role_required(Role.CLERK)
def meeting_notes(request, pk):
    meeting = get_object_or_404(BoardMeeting, pk=pk)
    svc.meeting_update(
        meeting=meeting, actor=request.user, notes=request.POST.get("notes", "")
    )
    messages.success(request, "Notes saved.")
    return redirect(meeting.get_absolute_url())


def board_meetings_ics(request):
    """The trustees' calendar of Board meetings (no sign-in: a calendar program
    cannot; it holds only public-meeting facts, no appellant's name)."""
    response = HttpResponse(
        board_meetings_ical(base=site_url(request)),
        content_type="text/calendar; charset=utf-8",
    )
    response["Content-Disposition"] = 'inline; filename="board-meetings.ics"'
    response["Cache-Control"] = "public, max-age=300"
    return response
