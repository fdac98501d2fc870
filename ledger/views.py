"""The ledger's staff pages (issue 27): the ledger with its filters and
exports, a charge with its payments (record at the window, void, write off),
and the treasurer's report. Readers: SMO and clerk; writers: the SMO."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST

from documents.selectors import latest_document
from jobs import exports
from kernel.actions import attempt, confirmed_form_class
from kernel.humanize import money
from kernel.paging import IdsFirstPaginator, query_without_page
from kernel.roles import CASE_READERS, Role, has_role, role_required

from . import selectors, services
from .court_views import refer_form
from .document_kinds import LedgerDocument
from .exports import LEDGER_COLUMNS, PAYMENT_COLUMNS
from .forms import LedgerFilterForm, PaymentForm, PeriodForm, ReasonForm
from .models import Charge, Payment

PAY, VOID, WRITE_OFF = "pay", "void", "writeoff"
PAGE_SIZE = 25  # charges on a page of the ledger (as the case list); totals are of all


def _pay_form(charge, data=None):
    return confirmed_form_class(PaymentForm, charge, "payment_record")(data, prefix=PAY)


def _void_form(payment, data=None):
    return confirmed_form_class(ReasonForm, payment, "payment_void")(
        data, prefix=f"{VOID}{payment.pk}"
    )


def _write_off_form(charge, data=None):
    return confirmed_form_class(ReasonForm, charge, "charge_write_off")(
        data, prefix=WRITE_OFF
    )


def _charge_page(
    request, charge, *, pay_form=None, void_form=None, write_off=None, refer=None
):
    charge = get_object_or_404(selectors.charges_base(), pk=charge.pk)
    may_write = has_role(request.user, Role.SMO)
    payments = []
    for p in charge.payments.select_related("recorded_by", "voided_by"):
        form = None
        if may_write and not p.is_voided:
            form = void_form if void_form and void_form.payment == p else None
            form = form or _void_form(p)
            form.payment = p
        p.receipt = latest_document(p, LedgerDocument.PAYMENT_RECEIPT)
        payments.append((p, form))
    open_balance = charge.takes_payments
    context = {
        "charge": charge,
        "case": charge.case,
        "payments": payments,
        "pay_form": (pay_form or _pay_form(charge))
        if may_write and open_balance and charge.balance()
        else None,
        "write_off_form": (write_off or _write_off_form(charge))
        if may_write and charge.balance()
        else None,
        "refer_form": (refer or refer_form(charge))
        if may_write and charge.balance() and charge.referred_on is None
        else None,
        "referral": getattr(charge, "court_referral", None)
        if charge.referred_on
        else None,
    }
    return render(request, "ledger/charge_detail.html", context)


@role_required(*CASE_READERS)
@require_http_methods(["GET"])
def charge_detail(request, pk):
    return _charge_page(request, get_object_or_404(Charge, pk=pk))


@role_required(Role.SMO)
@require_POST
def payment_record(request, pk):
    charge = get_object_or_404(Charge, pk=pk)
    form = _pay_form(charge, request.POST)

    def call():
        data = form.cleaned_data
        return services.payment_record(
            charge=charge,
            actor=request.user,
            received_on=data["received_on"],
            amount=data["amount"],
            method=data["method"],
            check_number=data["check_number"],
            receipt_number=data["receipt_number"],
        )

    payment = attempt(request, form, call)
    if payment is None:
        return _charge_page(request, charge, pay_form=form)
    charge.refresh_from_db()
    left = charge.balance()
    messages.success(
        request,
        f"Payment of {money(payment.amount)} recorded against {charge.reference}, "
        f"receipt {payment.receipt_number}; "
        + (f"{money(left)} remains due." if left else "paid in full."),
    )
    return redirect(charge.get_absolute_url())


@role_required(Role.SMO)
@require_POST
def payment_void(request, pk):
    payment = get_object_or_404(Payment.objects.select_related("charge"), pk=pk)
    form = _void_form(payment, request.POST)
    form.payment = payment
    done = attempt(
        request,
        form,
        lambda: services.payment_void(
            payment=payment, actor=request.user, reason=form.cleaned_data["reason"]
        ),
    )
    if done is None:
        return _charge_page(request, payment.charge, void_form=form)
    messages.success(
        request,
        f"Receipt {payment.receipt_number} ({money(payment.amount)}) voided; it "
        "stays on the ledger with the reason.",
    )
    return redirect(payment.charge.get_absolute_url())


@role_required(Role.SMO)
@require_POST
def charge_write_off(request, pk):
    charge = get_object_or_404(Charge, pk=pk)
    left = charge.balance()
    form = _write_off_form(charge, request.POST)
    done = attempt(
        request,
        form,
        lambda: services.charge_write_off(
            charge=charge, actor=request.user, reason=form.cleaned_data["reason"]
        ),
    )
    if done is None:
        return _charge_page(request, charge, write_off=form)
    messages.success(
        request, f"The balance of {money(left)} on {charge.reference} is written off."
    )
    return redirect(charge.get_absolute_url())


def _filtered(request):
    form = LedgerFilterForm(request.GET or None)
    filters = {}
    if form.is_bound and form.is_valid():
        filters = {k: v for k, v in form.cleaned_data.items() if v}
    return form, selectors.ledger_search(**filters)


@role_required(*CASE_READERS)
@require_http_methods(["GET"])
def ledger_list(request):
    form, charges = _filtered(request)
    totals = selectors.ledger_totals(charges)
    pages = IdsFirstPaginator(charges, PAGE_SIZE, rows=selectors.charges_base())
    pages.count = totals["count"]  # counted with the totals
    return render(
        request,
        "ledger/ledger_list.html",
        {
            "form": form,
            "page": pages.get_page(request.GET.get("page")),
            "query": query_without_page(request),
            "totals": totals,
            "export_links": exports.export_links(request, "ledger:export"),
        },
    )


def ledger_export_rows(request):
    form, charges = _filtered(request)
    if form.is_bound and not form.is_valid():
        return None
    return selectors.printed(charges)


LEDGER_EXPORT = exports.ListExport(
    name="ledger",
    title="Ledger",
    columns=LEDGER_COLUMNS,
    rows=ledger_export_rows,
    roles=CASE_READERS,
    list_url="ledger:list",
)


@role_required(*LEDGER_EXPORT.roles)
@require_http_methods(["GET"])
def ledger_export(request, fmt):
    """Every charge the filtered ledger shows, as CSV or XLSX."""
    return exports.export_list(request, LEDGER_EXPORT, fmt)


def _period(request):
    form = PeriodForm(request.GET or None)
    today = timezone.localdate()
    start = today.replace(day=1)
    end = today
    if form.is_bound and form.is_valid():
        start = form.cleaned_data["start"] or start
        end = form.cleaned_data["end"] or end
    return form, start, end


@role_required(*CASE_READERS)
@require_http_methods(["GET"])
def treasurer_report(request):
    form, start, end = _period(request)
    report = selectors.treasurer_report(start, end) if start <= end else None
    return render(
        request,
        "ledger/treasurer.html",
        {
            "form": form,
            "start": start,
            "end": end,
            "report": report,
            "export_links": exports.export_links(request, "ledger:payments"),
        },
    )


def payments_export_rows(request):
    form, start, end = _period(request)
    if form.is_bound and not form.is_valid():
        return None
    return selectors.payments_received(start, end)


PAYMENTS_EXPORT = exports.ListExport(
    name="payments",
    title="Payments received",
    columns=PAYMENT_COLUMNS,
    rows=payments_export_rows,
    roles=CASE_READERS,
    list_url="ledger:treasurer",
)


@role_required(*PAYMENTS_EXPORT.roles)
@require_http_methods(["GET"])
def payments_export(request, fmt):
    """The payments of the treasurer's report's period (not voided), as CSV or
    XLSX: the same rows and total as the page."""
    return exports.export_list(request, PAYMENTS_EXPORT, fmt)
