"""Deadline pages: the public calculator and its JSON API, the staff list with
met/waive actions, reminders sent, office closures, and the iCal feed."""

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from jobs import exports
from kernel.actions import attempt
from kernel.citations import UnknownCitation, citation
from kernel.humanize import human_date
from kernel.paging import query_without_page
from kernel.roles import Role, has_role, role_required
from kernel.site_url import site_url

from . import ical, selectors, services
from .engine import RULES, UnknownRule
from .exports import DEADLINES
from .forms import (
    CalculatorForm,
    ClosureForm,
    ComputeApiForm,
    ListFilterForm,
    MeetForm,
    WaiveForm,
)
from .models import Deadline, OfficeClosure, Reminder
from .words import legal_basis

READERS = (Role.SMO, Role.CLERK)


def _citation_text(rule_id: str):
    """The rule's Citation (section, heading) from the one table, or None."""
    try:
        return citation(rule_id)
    except UnknownCitation:
        return None


# --- public ---------------------------------------------------------------------


# The rule a resident most often needs, first in the calculator and in its words.
APPEAL_RULE = "R-APL-1"


def _resident_rule_choices(choices):
    """The calculator's rules by their plain names (the rule id stays in the
    option's value and one click away on the page), the appeal first."""
    plain = [(rule_id, RULES[rule_id].label) for rule_id, _ in choices]
    return sorted(plain, key=lambda choice: choice[0] != APPEAL_RULE)


@require_GET
def calculator(request):
    """Rule + date → due date and how it was counted. A GET form: works
    without JavaScript and the answer can be bookmarked. Speaks to residents:
    the appeal rule (R-APL-1) first, the rule ids and the API in a details
    element."""
    form = CalculatorForm(request.GET or None, initial={"rule": APPEAL_RULE})
    form.fields["rule"].choices = _resident_rule_choices(form.fields["rule"].choices)
    result = words = basis = None
    if form.is_valid():
        calendar = services.office_calendar()
        result = services.compute_due(
            form.cleaned_data["rule"],
            form.cleaned_data["event_date"],
            calendar=calendar,
        )
        # A resident reads how it was counted in words; the engine's own
        # explanation (rule ids, "GCL §") is the office's (issue 26).
        words = services.explain_to_people(result, calendar=calendar)
        basis = legal_basis(result.rule_id)
    return render(
        request,
        "deadlines/calculator.html",
        {
            "form": form,
            "result": result,
            "words": words,
            "basis": basis,
            "appeal": RULES[APPEAL_RULE],
            "appeal_citation": _citation_text(APPEAL_RULE),
            "citation": _citation_text(result.rule_id) if result else None,
        },
    )


def _bad(form: ComputeApiForm) -> JsonResponse:
    errors = form.api_errors()
    first = next(iter(errors.values()))[0]
    return JsonResponse({"error": first, "errors": errors}, status=400)


@require_GET
def api_compute(request):
    """GET /api/deadlines/compute?rule=R-APL-1&from=2026-12-10[&days=N]: the
    calculator's form (ComputeApiForm) under the API's names; 400 with the form's
    errors, the first of them as ``error``."""
    form = ComputeApiForm(request.GET)
    if not form.is_valid():
        return _bad(form)
    rule_id, event_date = form.cleaned_data["rule"], form.cleaned_data["event_date"]
    try:
        result = services.compute_due(rule_id, event_date, **form.params())
    except (UnknownRule, ValueError, OverflowError) as exc:
        form.add_error(None, str(exc))
        return _bad(form)
    return JsonResponse(
        {
            "rule": rule_id,
            "from": event_date.isoformat(),
            "due": result.due.isoformat(),
            "explanation": result.explanation,
        }
    )


# --- staff ----------------------------------------------------------------------


def deadline_list_filtered(request):
    """The list's filter form and the deadlines it selects for this user, with
    their reminders: the one reading of the filters for the page and its exports.
    A malformed filter selects the default (open ones; the form says why)."""
    form = ListFilterForm(request.GET or None)
    data = form.cleaned_data if form.is_valid() else {}
    qs = selectors.filter_deadlines(
        selectors.deadlines_for_role(request.user),
        show=data.get("show") or "open",
        responsible=data.get("responsible", ""),
        rule_id=data.get("rule", ""),
        mine_of=request.user if data.get("mine") else None,
    )
    return form, selectors.with_reminders(qs)


@role_required(*READERS)
def deadline_list(request):
    form, deadlines = deadline_list_filtered(request)
    page = Paginator(deadlines, 50).get_page(request.GET.get("page"))
    return render(
        request,
        "deadlines/list.html",
        {
            "form": form,
            "page": page,
            "query": query_without_page(request),
            "export_links": exports.export_links(request, "deadlines:export"),
        },
    )


def deadline_export_rows(request):
    form, deadlines = deadline_list_filtered(request)
    if form.is_bound and not form.is_valid():
        return None
    return deadlines


DEADLINES_EXPORT = exports.ListExport(
    name="deadlines",
    title="Deadlines",
    columns=DEADLINES,
    rows=deadline_export_rows,
    roles=READERS,
    list_url="deadlines:list",
)


@role_required(*DEADLINES_EXPORT.roles)
@require_GET
def deadline_export(request, fmt):
    """Every deadline the filtered list shows (all its pages), as CSV or XLSX."""
    return exports.export_list(request, DEADLINES_EXPORT, fmt)


