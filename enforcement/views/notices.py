"""Notice of violation screens (SMO; the clerk may read)."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_POST

from cases.models import Case, Party
from jobs import exports
from kernel.actions import (
    action_forms,
    confirmed_form_class,
    step_data,
    take_step,
)
from kernel.humanize import human_date
from kernel.roles import has_role, role_required

from .. import charges, selectors
from ..exports import NOTICES
from ..forms import (
    NOTICE_STEP_FORMS,
    DeliveryForm,
    NoticeForm,
    OffenseForm,
    ServiceCorrectionForm,
    ServiceForm,
)
from ..models import NoticeOfViolation, ServiceRecord
from ..penalties import tier_for_party
from ..services import mail as mail_svc
from ..services import notices as svc
from ..services import remedies as remedy_svc
from .common import APPEAL_RECORDERS, READERS, SMO_ONLY, attempt


@role_required(*SMO_ONLY)
def notice_list(request):
    return render(
        request,
        "enforcement/notice_list.html",
        {
            "notices": selectors.notice_list(),
            "export_links": exports.export_links(request, "enforcement:notice_export"),
        },
    )


NOTICES_EXPORT = exports.ListExport(
    name="notices-of-violation",
    title="Notices of violation",
    columns=NOTICES,
    rows=lambda request: selectors.notice_list(),
    roles=SMO_ONLY,
)


@role_required(*NOTICES_EXPORT.roles)
@require_GET
def notice_export(request, fmt):
    """The notices of violation as the list shows them, as CSV or XLSX."""
    return exports.export_list(request, NOTICES_EXPORT, fmt)


@role_required(*READERS)
def case_enforcement(request, case_pk):
    case = get_object_or_404(Case.objects.select_related("premises"), pk=case_pk)
    return render(request, "enforcement/case_enforcement.html", {"case": case})


@role_required(*SMO_ONLY)
def notice_create(request, case_pk):
    case = get_object_or_404(Case, pk=case_pk)
    recipients = svc.case_recipients(case)
    initial = {
        "recipient": case.responsible_party_id,
        "violation_date": case.violation_confirmed_on,
        "findings": case.violation_finding,
    }
    form = NoticeForm(request.POST or None, recipients=recipients, initial=initial)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        notice = attempt(
            request,
            form,
            lambda: svc.notice_draft(
                case=case,
                actor=request.user,
                recipient=d["recipient"],
                violation_date=d["violation_date"],
                findings=d["findings"],
                requirements=d["requirements"],
                remediation_days=d["remediation_days"],
                proposed_fine=d["proposed_fine"],
                compliance_days=d["compliance_days"],
            ),
            success="Draft notice saved. Review it, then issue it.",
        )
        if notice is not None:
            return redirect("enforcement:notice_detail", pk=notice.pk)
    return render(
        request,
        "enforcement/notice_form.html",
        {"form": form, "case": case, "tier": _tier(form, case)},
    )


def _tier(form, case):
    recipient = form["recipient"].value() or case.responsible_party_id
    date = case.violation_confirmed_on
    party = Party.objects.filter(pk=recipient).first() if recipient else None
    if party is None or date is None:
        return None
    return tier_for_party(party, date, exclude_case=case)


@role_required(*SMO_ONLY)
def notice_edit(request, pk):
    notice = get_object_or_404(NoticeOfViolation, pk=pk)
    if notice.is_frozen:
        messages.error(
            request,
            "This notice has been issued and is frozen; issue a correction instead.",
        )
        return redirect("enforcement:notice_detail", pk=pk)
    form = NoticeForm(
        request.POST or None,
        recipients=svc.case_recipients(notice.case),
        initial=NoticeForm.initial_for(notice),
    )
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        done = attempt(
            request,
            form,
            lambda: svc.notice_update(
                notice=notice,
                actor=request.user,
                recipient=d["recipient"],
                violation_date=d["violation_date"],
                findings=d["findings"],
                requirements=d["requirements"],
                remediation_days=d["remediation_days"],
                proposed_fine=d["proposed_fine"],
                compliance_days=d["compliance_days"],
            ),
            success="Draft saved.",
        )
        if done is not None:
            return redirect("enforcement:notice_detail", pk=pk)
    return render(
        request,
        "enforcement/notice_form.html",
        {
            "form": form,
            "case": notice.case,
            "notice": notice,
            "tier": tier_for_party(
                notice.recipient, notice.violation_date, exclude_case=notice.case
            ),
        },
    )


@role_required(*READERS)
def notice_detail(request, pk):
    return _render_detail(request, pk)


def _render_detail(request, pk, *, bound=None, status=200):
    """The notice page; `bound` = {step: submitted form} of a refused step, so the
    user's input and its errors are shown again (a refused delivery outcome:
    {("delivery", record id): form})."""
    bound = bound or {}
    notice = get_object_or_404(
        NoticeOfViolation.objects.select_related("case", "recipient", "supersedes"),
        pk=pk,
    )
    may_write = has_role(request.user, *SMO_ONLY)
    # The outcome of certified mail: the SMO's or the clerk's to record.
    may_record_delivery = has_role(request.user, *APPEAL_RECORDERS)
    services = list(notice.service_records.prefetch_related("corrections"))
    for record in services:
        record.delivery_form = (
            bound.pop(("delivery", record.pk), None)
            or DeliveryForm(prefix=f"delivery-{record.pk}")
            if may_record_delivery and record.awaits_delivery_outcome
            else None
        )
    late = selectors.late_service(notice, services)
    actions = action_forms(notice, request.user, NOTICE_STEP_FORMS, bound=bound)
    tier = None
    if notice.requires_fine() and notice.fine_max is None:
        tier = tier_for_party(
            notice.recipient, notice.violation_date, exclude_case=notice.case
        )
    return render(
        request,
        "enforcement/notice_detail.html",
        {
            "notice": notice,
            "actions": actions,
            "deadlines": selectors.key_dates(notice),
            "continued": selectors.continued_violation_for(notice),
            # The fine on the ledger (issue 27, through enforcement.charges).
            "fine_charge": charges.notice_charge(notice),
            "before_appeal_is_over": (
                ""
                if notice.is_frozen
                else selectors.dates_before_the_appeal_is_over(notice)
            ),
            "service_form": ServiceForm(),
            "services": services,
            "late_service": late,
            # The existing ways to issue the notice again (a correction) or
            # withdraw it, offered beside the late service's words.
            "late_service_may_correct": late is not None
            and may_write
            and notice.can_be_corrected(),
            "late_service_may_withdraw": late is not None
            and any(a.name == "withdraw" and a.enabled for a, _ in actions),
            "tier": tier,
            "correction": NoticeOfViolation.objects.filter(supersedes=notice).first(),
            "may_write": may_write,
            "may_record_appeal": has_role(request.user, *APPEAL_RECORDERS),
        },
        status=status,
    )


def _issued_words(n):
    appeal = next((d for d in selectors.key_dates(n) if d.rule_id == "R-APL-1"), None)
    if appeal is not None:
        return (
            f"Notice NOV-{n.pk} issued; the last day to appeal is "
            f"{human_date(appeal.due_date)}."
        )
    return f"Notice NOV-{n.pk} issued."


# step → (service call, what the success message says)
STEP_SERVICES = {
    "issue": (
        lambda n, u, d: svc.notice_issue(notice=n, actor=u),
        _issued_words,
    ),
    "record_compliance": (
        lambda n, u, d: svc.notice_record_compliance(
            notice=n, actor=u, complied_on=d.get("complied_on"), note=d.get("note", "")
        ),
        lambda n: f"Compliance with notice NOV-{n.pk} recorded.",
    ),
    "record_noncompliance": (
        lambda n, u, d: svc.notice_record_noncompliance(
            notice=n, actor=u, note=d.get("note", "")
        ),
        lambda n: f"Notice NOV-{n.pk} recorded as not complied with.",
    ),
    "escalate": (
        lambda n, u, d: svc.notice_escalate(notice=n, actor=u, note=d.get("note", "")),
        lambda n: f"Notice NOV-{n.pk} escalated.",
    ),
    "withdraw": (
        lambda n, u, d: svc.notice_withdraw(
            notice=n, actor=u, reason=d.get("note", "")
        ),
        lambda n: f"Notice NOV-{n.pk} withdrawn.",
    ),
}


@require_POST
@role_required(*READERS)
def notice_step(request, pk, transition):
    notice = get_object_or_404(NoticeOfViolation, pk=pk)

    def step(call, words):
        def take(data, seen):
            done = call(notice, request.user, data)
            return done, words(done)

        return take

    return take_step(
        request,
        notice,
        transition,
        NOTICE_STEP_FORMS,
        {name: step(*pair) for name, pair in STEP_SERVICES.items()},
        lambda bound: _render_detail(request, pk, bound=bound),
    )


@require_POST
@role_required(*SMO_ONLY)
def notice_correct(request, pk):
    notice = get_object_or_404(NoticeOfViolation, pk=pk)
    correction = attempt(
        request,
        None,
        lambda: svc.notice_start_correction(notice=notice, actor=request.user),
        success="Correction drafted: change it, then issue it to supersede the notice.",
    )
    if correction is not None:
        return redirect("enforcement:notice_edit", pk=correction.pk)
    return redirect("enforcement:notice_detail", pk=pk)


@role_required(*SMO_ONLY)
def notice_service(request, pk):
    notice = get_object_or_404(NoticeOfViolation, pk=pk)
    # A binding step (issue 16): the form asks "I confirm: …" saying what it does.
    form_class = confirmed_form_class(ServiceForm, notice, "notice_service")
    form = form_class(request.POST or None)
    if request.method == "POST":
        done = attempt(
            request,
            form,
            lambda: svc.notice_record_service(
                notice=notice, actor=request.user, **step_data(form)
            ),
        )
        if done is not None:
            messages.success(request, svc.service_words(done))
            late = selectors.late_service(notice)
            if late is not None and late.record.pk == done.pk:
                messages.warning(request, f"{late.words} {late.remedy_words}")
            return redirect("enforcement:notice_detail", pk=pk)
    return render(
        request,
        "enforcement/simple_form.html",
        {
            "form": form,
            "title": f"Service of notice {notice.pk}",
            "back": notice,
            "case": notice.case,
        },
    )


@role_required(*SMO_ONLY)
def service_correct(request, pk):
    """Correct a wrongly recorded service, with the reason (issue 26): the old
    values stay on the notice page and in the chronology."""
    record = get_object_or_404(ServiceRecord.objects.select_related("notice"), pk=pk)
    notice = record.notice
    form = ServiceCorrectionForm(
        request.POST or None, initial=ServiceCorrectionForm.initial_from(record)
    )
    if request.method == "POST":
        done = attempt(
            request,
            form,
            lambda: svc.service_record_correct(
                record=record, actor=request.user, **form.cleaned_data
            ),
        )
        if done is not None:
            messages.success(
                request,
                f"Service record corrected. Before: {done.old_words()}. "
                f"{svc.service_words(done.record)}",
            )
            late = selectors.late_service(notice)
            if late is not None and late.record.pk == record.pk:
                messages.warning(request, f"{late.words} {late.remedy_words}")
            return redirect("enforcement:notice_detail", pk=notice.pk)
    return render(
        request,
        "enforcement/simple_form.html",
        {
            "form": form,
            "title": f"Correct the service record of notice {notice.pk}",
            "back": notice,
            "case": notice.case,
        },
    )


@require_POST
@role_required(*APPEAL_RECORDERS)
def service_delivery(request, pk):
    """The outcome of a notice's certified mailing, from the notice page's own
    small form (enforcement.services.mail)."""
    record = get_object_or_404(ServiceRecord, pk=pk)
    form = DeliveryForm(request.POST, prefix=f"delivery-{record.pk}")
    done = attempt(
        request,
        form,
        lambda: mail_svc.mail_record_outcome(
            record=record,
            actor=request.user,
            outcome=form.cleaned_data["outcome"],
            on=form.cleaned_data["on"],
        ),
    )
    if done is None:
        return _render_detail(
            request, record.notice_id, bound={("delivery", record.pk): form}
        )
    messages.success(
        request,
        f"Outcome of the mailing of notice NOV-{record.notice_id} recorded: "
        f"{done.delivery_words()}",
    )
    return redirect("enforcement:notice_detail", pk=record.notice_id)


@role_required(*SMO_ONLY)
def party_offenses(request, pk):
    party = get_object_or_404(Party, pk=pk)
    form = OffenseForm(request.POST or None)
    form.fields["case"].queryset = Case.objects.filter(
        pk__in=list(party.cases_responsible.values_list("pk", flat=True))
        + list(party.case_roles.values_list("case_id", flat=True))
    )
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        done = attempt(
            request,
            form,
            lambda: remedy_svc.offense_record(party=party, actor=request.user, **d),
            success="Offense recorded.",
        )
        if done is not None:
            return redirect("enforcement:party_offenses", pk=pk)
    return render(
        request,
        "enforcement/party_offenses.html",
        {
            "party": party,
            "form": form,
            "offenses": party.offenses.select_related("case"),
        },
    )
