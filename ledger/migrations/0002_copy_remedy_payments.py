"""The invoices of corrective measures and abatements, and the payments recorded
against them before the ledger (enforcement.RemedyPayment), copied onto the
ledger (issue 27): one charge per invoice issued, one payment per row, with a
receipt number of the year it was received."""

from django.db import migrations

KINDS = {
    "corrective_action": ("corrective_invoice", "INV-CM"),
    "abatement": ("abatement_invoice", "INV-NA"),
}


def _payer(link, remedy):
    if link == "corrective_action":
        return remedy.notice.recipient_id
    return remedy.case.responsible_party_id


def copy(apps, schema_editor):
    Charge = apps.get_model("ledger", "Charge")
    Payment = apps.get_model("ledger", "Payment")
    ReceiptSequence = apps.get_model("ledger", "ReceiptSequence")
    RemedyPayment = apps.get_model("enforcement", "RemedyPayment")
    models = {
        "corrective_action": apps.get_model("enforcement", "CorrectiveAction"),
        "abatement": apps.get_model("enforcement", "NuisanceAbatement"),
    }
    charges = {}
    for link, model in models.items():
        kind, prefix = KINDS[link]
        for remedy in model.objects.filter(invoice_amount__isnull=False):
            payer = _payer(link, remedy)
            if payer is None or not remedy.invoice_amount:
                continue
            charges[(link, remedy.pk)] = Charge.objects.create(
                kind=kind,
                case_id=remedy.case_id,
                payer_id=payer,
                amount=remedy.invoice_amount,
                reference=remedy.invoice_number or f"{prefix}-{remedy.pk}",
                issued_on=remedy.invoiced_on or remedy.created_at.date(),
                due_explanation="Payable on receipt of the invoice.",
                **{link: remedy},
            )
    for old in RemedyPayment.objects.order_by("paid_on", "pk"):
        link = "corrective_action" if old.corrective_action_id else "abatement"
        charge = charges.get((link, old.corrective_action_id or old.abatement_id))
        if charge is None:
            continue
        seq, _ = ReceiptSequence.objects.get_or_create(year=old.paid_on.year)
        seq.last += 1
        seq.save()
        Payment.objects.create(
            charge=charge,
            received_on=old.paid_on,
            amount=old.amount,
            method=old.method,
            check_number=old.reference if old.method == "check" else "",
            receipt_number=f"R-{old.paid_on.year}-{seq.last:05d}",
            recorded_by_id=old.recorded_by_id,
            recorded_at=old.recorded_at,
        )


class Migration(migrations.Migration):
    dependencies = [
        ("ledger", "0001_initial"),
        ("enforcement", "0016_hearing_notice_sent_by_email"),
    ]

    operations = [migrations.RunPython(copy, migrations.RunPython.noop)]
