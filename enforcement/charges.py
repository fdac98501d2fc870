"""What enforcement asks of the ledger (issue 27), through a registry it owns.

The ledger (the `ledger` app) sits above enforcement and charges what enforcement
demands: a notice's fine (§ 132-13 A(5), R-NOV-1), the invoice of corrective
measures (R-COR-2) or of a summary abatement (R-NUI-1). Enforcement never imports
it: `ledger.apps.LedgerConfig.ready()` registers its functions here (STYLE.md,
"Layers"), and enforcement's services call them by name."""

from collections.abc import Callable
from decimal import Decimal

_LEDGER: dict[str, Callable] = {}

# The names the ledger registers, with what each does.
NAMES = {
    # (notice, actor) -> the fine's charge, when the notice requires a fine
    "notice_issued": "charge the fine a notice requires, as it is issued",
    # (remedy, actor) -> the invoice's charge
    "remedy_invoiced": "charge an invoice of corrective measures or abatement",
    # (remedy, actor, received_on, amount, method, check_number, receipt_number)
    "remedy_payment": "record a payment against a remedy's invoice",
    # (remedy) -> Decimal
    "remedy_paid": "what was paid of a remedy's invoice (payments not voided)",
    # (remedy) -> list of payments not voided
    "remedy_payments": "the payments of a remedy's invoice",
    # (remedy) -> the invoice's charge or None
    "remedy_charge": "the charge of a remedy's invoice",
    # (notice) -> the fine's charge or None
    "notice_charge": "the charge of a notice's fine",
}


def register(name: str, fn: Callable) -> None:
    if name not in NAMES:
        raise KeyError(f"enforcement.charges has no hook {name!r}")
    _LEDGER[name] = fn


def _call(name, *args, default=None, **kwargs):
    fn = _LEDGER.get(name)
    if fn is None:
        return default
    return fn(*args, **kwargs)


def notice_issued(notice, actor):
    return _call("notice_issued", notice, actor)


def remedy_invoiced(remedy, actor):
    return _call("remedy_invoiced", remedy, actor)


def remedy_payment(remedy, actor, **fields):
    fn = _LEDGER.get("remedy_payment")
    if fn is None:
        raise RuntimeError("The ledger is not installed: payments cannot be recorded.")
    return fn(remedy, actor, **fields)


def remedy_paid(remedy) -> Decimal:
    if remedy.pk is None:
        return Decimal(0)
    return _call("remedy_paid", remedy, default=Decimal(0))


def remedy_payments(remedy) -> list:
    if remedy.pk is None:
        return []
    return _call("remedy_payments", remedy, default=[])


def notice_charge(notice):
    if notice.pk is None:
        return None
    return _call("notice_charge", notice)


def remedy_charge(remedy):
    if remedy.pk is None:
        return None
    return _call("remedy_charge", remedy)
