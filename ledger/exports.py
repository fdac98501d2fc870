"""The columns of the ledger's exports (jobs.exports writes them)."""

from jobs.exports import Column, person

LEDGER_COLUMNS = (
    Column("Reference", lambda c: c.reference),
    Column("Kind", lambda c: c.get_kind_display()),
    Column("Case", lambda c: c.case.number),
    Column("Payer", lambda c: c.payer.name),
    Column("Issued on", lambda c: c.issued_on),
    Column("Due on", lambda c: c.due_on),
    Column("Amount", lambda c: c.amount),
    Column("Paid", lambda c: c.amount_paid()),
    Column("Balance", lambda c: c.balance()),
    Column("Status", lambda c: c.get_status_display()),
    Column("Written off reason", lambda c: c.write_off_reason),
    Column("Referred to the Justice Court on", lambda c: c.referred_on),
    Column("Page", lambda c: c.get_absolute_url(), link=True),
)

PAYMENT_COLUMNS = (
    Column("Receipt number", lambda p: p.receipt_number),
    Column("Received on", lambda p: p.received_on),
    Column("Amount", lambda p: p.amount),
    Column("Method", lambda p: p.method_words()),
    Column("Charge", lambda p: p.charge.reference),
    Column("Kind", lambda p: p.charge.get_kind_display()),
    Column("Case", lambda p: p.charge.case.number),
    Column("Payer", lambda p: p.charge.payer.name),
    Column("Recorded by", lambda p: person(p.recorded_by)),
)
