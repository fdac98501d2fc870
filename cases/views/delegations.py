"""The SMO's written delegations (§ 132-5, R-ADM-1): the list every member of
staff may read, the form the SMO records one with, and ending one early."""

from django import forms
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from kernel.actions import attempt
from kernel.delegations import delegation_end, delegation_grant
from kernel.humanize import human_date
from kernel.models import Delegation
from kernel.roles import Role, may_delegate, role_required
from kernel.widgets import DateInput

STAFF = tuple(Role)


class DelegateField(forms.ModelChoiceField):
    def label_from_instance(self, obj):
        return obj.get_full_name() or obj.username


class DelegationForm(forms.Form):
    delegate = DelegateField(
        queryset=get_user_model().objects.none(), label="Delegate (who may act)"
    )
    powers = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}),
        label="Powers or duties delegated",
        max_length=2000,
    )
    starts_on = forms.DateField(label="From", widget=DateInput())
    ends_on = forms.DateField(
        label="To (last day)",
        widget=DateInput(),
        required=False,
        help_text="Leave empty for a delegation until it is ended.",
    )
    instrument = forms.CharField(
        label="Written instrument (letter, resolution) and its date", max_length=200
    )

    def __init__(self, *args, actor=None, **kwargs):
        super().__init__(*args, **kwargs)
        staff = get_user_model().objects.filter(
            is_active=True, groups__name__in=[r.value for r in Role]
        )
        if actor is not None:
            staff = staff.exclude(pk=actor.pk)
        self.fields["delegate"].queryset = staff.distinct().order_by(
            "last_name", "first_name", "username"
        )

    def clean(self):
        data = super().clean()
        start, end = data.get("starts_on"), data.get("ends_on")
        if start and end and end < start:
            self.add_error("ends_on", "The end cannot be before the start.")
        return data


class EndForm(forms.Form):
    ends_on = forms.DateField(label="Last day", widget=DateInput())


def _rows(today, may_write, end_forms):
    rows = []
    for d in Delegation.objects.select_related(
        "delegate", "granted_by", "ended_by"
    ).order_by("-starts_on", "-pk"):
        state = d.state_on(today)
        form = None
        if may_write and state != Delegation.State.ENDED:
            form = end_forms.get(d.pk) or EndForm(
                prefix=f"end-{d.pk}", initial={"ends_on": today}
            )
        rows.append({"d": d, "state": Delegation.State(state), "end_form": form})
    return rows


def _page(request, *, form=None, end_forms=None, status=200):
    today = timezone.localdate()
    may_write = may_delegate(request.user)
    if may_write and form is None:
        form = DelegationForm(actor=request.user)
    return render(
        request,
        "cases/delegations.html",
        {
            "rows": _rows(today, may_write, end_forms or {}),
            "form": form if may_write else None,
            "may_write": may_write,
            "today": today,
        },
        status=status,
    )


@role_required(*STAFF)
def delegation_list(request):
    """Every delegation, current / ended / future; the SMO's form to record one."""
    if request.method != "POST":
        return _page(request)
    if not may_delegate(request.user):
        return _forbidden(request)
    form = DelegationForm(request.POST, actor=request.user)
    made = attempt(
        request,
        form,
        lambda: delegation_grant(actor=request.user, **form.cleaned_data),
    )
    if made is None:
        return _page(request, form=form)
    end = f" to {human_date(made.ends_on)}" if made.ends_on else " until ended"
    messages.success(
        request,
        f"Delegation recorded: {made.delegate.get_full_name() or made.delegate} "
        f"may act for the SMO from {human_date(made.starts_on)}{end} "
        f"({made.instrument}); what they do under it is marked in the chronology.",
    )
    return redirect("cases:delegations")


@require_POST
@role_required(*STAFF)
def delegation_end_view(request, pk):
    """End a delegation early (its last day); bad input → the page with it kept."""
    if not may_delegate(request.user):
        return _forbidden(request)
    delegation = get_object_or_404(Delegation, pk=pk)
    form = EndForm(request.POST, prefix=f"end-{pk}")
    done = attempt(
        request,
        form,
        lambda: delegation_end(
            delegation=delegation,
            actor=request.user,
            ends_on=form.cleaned_data["ends_on"],
        ),
    )
    if done is None:
        return _page(request, end_forms={pk: form})
    messages.success(
        request,
        f"Delegation to {done.delegate.get_full_name() or done.delegate} ended "
        f"early: its last day is {human_date(done.ends_on)}.",
    )
    return redirect("cases:delegations")


def _forbidden(request):
    from django.core.exceptions import PermissionDenied

    raise PermissionDenied("Only the SMO in person may change delegations.")
