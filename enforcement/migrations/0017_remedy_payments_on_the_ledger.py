"""The payments of an invoice are the ledger's (issue 27): copied by
ledger/0002_copy_remedy_payments before this removes the old table."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("enforcement", "0016_hearing_notice_sent_by_email"),
        ("ledger", "0002_copy_remedy_payments"),
    ]

    operations = [migrations.DeleteModel(name="RemedyPayment")]