def _visible_deadline(request, pk: int) -> Deadline:
    return get_object_or_404(
        selectors.with_reminders(selectors.deadlines_for_role(request.user)), pk=pk
    )


def _detail(request, deadline, *, meet_form=None, waive_form=None, status=200):
    may_close = deadline.is_open and selectors.may_close_deadline(
        request.user, deadline
    )
    return render(
        request,
        "deadlines/detail.html",
        {
            "d": deadline,
            "may_close": may_close,
            "meet_form": meet_form or MeetForm(deadline=deadline),
            "waive_form": waive_form or WaiveForm(),
            "citation": _citation_text(deadline.rule_id),
        },
        status=status,
    )


@role_required(*READERS)
def deadline_detail(request, pk: int):
    return _detail(request, _visible_deadline(request, pk))


def _closing(request, pk):
    deadline = _visible_deadline(request, pk)
    if not selectors.may_close_deadline(request.user, deadline):
        raise PermissionDenied("Your role does not close this deadline.")
    if not deadline.is_open:
        messages.warning(request, "This deadline is already closed.")
        return deadline, redirect("deadlines:detail", pk=pk)
    return deadline, None


@require_POST
@role_required(*READERS)
def deadline_meet(request, pk: int):
    deadline, done = _closing(request, pk)
    if done:
        return done
    form = MeetForm(request.POST, deadline=deadline)
    if not form.is_valid():
        return _detail(request, deadline, meet_form=form, status=400)
    deadline = services.meet_deadline(
        deadline, on=form.cleaned_data["on"], actor=request.user
    )
    late = " late (missed)" if deadline.was_missed else ""
    messages.success(request, f"Recorded{late}: {deadline.label}.")
    return redirect("deadlines:detail", pk=pk)


@require_POST
@role_required(*READERS)
def deadline_waive(request, pk: int):
    deadline, done = _closing(request, pk)
    if done:
        return done
    form = WaiveForm(request.POST)
    if not form.is_valid():
        return _detail(request, deadline, waive_form=form, status=400)
    services.waive_deadline(
        deadline, reason=form.cleaned_data["reason"], actor=request.user
    )
    messages.success(request, f"Waived: {deadline.label}.")
    return redirect("deadlines:detail", pk=pk)


@role_required(*READERS)
def reminders_sent(request):
    """What was sent, to whom, when (and what is still waiting)."""
    visible = selectors.deadlines_for_role(request.user)
    qs = Reminder.objects.filter(deadline__in=visible.values("pk")).select_related(
        "deadline", "deadline__case"
    )
    page = Paginator(qs.order_by("-created_at", "-id"), 100).get_page(
        request.GET.get("page")
    )
    return render(request, "deadlines/reminders.html", {"page": page})


@require_http_methods(["GET", "POST"])
@role_required(*READERS)
def closures(request):
    """Office closures (not business days). SMO staff add and remove them."""
    may_edit = has_role(request.user, Role.SMO)
    form = ClosureForm(request.POST or None)
    if request.method == "POST":
        if not may_edit:
            raise PermissionDenied("Only SMO staff edit office closures.")
        closure = attempt(
            request,
            form,
            lambda: services.add_office_closure(
                day=form.cleaned_data["day"],
                reason=form.cleaned_data["reason"],
                actor=request.user,
            ),
        )
        if closure is not None:
            messages.success(
                request,
                f"Office closure added on {human_date(form.cleaned_data['day'])}; "
                "open deadlines spanning it were recomputed.",
            )
            return redirect("deadlines:closures")
    return render(
        request,
        "deadlines/closures.html",
        {
            "form": form,
            "may_edit": may_edit,
            "closures": selectors.office_closures_listed(),
        },
        status=400 if request.method == "POST" else 200,
    )


@require_POST
@role_required(Role.SMO)
def closure_remove(request, pk: int):
    closure = get_object_or_404(OfficeClosure, pk=pk)
    services.remove_office_closure(closure=closure, actor=request.user)
    messages.success(
        request,
        f"Office closure of {human_date(closure.day)} removed; open deadlines "
        "spanning it were recomputed.",
    )
    return redirect("deadlines:closures")


@require_http_methods(["GET", "POST"])
@role_required(*Role)
def feed_settings(request):
    """The user's secret iCal URL; regenerating it retires the old one."""
    if request.method == "POST":
        token = ical.regenerate_token(request.user)
        messages.success(
            request, "New calendar address made; the old one no longer works."
        )
        return redirect("deadlines:feed_settings")
    token = ical.token_for(request.user)
    site = site_url(request)
    url = site + reverse("deadlines:ical", kwargs={"token": token.token})
    # The user's other token feeds (the same token): those the providers offer.
    others = [
        (label, site + path) for label, path in ical.other_feeds(request.user, token)
    ]
    return render(
        request,
        "deadlines/feed.html",
        {"token": token, "feed_url": url, "other_feeds": others},
    )


@require_GET
def ical_feed(request, token: str):
    """No sign-in (calendar apps cannot): the secret token is the key."""
    user = ical.user_of_token(token)
    if user is None:
        raise Http404("No such calendar.")
    return ical.calendar_response(
        ical.feed_for_user(user, base=site_url(request)), filename="deadlines.ics"
    )
