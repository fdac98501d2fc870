"""Each charge keeps what its payments not voided come to (`Charge.received`),
filled in here for the charges there are; the partial index of the charges still
owed, by due date, serves the SMO's queue of charges past due."""

from decimal import Decimal

from django.db import migrations, models
from django.db.models import OuterRef, Subquery, Sum
from django.db.models.functions import Coalesce


def fill(apps, schema_editor):
    Charge = apps.get_model("ledger", "Charge")
    Payment = apps.get_model("ledger", "Payment")
    paid = (
        Payment.objects.filter(charge=OuterRef("pk"), voided_at__isnull=True)
        .order_by()
        .values("charge")
        .annotate(total=Sum("amount"))
        .values("total")
    )
    Charge.objects.update(
        received=Coalesce(
            Subquery(
                paid, output_field=models.DecimalField(max_digits=10, decimal_places=2)
            ),
            Decimal("0.00"),
        )
    )


class Migration(migrations.Migration):
    dependencies = [
        ("ledger", "0003_court_referrals"),
    ]

    operations = [
        migrations.AddField(
            model_name="charge",
            name="received",
            field=models.DecimalField(
                decimal_places=2, default=Decimal("0.00"), editable=False, max_digits=10
            ),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
        migrations.AddIndex(
            model_name="charge",
            index=models.Index(
                condition=models.Q(
                    ("written_off_at__isnull", True),
                    ("referred_on__isnull", True),
                    ("received__lt", models.F("amount")),
                ),
                fields=["due_on", "id"],
                name="charge_owed_by_due_on",
            ),
        ),
    ]
