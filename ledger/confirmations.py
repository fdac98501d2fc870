"""What the ledger's binding acts do, for their "I confirm: …" box
(kernel.confirmations; registered by LedgerConfig.ready())."""

from kernel.confirmations import builder
from kernel.humanize import money


@builder("payment_record")
def _payment_record(charge) -> str:
    return (
        "Recording the payment puts it on the Village's books against "
        f"{charge.reference} (balance now {money(charge.balance())}) and issues a "
        "numbered receipt, e-mailed to the payer when an address is on file; a "
        "mistake can afterwards only be voided with its reason, never deleted."
    )


@builder("payment_void")
def _payment_void(payment) -> str:
    return (
        f"Voiding receipt {payment.receipt_number} ({money(payment.amount)}) takes "
        "it out of the balance and the treasurer's report; it stays on the ledger, "
        "with the reason, and cannot be restored."
    )


@builder("charge_write_off")
def _charge_write_off(charge) -> str:
    return (
        f"Writing off the balance of {money(charge.balance())} on "
        f"{charge.reference} means the Village will not collect it; the reason is "
        "kept in the case file and a later payment can no longer be recorded."
    )


@builder("court_refer")
def _court_refer(charge) -> str:
    return (
        f"Referring {charge.reference} sends its unpaid balance of "
        f"{money(charge.balance())} to the Justice Court for prosecution; the "
        "court packet is then printed from the referral. The charge can no longer "
        "be written off from this page."
    )


@builder("court_disposition")
def _court_disposition(referral) -> str:
    return (
        "Recording the court's disposition is final: a conviction enters the "
        "defendant's offense history (it counts for the tier of a later notice) "
        "and the fine and surcharge imposed become a charge on the ledger."
    )
